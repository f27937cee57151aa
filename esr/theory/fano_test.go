package theory

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/stats"
)

// The paper's floor: H(Y′) = 1.89, I = 0.216, K = 5 gives Pe ≥ 0.365 (the
// weakened form 0.290).
func TestPaperFano(t *testing.T) {
	pe, err := stats.FanoBound(PaperAuditH, PaperAuditI, RelationClasses)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(pe-paperAuditFano) > 0.001 {
		t.Errorf("FanoBound(1.89, 0.216, 5) = %.4f, want ≈ 0.365", pe)
	}
	if w := stats.FanoWeakBound(PaperAuditH, PaperAuditI, RelationClasses); math.Abs(w-0.290) > 0.001 {
		t.Errorf("weak bound %.4f, want 0.290", w)
	}
}

// A perfect scorer knows everything: I = H, no error, floor 0.
func TestFanoPerfect(t *testing.T) {
	gold := []esr.Relation{esr.SameState, esr.Supersedes, esr.Refines, esr.Contradicts, esr.Unrelated, esr.Supersedes}
	f, err := Fano(gold, gold)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(f.I-f.HY) > 1e-12 || f.ErrorRate != 0 || f.BoundPlugIn != 0 || f.CohenKappa != 1 {
		t.Errorf("%+v", f)
	}
	if _, err := Fano(gold, gold[:2]); err == nil {
		t.Error("unpaired labels accepted")
	}
}

// noisyLabels draws n skewed gold labels and corrupts each, with probability
// p, to a uniformly random other label.
func noisyLabels(rng *rand.Rand, n int, p float64) (gold, pred []esr.Relation) {
	weights := []float64{0.1, 0.35, 0.1, 0.3, 0.15}
	for i := 0; i < n; i++ {
		u, k := rng.Float64(), 0
		for u > weights[k] && k < len(weights)-1 {
			u -= weights[k]
			k++
		}
		g := esr.Relations[k]
		r := g
		if rng.Float64() < p {
			j := rng.IntN(len(esr.Relations) - 1)
			if esr.Relations[j] >= g {
				j++
			}
			r = esr.Relations[j]
		}
		gold, pred = append(gold, g), append(pred, r)
	}
	return gold, pred
}

// Fano's inequality holds exactly for the empirical distribution: the plug-in
// floor never exceeds the scorer's actual error, and the floor rises with
// the noise.
func TestFanoBelowError(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	prev := -1.0
	for _, p := range []float64{0.05, 0.2, 0.4, 0.6} {
		gold, pred := noisyLabels(rng, 3000, p)
		f, err := Fano(gold, pred)
		if err != nil {
			t.Fatal(err)
		}
		if f.BoundPlugIn > f.ErrorRate+1e-9 || f.WeakBound > f.Bound+1e-12 {
			t.Errorf("p=%v: floor %.4f (weak %.4f, MM %.4f) vs error %.4f", p, f.BoundPlugIn, f.WeakBound, f.Bound, f.ErrorRate)
		}
		if f.Bound <= prev || math.Abs(f.ErrorRate-p) > 4*math.Sqrt(p*(1-p)/3000) {
			t.Errorf("p=%v: floor %.4f after %.4f, error %.4f", p, f.Bound, prev, f.ErrorRate)
		}
		prev = f.Bound
	}
}

// auditBench is a bench of fibre surfaces, half labelled as instance (I),
// half as (II).
func auditBench(n int) *bench.Bench {
	surfaces := fibreSurfaces(n, 21)
	var streams []*esr.Stream
	atoms := map[string][]esr.Atom{}
	gold := map[string]map[esr.AtomPair]esr.Relation{}
	for i, f := range surfaces {
		streams = append(streams, f.Stream)
		atoms[f.Stream.ID] = f.Atoms
		gold[f.Stream.ID] = f.GoldI
		if i%2 == 1 {
			gold[f.Stream.ID] = f.GoldII
		}
	}
	b := bench.New(streams, atoms, nil)
	b.Relations = gold
	return b
}

// AuditRelations visits every gold pair once; the oracle recovers all of
// them, a noisy oracle errs at its noise level, and the rule scorer (which
// reads cues the fibre text does not carry) lands somewhere in between.
func TestAuditRelations(t *testing.T) {
	b := auditBench(400)
	pairs := 0
	for _, m := range b.Relations {
		pairs += len(m)
	}
	gold, pred := relate.AuditRelations(b, relate.Oracle{Gold: b.Relations})
	if len(gold) != pairs || len(pred) != pairs {
		t.Fatalf("audited %d pairs, want %d", len(gold), pairs)
	}
	if f, err := Fano(gold, pred); err != nil || f.ErrorRate != 0 || f.BoundPlugIn != 0 {
		t.Errorf("oracle: %+v, %v", f, err)
	}
	const p = 0.3
	gold, pred = relate.AuditRelations(b, relate.RelationNoise{Inner: relate.Oracle{Gold: b.Relations}, P: p, Seed: 8})
	f, err := Fano(gold, pred)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(f.ErrorRate-p) > 4*math.Sqrt(p*(1-p)/float64(pairs)) || f.BoundPlugIn > f.ErrorRate {
		t.Errorf("noisy oracle: %+v", f)
	}
	gold, pred = relate.AuditRelations(b, relate.Rule{})
	f, err = Fano(gold, pred)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rule scorer on the fibre bench: %+v", f)
	if f.BoundPlugIn > f.ErrorRate+1e-9 || f.ErrorRate == 0 {
		t.Errorf("rule scorer: %+v", f)
	}
}

// The bundled synthetic benchmark: the rule scorer's
// floor on its gold relations.
func TestAuditSynthetic(t *testing.T) {
	dir := filepath.Join("..", "..", "data", "synthetic")
	if _, err := os.Stat(filepath.Join(dir, bench.RelationsFile)); err != nil {
		t.Fatalf("the bundled bench's %s: %v", bench.RelationsFile, err)
	}
	b, err := bench.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	gold, pred := relate.AuditRelations(b, relate.Rule{})
	f, err := Fano(gold, pred)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rule scorer on data/synthetic: %+v", f)
	if f.N == 0 || f.BoundPlugIn > f.ErrorRate+1e-9 {
		t.Errorf("%+v", f)
	}
}
