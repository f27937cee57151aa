package reader

import (
	"math"
	"sort"

	"github.com/esrkit/esrkit/esr"
)

// This file computes what a simulated reader answers on average: the exact
// distribution of its answer on one input over its three draws, without
// drawing. Fitting a profile to published numbers (calibration) needs
// expected accuracies that move smoothly with the skills; single draws are
// step functions of them.

// SimBranch is one branch of a sim reader's decision on one input: which
// capabilities the draws switched on and the answer that follows. A branch
// does not depend on the profile's probabilities, only on its budgets, so
// the branches of an input are computed once and weighed by any profile
// (SimBranch.Prob).
type SimBranch struct {
	// Status: the status column is used (u_status < StatusSkill).
	Status bool
	// Order: a newest-first list is read as ordered (u_order < OrderSkill).
	Order bool
	// Lapse: a settled snapshot answer is replaced (u_lapse < Lapse).
	Lapse bool
	// Phrase is how a snapshot answer is worded ("", "both", "hedge": the
	// u_phrase draw, see SimProfile.BothValues and Hedge).
	Phrase string
	// Conflict is the conflict policy the draw chose (ConflictFirst,
	// ConflictAbstain, ConflictMajority).
	Conflict string
	// SortUpTo and SortFrom bound the date sorts: every sort over at most
	// SortUpTo dated records succeeds and every sort over SortFrom or more
	// fails (SortFrom 0: none fails). SortUpTo 1 means no sort of two or
	// more records succeeds.
	SortUpTo, SortFrom int
	Answer             esr.Answer
}

// Prob is the probability of the branch under profile p: P(status) ·
// P(conflict policy) · P(SortProb(SortFrom) ≤ u_sort < SortProb(SortUpTo)),
// the sort probabilities decreasing in the number of records.
func (b SimBranch) Prob(p SimProfile) float64 {
	ps := p.StatusSkill
	if !b.Status {
		ps = 1 - ps
	}
	if b.Order {
		ps *= p.OrderSkill
	} else {
		ps *= 1 - p.OrderSkill
	}
	if b.Lapse {
		ps *= p.Lapse
	} else {
		ps *= 1 - p.Lapse
	}
	switch b.Phrase {
	case phraseBoth:
		ps *= p.BothValues
	case phraseHedge:
		ps *= p.Hedge
	default:
		ps *= 1 - p.BothValues - p.Hedge
	}
	var pc float64
	switch b.Conflict {
	case ConflictFirst:
		pc = p.FirstRowBias
	case ConflictAbstain:
		pc = (1 - p.FirstRowBias) * p.AbstainOnConflict
	default:
		pc = (1 - p.FirstRowBias) * (1 - p.AbstainOnConflict)
	}
	hi := p.SortProb(b.SortUpTo)
	lo := 0.0
	if b.SortFrom > 0 {
		lo = p.SortProb(b.SortFrom)
	}
	return ps * pc * math.Max(0, hi-lo)
}

// SimBranches lists every branch of a reader with profile p's budgets on in:
// status used or not, newest-first order read or not, lapse or not, each
// conflict policy, and each range of record counts
// up to which date sorts succeed (the sort draw u_sort is shared by every
// sort of the item and SortProb decreases with the count, so a draw is a
// cutoff: sorts up to some count succeed, longer ones fail). sorts says
// whether the reader sorts dates at all (DateSkill > 0). When p words
// answers (BothValues + Hedge > 0) the branches also cover the phrase draw;
// they are then weighed only by profiles that do too. The branches'
// probabilities under p sum to 1, and the expected value of any score of
// the answer is Σ Prob(p)·score(Answer) (SimExpected).
func SimBranches(p SimProfile, in Input, sorts bool) []SimBranch {
	var out []SimBranch
	phrases := []string{phrasePlain}
	if p.BothValues+p.Hedge > 0 {
		phrases = append(phrases, phraseBoth, phraseHedge)
	}
	for combo := 0; combo < 8; combo++ {
		status, order, lapse := combo&1 == 0, combo&2 != 0, combo&4 != 0
		for _, conflict := range []string{ConflictFirst, ConflictAbstain, ConflictMajority} {
			caps := Capabilities{UsesStatus: status, SortsByTime: sorts, OnConflict: conflict, TokenBudget: p.TokenBudget}
			decide := func(cutoff int) (decision, []int) {
				var asked []int
				pol := policy{caps: caps, rowBudget: p.RowBudget, readsOrder: order, lapse: lapse, sortOK: func(n int) bool {
					asked = append(asked, n)
					return n <= cutoff
				}}
				return pol.decide(in), asked
			}
			// Find every record count the decision asks about, whatever
			// the cutoff: start with all sorts succeeding, then try the
			// cutoff just below each count asked, until nothing new is asked.
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
				_, asked := decide(c)
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
			// Regions: sorts up to ns[i] succeed, from ns[i+1] fail; below
			// the smallest count (up to 1) and above the largest (none fails).
			upTo := append([]int{1}, ns...)
			for i, u := range upTo {
				from := 0
				if i+1 < len(upTo) {
					from = upTo[i+1]
				}
				cut := u
				if from == 0 {
					cut = math.MaxInt
				}
				d, _ := decide(cut)
				for _, k := range phrases {
					a := d.answer
					if k != phrasePlain && queryType(in) == esr.Snapshot && !a.Abstain {
						a, _ = worded(p, d, k)
					}
					out = append(out, SimBranch{Status: status, Order: order, Lapse: lapse, Phrase: k, Conflict: conflict, SortUpTo: u, SortFrom: from, Answer: a})
				}
			}
		}
	}
	return out
}

// SimExpected is the expected value of score over the branches under
// profile p.
func SimExpected(p SimProfile, branches []SimBranch, score func(esr.Answer) float64) float64 {
	e := 0.0
	for _, b := range branches {
		if w := b.Prob(p); w > 0 {
			e += w * score(b.Answer)
		}
	}
	return e
}
