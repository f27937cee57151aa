package theory

import (
	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
)

// FibreClass is one memory class's snapshot accuracy on the fibre under the
// oracle read-out (State.Answer) with gold relations.
type FibreClass struct {
	Class  memory.Class
	DBlind bool
	// AccI and AccII are the accuracies on instances (I) and (II); Acc is
	// over both (the symmetric prior: each instance has weight 1/2).
	AccI, AccII, Acc float64
	// SameAnswer counts surfaces where the class gave (I) and (II) the same
	// answer. A d-blind class must do so on every surface.
	SameAnswer int
}

// FibreRule is a deterministic d-blind decision rule: a function of the
// surface σ = (values, Tv) only, scored on both instances of every surface.
type FibreRule struct {
	Rule             string
	AccI, AccII, Acc float64
}

// P1Result is Proposition 1 on a sample of the fibre.
type P1Result struct {
	Surfaces   int // surfaces drawn; each gives two instances
	Signatures int // distinct σ among them
	Classes    []FibreClass
	// Rules are the named rules: answer φ, answer the other value, abstain,
	// answer the most frequent value.
	Rules []FibreRule
	// BayesCeiling is the highest accuracy of any deterministic function of
	// σ: each σ contributes the best of its candidate answers (each distinct
	// value and ABSTAIN), since a rule chooses one answer per σ and accuracy
	// adds up over σ. This is the maximum over all 3^Signatures rules.
	BayesCeiling float64
}

// P1Fibre instantiates Proposition 1 (non-monotonic supersession separation)
// and its quantitative ceiling: on n seeded fibre surfaces (fibreSurfaces)
// it scores every memory class in memory.Names with relate.Oracle on the gold
// relations of each instance, and every deterministic d-blind decision rule.
// Proposition 1 predicts every d-blind class and rule at most 1/2 (the
// symmetric-fibre Bayes ceiling) and the fine ledger at 1; the coarse
// classes, which have no unresolved status, answer φ on both instances and
// score 1/2.
func P1Fibre(n int, seed uint64) P1Result {
	return evalFibre(fibreSurfaces(n, seed))
}

// evalFibre is P1Fibre on given surfaces.
func evalFibre(surfaces []p1FibreSurface) P1Result {
	res := P1Result{Surfaces: len(surfaces)}
	for _, class := range memory.Names {
		c := FibreClass{Class: class, DBlind: isDBlind(class)}
		var okI, okII int
		for i := range surfaces {
			f := &surfaces[i]
			a1 := fibreAnswer(class, f, 1)
			a2 := fibreAnswer(class, f, 2)
			if correct(a1, f.GoldAnswer(1)) {
				okI++
			}
			if correct(a2, f.GoldAnswer(2)) {
				okII++
			}
			if a1 == a2 {
				c.SameAnswer++
			}
		}
		c.AccI, c.AccII, c.Acc = acc(okI, len(surfaces)), acc(okII, len(surfaces)), acc(okI+okII, 2*len(surfaces))
		res.Classes = append(res.Classes, c)
	}
	res.Rules = fibreRules(surfaces)
	res.Signatures, res.BayesCeiling = bayesCeiling(surfaces)
	return res
}

// fibreAnswer is the class's oracle read-out on instance 1 or 2.
func fibreAnswer(class memory.Class, f *p1FibreSurface, instance int) esr.Answer {
	st := memory.MustBuild(memory.SpecOf(class), f.Stream, f.Atoms, memory.Options{Relator: relate.Oracle{Gold: f.Gold(instance)}})
	return st.Answer(f.Question())
}

// fibreRules scores the named d-blind rules.
func fibreRules(surfaces []p1FibreSurface) []FibreRule {
	rules := []struct {
		name string
		pick func(f *p1FibreSurface) esr.Answer
	}{
		{"answer φ (the latest value)", func(f *p1FibreSurface) esr.Answer { return esr.Says(f.Atoms[len(f.Atoms)-1].Display()) }},
		{"answer the other value", func(f *p1FibreSurface) esr.Answer {
			last := f.Atoms[len(f.Atoms)-1].State()
			for i := range f.Atoms {
				if f.Atoms[i].State() != last {
					return esr.Says(f.Atoms[i].Display())
				}
			}
			return esr.Abstain
		}},
		{"abstain", func(*p1FibreSurface) esr.Answer { return esr.Abstain }},
		{"answer the most frequent value (ties: latest)", mostFrequent},
	}
	out := make([]FibreRule, len(rules))
	for k, r := range rules {
		var okI, okII int
		for i := range surfaces {
			a := r.pick(&surfaces[i])
			if correct(a, surfaces[i].GoldAnswer(1)) {
				okI++
			}
			if correct(a, surfaces[i].GoldAnswer(2)) {
				okII++
			}
		}
		out[k] = FibreRule{Rule: r.name, AccI: acc(okI, len(surfaces)), AccII: acc(okII, len(surfaces)),
			Acc: acc(okI+okII, 2*len(surfaces))}
	}
	return out
}

func mostFrequent(f *p1FibreSurface) esr.Answer {
	count := map[string]int{}
	best := -1
	for i := len(f.Atoms) - 1; i >= 0; i-- { // newest first, so ties go to the latest
		s := f.Atoms[i].State()
		count[s]++
		if best < 0 || count[s] > count[f.Atoms[best].State()] {
			best = i
		}
	}
	return esr.Says(f.Atoms[best].Display())
}

// bayesCeiling groups instances by σ and takes, per σ, the best candidate
// answer; it returns the number of distinct σ and the ceiling.
func bayesCeiling(surfaces []p1FibreSurface) (int, float64) {
	type group struct {
		cands []esr.Answer
		golds []esr.Answer
	}
	groups := map[string]*group{}
	var order []string
	for i := range surfaces {
		f := &surfaces[i]
		sig := f.Signature()
		g := groups[sig]
		if g == nil {
			g = &group{cands: []esr.Answer{esr.Abstain}}
			seen := map[string]bool{}
			for j := range f.Atoms {
				if s := f.Atoms[j].State(); !seen[s] {
					seen[s] = true
					g.cands = append(g.cands, esr.Says(f.Atoms[j].Display()))
				}
			}
			groups[sig] = g
			order = append(order, sig)
		}
		g.golds = append(g.golds, f.GoldAnswer(1), f.GoldAnswer(2))
	}
	best, total := 0, 0
	for _, sig := range order {
		g := groups[sig]
		top := 0
		for _, c := range g.cands {
			k := 0
			for _, gold := range g.golds {
				if correct(c, gold) {
					k++
				}
			}
			top = max(top, k)
		}
		best += top
		total += len(g.golds)
	}
	return len(order), acc(best, total)
}

// Class returns the named class's result.
func (r P1Result) Class(name memory.Class) (FibreClass, bool) {
	for _, c := range r.Classes {
		if c.Class == name {
			return c, true
		}
	}
	return FibreClass{}, false
}
