package relate_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/relate"
)

// syntheticDir is the kit's bundled generated benchmark (esr gen).
var syntheticDir = filepath.Join("..", "..", "data", "synthetic")

// TestSynthetic cross-validates the learned scorer on data/synthetic and
// reports, rule vs learned, the pair-level per-class F1 and the downstream
// fine-ledger relation-type accuracy on the refines stratum. It fails when
// the bundled bench or its relations.jsonl does not load, and skips under
// -short.
func TestSynthetic(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	if _, err := os.Stat(filepath.Join(syntheticDir, bench.RelationsFile)); err != nil {
		t.Fatalf("the bundled bench's %s: %v", bench.RelationsFile, err)
	}
	b, err := bench.Load(syntheticDir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := relate.CrossValidateLearned(b, 5, 1, relate.LearnedLambda)
	if err != nil {
		t.Fatal(err)
	}
	relate.LogScores(t, r)
	for _, rel := range []esr.Relator{relate.Rule{}, r.OutOfFold(), relate.Oracle{Gold: b.Relations}} {
		c, n, err := queryAccuracy(b, rel, esr.RelationType, esr.Refinement)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatal("the bundled bench has no relation-type refines QAs")
		}
		t.Logf("fine-ledger relation-type accuracy, refines stratum, %-12s %d/%d = %.3f", rel.Name(), c, n, float64(c)/float64(n))
	}
}
