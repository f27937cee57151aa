package theory

import (
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/memory"
)

// Proposition 1 on 300 seeded fibre surfaces: every d-blind class and rule
// is at most 1/2 and answers (I) and (II) alike; the fine ledger scores 1;
// the coarse classes answer φ on both instances.
func TestP1Fibre(t *testing.T) {
	r := P1Fibre(300, 11)
	t.Logf("%+v", r)
	if r.Surfaces != 300 || r.Signatures != 300 {
		t.Fatalf("surfaces %d, signatures %d", r.Surfaces, r.Signatures)
	}
	exactlyHalf := map[memory.Class]bool{memory.DirectContext: true, memory.LatestOnly: true,
		memory.GraphRAGAbstain: true, memory.RenderOnly: true}
	for _, c := range r.Classes {
		switch {
		case c.DBlind:
			if c.Acc > 0.5 {
				t.Errorf("%s (d-blind): %.3f > 1/2 on the fibre", c.Class, c.Acc)
			}
			if exactlyHalf[c.Class] && c.Acc != 0.5 {
				t.Errorf("%s (d-blind): %.3f, want exactly 1/2", c.Class, c.Acc)
			}
			if c.SameAnswer != r.Surfaces {
				t.Errorf("%s (d-blind) told (I) from (II) on %d surfaces", c.Class, r.Surfaces-c.SameAnswer)
			}
		case c.Class == memory.FineLedger:
			if c.Acc != 1 || c.SameAnswer != 0 {
				t.Errorf("fine-ledger: acc %.3f, same answer on %d surfaces; want 1 and 0", c.Acc, c.SameAnswer)
			}
		default: // coarse: φ on both instances
			if c.AccI != 1 || c.AccII != 0 || c.Acc != 0.5 {
				t.Errorf("%s: acc (I) %.3f, (II) %.3f, fibre %.3f; want 1, 0, 0.5", c.Class, c.AccI, c.AccII, c.Acc)
			}
		}
	}
	if len(r.Classes) != len(memory.Names) {
		t.Errorf("%d classes scored, want %d", len(r.Classes), len(memory.Names))
	}
	for _, ru := range r.Rules {
		if ru.Acc > 0.5 {
			t.Errorf("rule %q: %.3f > 1/2", ru.Rule, ru.Acc)
		}
	}
	if fine, ok := r.Class(memory.FineLedger); !ok || fine.Acc != 1 {
		t.Errorf("Class(fine-ledger) = %+v, %v", fine, ok)
	}
	if r.BayesCeiling != 0.5 {
		t.Errorf("Bayes ceiling %.3f, want 1/2", r.BayesCeiling)
	}
}

// Brute force over every deterministic d-blind rule on a few surfaces: a
// rule picks one candidate answer (ABSTAIN or a value on the surface) per σ;
// the best of all of them scores exactly the Bayes ceiling, 1/2.
func TestP1EveryRule(t *testing.T) {
	surfaces := fibreSurfaces(7, 5)
	cands := make([][]esr.Answer, len(surfaces))
	for i, f := range surfaces {
		cands[i] = []esr.Answer{esr.Abstain, f.Phi, f.Other}
	}
	best, rules := 0.0, 0
	choice := make([]int, len(surfaces))
	for {
		rules++
		ok := 0
		for i := range surfaces {
			for in := 1; in <= 2; in++ {
				if correct(cands[i][choice[i]], surfaces[i].GoldAnswer(in)) {
					ok++
				}
			}
		}
		best = max(best, float64(ok)/float64(2*len(surfaces)))
		k := 0
		for k < len(choice) && choice[k] == 2 {
			choice[k] = 0
			k++
		}
		if k == len(choice) {
			break
		}
		choice[k]++
	}
	if rules != 2187 {
		t.Fatalf("enumerated %d rules, want 3^7", rules)
	}
	r := evalFibre(surfaces)
	if best != 0.5 || r.BayesCeiling != best {
		t.Errorf("best of %d rules %.3f, ceiling %.3f; want both 1/2", rules, best, r.BayesCeiling)
	}
}

// The two instances of a surface are one stream: only the gold relations
// differ, and the draws are reproducible from the seed.
func TestFibreSurfaces(t *testing.T) {
	a, b, c := fibreSurfaces(50, 3), fibreSurfaces(50, 3), fibreSurfaces(50, 4)
	differ := 0
	variants := map[string]int{}
	negated := 0
	for i := range a {
		if a[i].Signature() != b[i].Signature() {
			t.Fatalf("surface %d not reproducible", i)
		}
		if a[i].Signature() != c[i].Signature() {
			differ++
		}
		variants[a[i].Variant]++
		if a[i].Other.Value == "not "+a[i].Phi.Value {
			negated++
		}
		if len(a[i].GoldI) != len(a[i].GoldII) || len(a[i].GoldI) != len(a[i].Atoms)*(len(a[i].Atoms)-1)/2 {
			t.Errorf("surface %d: %d and %d gold pairs for %d atoms", i, len(a[i].GoldI), len(a[i].GoldII), len(a[i].Atoms))
		}
	}
	if differ < 45 {
		t.Errorf("seeds 3 and 4 share %d of 50 surfaces", 50-differ)
	}
	if variants[revertedRevert] == 0 || variants[resolvedConflict] == 0 || negated == 0 || negated == 50 {
		t.Errorf("too little variety: variants %v, %d negated middles", variants, negated)
	}
}
