package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
)

// TestDefaultReadersPassTheSanitySuite: every default (calibrated) family
// picks the newest of 2, 3 and 4 dated flat rows with probability ≥ 0.8,
// 0.7 and 0.6, answers a fine ledger whose first row is LIVE right with
// probability ≥ 0.9, and answers a stale value after finding the right one
// with probability ≤ 0.15, at the bundled bench's median render length.
func TestDefaultReadersPassTheSanitySuite(t *testing.T) {
	b, err := bench.Load("../../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := medianRenderTokens(b)
	if err != nil {
		t.Fatal(err)
	}
	if tokens < 50 {
		t.Fatalf("median render length %d tokens: too short to be the bench's", tokens)
	}
	for _, p := range CalibratedProfiles() {
		for _, r := range sanity(p, tokens) {
			if !r.Pass() {
				t.Errorf("%s at %d tokens: %s", p.Name, tokens, r)
			}
		}
	}
}

// TestSanitySuiteCatchesImplausibleReaders: the suite fails a reader that
// cannot read a date, one that ignores a LIVE row and its declared order,
// and one that lapses to a stale value; it passes a careful reader. (A
// suite that passes everything tests nothing.)
func TestSanitySuiteCatchesImplausibleReaders(t *testing.T) {
	good := Profile{Name: "good", StatusSkill: 0.95, DateSkill: 0.97, OrderSkill: 0.95, Lapse: 0.03, FirstRowBias: 0.2, AbstainOnConflict: 0.5}
	fails := func(p Profile, name string) bool {
		for _, r := range sanity(p, 300) {
			if r.Name == name {
				return !r.Pass()
			}
		}
		t.Fatalf("no check %q", name)
		return false
	}
	for _, r := range sanity(good, 300) {
		if !r.Pass() {
			t.Errorf("a careful reader fails %s", r)
		}
	}
	noDates := good
	noDates.DateSkill = 0.1
	if !fails(noDates, sanityNewest3.Name) {
		t.Error("a reader with date skill 0.1 passes the 3-row date check")
	}
	blind := good
	blind.StatusSkill, blind.OrderSkill, blind.DateSkill = 0.05, 0.05, 0.05
	if !fails(blind, sanityLiveFirst.Name) {
		t.Error("a reader that reads neither status nor order passes the LIVE-first check")
	}
	lapsing := good
	lapsing.Lapse = 0.7
	if !fails(lapsing, sanityStale.Name) {
		t.Error("a reader that lapses 70% of the time passes the stale check")
	}
}

// TestReaderModelIsMonotone: on 10,000 random pairs of renders' features
// where the second is more cluttered in one feature (longer, more rows,
// more distractors, flat, dates in prose, deeper), no act of a random
// reader with clutter costs becomes more likely and its lapse never less
// likely; and raising any skill (or lowering the lapse) never lowers an
// act's probability on the same render.
func TestReaderModelIsMonotone(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	randProfile := func() Profile {
		return Profile{StatusSkill: r.Float64(), KeyStatusSkill: Skill(r.Float64()), DateSkill: r.Float64(), OrderSkill: r.Float64(),
			Lapse: r.Float64() * 0.5, DateDecayPerRow: r.Float64() * 0.3, ClutterScale: 3 * r.Float64(), LengthCost: r.Float64(), RowsCost: r.Float64(),
			FlatCost: r.Float64(), DistractorCost: r.Float64(), ProseDateCost: r.Float64(), NestCost: r.Float64()}
	}
	randFeatures := func() RenderFeatures {
		f := RenderFeatures{Tokens: r.IntN(5000), Rows: 1 + r.IntN(30), Distractors: r.IntN(200), Depth: r.IntN(4),
			Grouping: GroupedBlock, Dates: DatesColumn}
		if r.IntN(2) == 0 {
			f.Grouping = GroupedFlat
		}
		if r.IntN(3) == 0 {
			f.Dates = DatesInline
		}
		return f
	}
	clutter := []func(*RenderFeatures){
		func(f *RenderFeatures) { f.Tokens += 1 + r.IntN(3000) },
		func(f *RenderFeatures) { f.Rows += 1 + r.IntN(10) },
		func(f *RenderFeatures) { f.Distractors += 1 + r.IntN(50) },
		func(f *RenderFeatures) { f.Grouping = GroupedFlat },
		func(f *RenderFeatures) { f.Dates = DatesInline },
		func(f *RenderFeatures) { f.Depth += 1 },
	}
	const eps = 1e-12
	for i := 0; i < 10000; i++ {
		p, f := randProfile(), randFeatures()
		g := f
		clutter[i%len(clutter)](&g)
		a, b := p.Chances(f), p.Chances(g)
		for n := 2; n <= 8; n++ {
			if b.Sort(n) > a.Sort(n)+eps {
				t.Fatalf("pair %d: more clutter raises the sort of %d rows %v → %v (%+v → %+v)", i, n, a.Sort(n), b.Sort(n), f, g)
			}
		}
		if b.Row > a.Row+eps || b.Key > a.Key+eps || b.Order > a.Order+eps || b.Lapse < a.Lapse-eps {
			t.Fatalf("pair %d: more clutter helps: %+v → %+v on %+v → %+v", i, a, b, f, g)
		}
		// Sorting more of the same rows is never easier.
		if g.Rows > f.Rows && b.Sort(g.Rows) > a.Sort(f.Rows)+eps {
			t.Fatalf("pair %d: sorting %d rows is easier than %d", i, g.Rows, f.Rows)
		}
		q := p
		switch i % 5 {
		case 0:
			q.StatusSkill = p.StatusSkill + (1-p.StatusSkill)*r.Float64()
		case 1:
			q.DateSkill = p.DateSkill + (1-p.DateSkill)*r.Float64()
		case 2:
			q.OrderSkill = p.OrderSkill + (1-p.OrderSkill)*r.Float64()
		case 3:
			q.KeyStatusSkill = Skill(p.KeySkill() + (1-p.KeySkill())*r.Float64())
		case 4:
			q.Lapse = p.Lapse * r.Float64()
		}
		c, d := p.Chances(f), q.Chances(f)
		if d.Row < c.Row-eps || d.Key < c.Key-eps || d.Order < c.Order-eps || d.Sort(f.Rows) < c.Sort(f.Rows)-eps || d.Lapse > c.Lapse+eps {
			t.Fatalf("pair %d: more skill lowers an act: %+v → %+v", i, c, d)
		}
	}
}
