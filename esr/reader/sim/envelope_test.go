package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
)

// TestDefaultReadersPassTheEnvelope: every default (calibrated) family
// passes the envelope suite at the bundled bench's median render length:
// every plausibility bound met, every registry point it is held to inside
// its interval or ±0.05, every ranking of the paper's own models kept.
// A point the model cannot reach is printed with its reason.
func TestDefaultReadersPassTheEnvelope(t *testing.T) {
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
	c := Calibrated()
	var fams []string
	for _, f := range c.Families {
		fams = append(fams, f.Family)
	}
	res := Envelope(ShippedEvidence(), fams, CalibratedProfiles(), tokens)
	held := 0
	for _, ch := range res.Checks {
		if ch.Held() {
			held++
		}
		if !ch.Pass() {
			t.Errorf("%s %s (%s): model %.3f, target %.3f [%.3f, %.3f]: %s", ch.Family, ch.Kind, ch.Name, ch.Model, ch.Target, ch.Lo, ch.Hi, ch.Reason)
		} else if !ch.Held() {
			t.Logf("%s %s: %s: %s", ch.Family, ch.Name, ch.Outcome, ch.Reason)
		}
	}
	if held < 50 {
		t.Errorf("only %d checks are held: the suite tests too little", held)
	}
}

// TestEnvelopeCatchesImplausibleReaders: the suite fails a reader that
// cannot read a date, one that ignores a LIVE row and its declared order,
// one that lapses to a stale value, and one whose 14B reads updates worse
// than its 8B sibling; it passes a careful reader. (A suite that passes
// everything tests nothing.)
func TestEnvelopeCatchesImplausibleReaders(t *testing.T) {
	good := baseProfile("Qwen3-8B")
	good.StatusSkill, good.DateSkill, good.OrderSkill, good.Lapse = 0.95, 0.97, 0.95, 0.03
	good.RowsCost, good.FlatCost = 0.3, 0.2
	set := newEnvelopeSet(300)
	fails := func(p Profile, name string) bool {
		for _, v := range set.values(p) {
			if v.name == name {
				return v.value < v.lo || v.value > v.hi
			}
		}
		t.Fatalf("no check %q", name)
		return false
	}
	for _, v := range set.values(good) {
		if v.group == groupPlausible && (v.value < v.lo || v.value > v.hi) {
			t.Errorf("a careful reader fails %s: %.3f", v.name, v.value)
		}
	}
	noDates := good
	noDates.DateSkill = 0.1
	if !fails(noDates, "newest of 3 dated flat rows, an answer required") {
		t.Error("a reader with date skill 0.1 passes the 3-row date check")
	}
	blind := good
	blind.StatusSkill, blind.OrderSkill, blind.DateSkill = 0.05, 0.05, 0.05
	if !fails(blind, "fine ledger, LIVE row first, 8 rows") {
		t.Error("a reader that reads neither status nor order passes the LIVE-first check")
	}
	lapsing := good
	lapsing.Lapse = 0.7
	if !fails(lapsing, "found the value, answered a stale one (largest over the suite)") {
		t.Error("a reader that lapses 70% of the time passes the stale check")
	}
	weak := good
	weak.DateSkill, weak.RowsCost = 0.6, 2
	res := Envelope(ShippedEvidence(), []string{"Qwen3-8B", "Qwen3-14B"}, []Profile{good, weak}, 300)
	inverted := false
	for _, c := range res.Checks {
		if c.Kind == "ranking" && !c.Pass() {
			inverted = true
		}
	}
	if !inverted {
		t.Error("a Qwen3-14B that reads PI-LLM's updates worse than its Qwen3-8B passes the ranking checks")
	}
}

