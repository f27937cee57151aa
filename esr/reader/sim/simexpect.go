package sim

import (
	"math"
	"sort"

	"github.com/esrkit/esrkit/esr/reader"

	"github.com/esrkit/esrkit/esr"
)

// This file computes what a simulated reader answers on average: the exact
// distribution of its answer on one input over its three draws, without
// drawing. Fitting a profile to published numbers (calibration) needs
// expected accuracies that move smoothly with the skills; single draws are
// step functions of them.

// Branch is one branch of a sim reader's decision on one input: which
// capabilities the draws switched on and the answer that follows. A branch
// does not depend on the profile's probabilities, only on its budgets, so
// the branches of an input are computed once and weighed by any profile
// (Branch.Prob).
type Branch struct {
	// Status: the rows' status is used (u_status < Chances.Row);
	// KeyStatus: an unresolved key header is read (u_status <
	// Chances.Key). They share the draw u_status.
	Status, KeyStatus bool
	// Order: a newest-first list is read as ordered (u_order < OrderSkill).
	Order bool
	// Lapse: a settled snapshot answer is replaced (u_lapse < Lapse).
	Lapse bool
	// Prose: the key's values are found in raw event text (u_prose <
	// Chances.Prose).
	Prose bool
	// Phrase is how a snapshot answer is worded ("", "both", "hedge": the
	// u_phrase draw, see Profile.BothValues and Hedge).
	Phrase string
	// Conflict is the conflict policy the draw chose (ConflictFirst,
	// ConflictAbstain, ConflictMajority).
	Conflict string
	// Free marks the capabilities the decision never consulted on this
	// branch (policy.read bits): they weigh 1 whatever their draw.
	Free uint8
	// SortUpTo and SortFrom bound the date sorts: every sort over at most
	// SortUpTo dated records succeeds and every sort over SortFrom or more
	// fails (SortFrom 0: none fails). SortUpTo 1 means no sort of two or
	// more records succeeds.
	SortUpTo, SortFrom int
	Answer             esr.Answer
}

// Prob is the probability of the branch under profile p on a render with
// features f (the render the branch was enumerated on): P(status pair) ·
// P(order) · P(lapse) · P(phrase) · P(conflict policy, see
// Profile.conflictPolicy) ·
// P(Sort(SortFrom) ≤ u_sort < Sort(SortUpTo)), with the chances
// p.Chances(f). The status pair shares one uniform, so P(row and key) =
// min(Row, Key), P(row only) = max(0, Row − Key), P(key only) = max(0,
// Key − Row), P(neither) = 1 − max(Row, Key).
func (b Branch) Prob(p Profile, f RenderFeatures) float64 {
	return b.ProbChances(p, p.Chances(f))
}

// ProbChances is Prob with the render's chances computed once
// (p.Chances(f)), for a caller that weighs many branches of one render.
func (b Branch) ProbChances(p Profile, c Chances) float64 {
	var ps float64
	rowFree, keyFree := b.Free&readRow != 0, b.Free&readKey != 0
	switch {
	case rowFree && keyFree:
		ps = 1
	case rowFree:
		ps = c.Key
		if !b.KeyStatus {
			ps = 1 - c.Key
		}
	case keyFree:
		ps = c.Row
		if !b.Status {
			ps = 1 - c.Row
		}
	case b.Status && b.KeyStatus:
		ps = math.Min(c.Row, c.Key)
	case b.Status:
		ps = math.Max(0, c.Row-c.Key)
	case b.KeyStatus:
		ps = math.Max(0, c.Key-c.Row)
	default:
		ps = 1 - math.Max(c.Row, c.Key)
	}
	switch {
	case b.Free&readOrder != 0:
	case b.Order:
		ps *= c.Order
	default:
		ps *= 1 - c.Order
	}
	switch {
	case b.Free&readLapse != 0:
	case b.Lapse:
		ps *= c.Lapse
	default:
		ps *= 1 - c.Lapse
	}
	switch {
	case b.Free&readProse != 0:
	case b.Prose:
		ps *= c.Prose
	default:
		ps *= 1 - c.Prose
	}
	switch b.Phrase {
	case phraseBoth:
		ps *= p.BothValues
	case phraseHedge:
		ps *= p.Hedge
	default:
		ps *= 1 - p.BothValues - p.Hedge
	}
	pc := 1.0
	if b.Free&readConflict == 0 {
		pFirst, pAbstain := p.conflictPolicy(c)
		switch b.Conflict {
		case ConflictFirst:
			pc = pFirst
		case ConflictAbstain:
			pc = pAbstain
		default:
			pc = math.Max(0, 1-pFirst-pAbstain)
		}
	}
	hi := c.Sort(b.SortUpTo)
	lo := 0.0
	if b.SortFrom > 0 {
		lo = c.Sort(b.SortFrom)
	}
	return ps * pc * math.Max(0, hi-lo)
}

