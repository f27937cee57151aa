package lab

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/cimemo"
)

// A notebook reruns its program for every cell (GoNB), and notebook 45's
// paraphrase curve evaluates every series at every rate: 26 classes read
// by six readers, seconds on two cores. A student's exercise adds one
// series; the classes already on the curve give the same rows. Each
// class's accuracy counts are a deterministic function of the benchmark,
// the class, the readers and the library's code (which fixes the options,
// the judge and the questions, reverted-revert snapshot), so a CountsMemo
// can hand back the counts of a class evaluated before, and a rerun
// evaluates only the classes it has not seen.

// CountsMemo keeps accuracy counts by key. Implementations must be safe
// for concurrent use; a Recall that fails is a miss.
type CountsMemo interface {
	RecallCounts(key [32]byte) ([]int, bool)
	KeepCounts(key [32]byte, c []int)
}

var countsMemo cimemo.Slot[CountsMemo]

// SetCountsMemo makes EvaluateParaphraseCurve consult m for each class's
// counts before it evaluates the class, and keep what it evaluates there;
// nil (the default) turns the memo off. The notebooks' helpers (nbhelp)
// set one under .esr-cache.
func SetCountsMemo(m CountsMemo) { countsMemo.Set(m) }

// curveGroups are the reader groups a class's counts hold, in order.
var curveGroups = []string{OracleGroup, ReadersGroup}

// curveMemo is the memo of one curve's classes: the benchmark's content
// and the readers hashed once.
type curveMemo struct {
	m    CountsMemo
	base string // the benchmark and the readers, hashed
}

// newCurveMemo is the memo for a curve on b read by readers (the oracle
// read-out added by the curve); ok is false when no memo is set.
func newCurveMemo(b *bench.Bench, readers []reader.Reader) (*curveMemo, bool, error) {
	m, ok := countsMemo.Get()
	if !ok {
		return nil, false, nil
	}
	h := sha256.New()
	if err := b.HashTo(h); err != nil {
		return nil, false, err
	}
	for _, r := range readers {
		h.Write([]byte(reader.Fingerprint(r) + "\n"))
	}
	return &curveMemo{m: m, base: hex.EncodeToString(h.Sum(nil))}, true, nil
}

// key is the memo key of class's counts; false for an exec: class, whose
// adapter lies outside the library's code.
func (c *curveMemo) key(class memory.Spec) ([32]byte, bool) {
	if class.Class.IsExec() {
		return [32]byte{}, false
	}
	k := cimemo.NewKey("lab.EvaluateParaphraseCurve counts v1")
	k.String(c.base)
	k.String(class.String())
	return k.Sum(), true
}

// recall returns class's counts per group (curveGroups), when kept whole.
func (c *curveMemo) recall(class memory.Spec) (map[string]eval.Counts, bool) {
	key, ok := c.key(class)
	if !ok {
		return nil, false
	}
	v, ok := c.m.RecallCounts(key)
	if !ok || len(v) != 4*len(curveGroups) {
		return nil, false
	}
	out := map[string]eval.Counts{}
	for i, g := range curveGroups {
		n := eval.Counts{N: v[4*i], Correct: v[4*i+1], Abstained: v[4*i+2], Unreadable: v[4*i+3]}
		if !n.Valid() {
			return nil, false
		}
		out[g] = n
	}
	return out, true
}

// keep keeps class's counts per group.
func (c *curveMemo) keep(class memory.Spec, counts map[string]eval.Counts) {
	key, ok := c.key(class)
	if !ok {
		return
	}
	var v []int
	for _, g := range curveGroups {
		n := counts[g]
		v = append(v, n.N, n.Correct, n.Abstained, n.Unreadable)
	}
	c.m.KeepCounts(key, v)
}