// TestReaderModelIsMonotone: on 10,000 random pairs of renders' features
// where the second is more cluttered in one feature (longer, more rows,
// more distractors, flat, rows as sentences, deeper, more paraphrased
// lines), no act of a random reader with clutter costs becomes more
// likely, its lapse never less likely, and no row count or length moves
// the lapse at all; raising any skill (or lowering the lapse) never lowers
// an act's probability on the same render.
func TestReaderModelIsMonotone(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	randProfile := func() Profile {
		return Profile{StatusSkill: r.Float64(), KeyStatusSkill: Skill(r.Float64()), DateSkill: r.Float64(), OrderSkill: r.Float64(),
			Lapse: r.Float64() * 0.5, DateDecayPerRow: r.Float64() * 0.3, ClutterScale: r.Float64(), LengthCost: r.Float64(), RowsCost: r.Float64(),
			FlatCost: r.Float64(), DistractorCost: r.Float64(), ProseDateCost: r.Float64(), NestCost: r.Float64(), ParaphraseCost: 3 * r.Float64(),
			ProseSkill: r.Float64(), ConflictSkill: Skill(r.Float64())}
	}
	randFeatures := func() RenderFeatures {
		f := RenderFeatures{Tokens: r.IntN(5000), Rows: 1 + r.IntN(30), Distractors: r.IntN(200), Depth: r.IntN(4),
			Grouping: GroupedBlock, Dates: DatesColumn, Paraphrased: r.Float64() * 0.5}
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
		func(f *RenderFeatures) { f.Paraphrased += (1 - f.Paraphrased) * r.Float64() },
	}
	const eps = 1e-12
	for i := 0; i < 10000; i++ {
		p, f := randProfile(), randFeatures()
		g := f
		k := i % len(clutter)
		clutter[k](&g)
		a, b := p.Chances(f), p.Chances(g)
		for n := 2; n <= 8; n++ {
			if b.Sort(n) > a.Sort(n)+eps {
				t.Fatalf("pair %d: more clutter raises the sort of %d rows %v → %v (%+v → %+v)", i, n, a.Sort(n), b.Sort(n), f, g)
			}
		}
		if b.Row > a.Row+eps || b.Key > a.Key+eps || b.Order > a.Order+eps || b.Prose > a.Prose+eps || b.Conflict > a.Conflict+eps || b.Lapse < a.Lapse-eps {
			t.Fatalf("pair %d: more clutter helps: %+v → %+v on %+v → %+v", i, a, b, f, g)
		}
		// The lapse never moves with the number of rows nor the length.
		if (k == 0 || k == 1) && a.Lapse != b.Lapse {
			t.Fatalf("pair %d: the lapse moves with rows or length: %v → %v", i, a.Lapse, b.Lapse)
		}
		// Sorting more of the same rows is never easier.
		if g.Rows > f.Rows && b.Sort(g.Rows) > a.Sort(f.Rows)+eps {
			t.Fatalf("pair %d: sorting %d rows is easier than %d", i, g.Rows, f.Rows)
		}
		q := p
		switch i % 7 {
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
		case 5:
			q.ProseSkill = p.ProseSkill + (1-p.ProseSkill)*r.Float64()
		case 6:
			q.ConflictSkill = Skill(p.ConflictSkill.P + (1-p.ConflictSkill.P)*r.Float64())
		}
		c, d := p.Chances(f), q.Chances(f)
		if d.Row < c.Row-eps || d.Key < c.Key-eps || d.Order < c.Order-eps || d.Sort(f.Rows) < c.Sort(f.Rows)-eps || d.Lapse > c.Lapse+eps ||
			d.Prose < c.Prose-eps || d.Conflict < c.Conflict-eps {
			t.Fatalf("pair %d: more skill lowers an act: %+v → %+v", i, c, d)
		}
	}
}

// TestLapseStaysInsideItsBoundAtEveryRowCount: a LIVE-first ledger read by
// every default family keeps its stale answers under the envelope's bound
// from 2 to 64 rows (the rows never reach the lapse).
func TestLapseStaysInsideItsBoundAtEveryRowCount(t *testing.T) {
	for _, p := range CalibratedProfiles() {
		for _, n := range []int{2, 4, 8, 16, 32, 64} {
			in, gold := ledgerRowsRender(n, 150, ledgerTable, true)
			sb := scoreWithStale(in, gold)
			right, stale := sb.expect(p)
			if stale > boundStale || right < boundLiveFirst {
				t.Errorf("%s, %d rows: right %.3f, stale %.3f (bounds ≥ %.2f, ≤ %.2f)", p.Name, n, right, stale, boundLiveFirst, boundStale)
			}
		}
	}
}