// Branches lists every branch of a reader with profile p's budgets on in:
// status (row and key) used or not, declared order read or not, lapse or
// not, each conflict policy, and each range of record counts up to which
// date sorts succeed (the sort draw u_sort is shared by every sort of the
// item and the sort probability decreases with the count, so a draw is a
// cutoff: sorts up to some count succeed, longer ones fail). Only the draws
// the decision consults are enumerated: a capability the decision never
// reads on a branch (no status shown, no conflict left, ...) is marked Free
// there and weighs 1. sorts says whether the reader sorts dates at all
// (DateSkill > 0). When p words answers (BothValues + Hedge > 0) the
// branches also cover the phrase draw; they are then weighed only by
// profiles that do too. The branches' probabilities under p on in's
// features sum to 1, and the expected value of any score of the answer is
// Σ Prob(p, Features(in))·score(Answer) (Expected).
func Branches(p Profile, in reader.Input, sorts bool) []Branch {
	var out []Branch
	phrases := []string{phrasePlain}
	if p.BothValues+p.Hedge > 0 {
		phrases = append(phrases, phraseBoth, phraseHedge)
	}
	type assign struct {
		set                           uint8 // capabilities fixed so far (policy.read bits)
		row, key, order, lapse, prose bool
		conflict                      string
	}
	run := func(a assign, cutoff int) (decision, uint8, []int) {
		var asked []int
		conflict := a.conflict
		if conflict == "" {
			conflict = ConflictFirst
		}
		pol := policy{caps: ScriptedCapabilities{UsesStatus: a.row, SortsByTime: sorts, OnConflict: conflict, TokenBudget: p.TokenBudget},
			rowStatus: a.row, keyStatus: a.key, rowBudget: p.RowBudget, readsOrder: a.order, lapse: a.lapse,
			prose: p.ProseSkill > 0, proseOK: a.prose, textOrder: p.ProseSkill > 0, conflictAct: p.ConflictSkill.Set,
			sortOK: func(n int) bool {
				asked = append(asked, n)
				return n <= cutoff
			}}
		d := pol.decide(in)
		return d, pol.read, asked
	}
	// leaf enumerates the sort regions of an assignment and appends their
	// branches, unless some region's decision consulted a capability not
	// fixed yet: then it appends nothing and returns those capabilities.
	leaf := func(a assign) uint8 {
		var consulted uint8
		// Find every record count the decision asks about, whatever the
		// cutoff: start with all sorts succeeding, then try the cutoff just
		// below each count asked, until nothing new is asked.
		sizes := map[int]bool{}
		todo := []int{math.MaxInt}
		tried := map[int]bool{}
		for len(todo) > 0 {
			c := todo[len(todo)-1]
			todo = todo[:len(todo)-1]
			if tried[c] {
				continue
			}
			tried[c] = true
			_, r, asked := run(a, c)
			consulted |= r
			for _, n := range asked {
				if n >= 2 && !sizes[n] {
					sizes[n] = true
					todo = append(todo, n-1)
				}
			}
		}
		ns := make([]int, 0, len(sizes))
		for n := range sizes {
			ns = append(ns, n)
		}
		sort.Ints(ns)
		// Regions: sorts up to ns[i] succeed, from ns[i+1] fail; below the
		// smallest count (up to 1) and above the largest (none fails).
		upTo := append([]int{1}, ns...)
		for _, u := range upTo {
			_, r, _ := run(a, u)
			consulted |= r
		}
		if open := consulted &^ a.set; open != 0 {
			return open
		}
		for i, u := range upTo {
			from := 0
			if i+1 < len(upTo) {
				from = upTo[i+1]
			}
			cut := u
			if from == 0 {
				cut = math.MaxInt
			}
			d, _, _ := run(a, cut)
			for _, k := range phrases {
				ans := d.answer
				if k != phrasePlain && queryType(in) == esr.Snapshot && !ans.Abstain {
					ans, _ = worded(p, d, k)
				}
				out = append(out, Branch{Status: a.row, KeyStatus: a.key, Order: a.order, Lapse: a.lapse, Prose: a.prose, Conflict: a.conflict,
					Free: readAll &^ a.set, Phrase: k, SortUpTo: u, SortFrom: from, Answer: ans})
			}
		}
		return 0
	}
	// a depth-first walk: decide with the unfixed capabilities at a
	// default; the first capability the decision consulted that is not
	// fixed yet is fixed both ways (every way, for the conflict policy).
	// a decision that consulted only fixed capabilities is a leaf: the
	// others cannot have changed it.
	var walk func(a assign)
	walk = func(a assign) {
		open := leaf(a)
		switch {
		case open == 0:
		case open&readRow != 0:
			for _, v := range []bool{true, false} {
				b := a
				b.set |= readRow
				b.row = v
				walk(b)
			}
		case open&readKey != 0:
			for _, v := range []bool{true, false} {
				b := a
				b.set |= readKey
				b.key = v
				walk(b)
			}
		case open&readOrder != 0:
			for _, v := range []bool{true, false} {
				b := a
				b.set |= readOrder
				b.order = v
				walk(b)
			}
		case open&readLapse != 0:
			for _, v := range []bool{true, false} {
				b := a
				b.set |= readLapse
				b.lapse = v
				walk(b)
			}
		case open&readProse != 0:
			for _, v := range []bool{true, false} {
				b := a
				b.set |= readProse
				b.prose = v
				walk(b)
			}
		default:
			for _, c := range []string{ConflictFirst, ConflictAbstain, ConflictMajority} {
				b := a
				b.set |= readConflict
				b.conflict = c
				walk(b)
			}
		}
	}
	walk(assign{})
	return out
}

// readAll are every capability bit of policy.read.
const readAll = readRow | readKey | readOrder | readLapse | readConflict | readProse

// Expected is the expected value of score over the branches under
// profile p, on the render with features f they were enumerated on.
func Expected(p Profile, f RenderFeatures, branches []Branch, score func(esr.Answer) float64) float64 {
	e := 0.0
	for _, b := range branches {
		if w := b.Prob(p, f); w > 0 {
			e += w * score(b.Answer)
		}
	}
	return e
}
