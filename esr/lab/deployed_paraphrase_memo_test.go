package lab

import (
	"context"
	"reflect"
	"testing"

	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// countsMapMemo is a CountsMemo in a map that counts what it keeps.
type countsMapMemo struct {
	m     map[[32]byte][]int
	keeps int
}

func (c *countsMapMemo) RecallCounts(k [32]byte) ([]int, bool) { v, ok := c.m[k]; return v, ok }
func (c *countsMapMemo) KeepCounts(k [32]byte, v []int)        { c.m[k] = v; c.keeps++ }

// A rerun of the paraphrase curve evaluates only the classes it has not
// seen: with the counts memo set, the curve is the curve computed without
// it; an added series evaluates (keeps) its own classes and no other; a
// repeated call evaluates nothing; other readers are other entries; and a
// damaged entry is evaluated again.
func TestParaphraseCurveRerunEvaluatesOnlyNewClasses(t *testing.T) {
	b := benchtest.CleanSubset(t, 60)
	ts, err := sim.NewScripted("time-sorter")
	if err != nil {
		t.Fatal(err)
	}
	readers := []reader.Reader{ts}
	rates := []float64{0, 0.5, 1}
	ctx := context.Background()
	extra := append(append([]memory.Spec{}, ParaphraseSeries...), memory.MustParseSpec("graphiti@dup=0.5"))
	want, err := EvaluateParaphraseCurve(ctx, b, extra, rates, readers)
	if err != nil {
		t.Fatal(err)
	}
	wantBase, err := EvaluateParaphraseCurve(ctx, b, ParaphraseSeries, rates, readers)
	if err != nil {
		t.Fatal(err)
	}

	m := &countsMapMemo{m: map[[32]byte][]int{}}
	SetCountsMemo(m)
	defer SetCountsMemo(nil)
	run := func(what string, series []memory.Spec, rs []reader.Reader, wantKeeps int, want *ParaphraseCurve) {
		t.Helper()
		before := m.keeps
		got, err := EvaluateParaphraseCurve(ctx, b, series, rates, rs)
		if err != nil {
			t.Fatal(err)
		}
		if k := m.keeps - before; k != wantKeeps {
			t.Errorf("%s: evaluated %d classes, want %d", what, k, wantKeeps)
		}
		if want != nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the curve differs from the one computed without the memo:\n%s\nwant\n%s", what, got.Table().Markdown(), want.Table().Markdown())
		}
	}
	n := len(ParaphraseSeries)*len(rates) + 1 // and the baseline
	run("first run", ParaphraseSeries, readers, n, wantBase)
	run("a series added", extra, readers, len(rates), want)
	run("the same again", extra, readers, 0, want)
	cautious, err := sim.NewScripted("cautious")
	if err != nil {
		t.Fatal(err)
	}
	run("another reader", ParaphraseSeries, []reader.Reader{cautious}, n, nil)
	for k, v := range m.m {
		m.m[k] = v[:len(v)-1] // one count short: not whole
	}
	run("damaged entries", extra, readers, len(extra)*len(rates)+1, want)
}
