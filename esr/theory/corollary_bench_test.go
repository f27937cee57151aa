package theory_test

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/theory"
)

// Corollary 1 measured on the bundled synthetic bench: the identity holds,
// every input is labelled measured, and with gold relations P2b makes β
// small on snapshot queries (coarse and fine agree wherever fine answers;
// they differ only where fine abstains on a gold CONTRADICTS).
func TestCorollary1OnBench(t *testing.T) {
	b, err := bench.Load(filepath.Join("..", "..", "data", "synthetic"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := theory.Corollary1OnBench(context.Background(), b, esr.Snapshot, esr.RevertedRevert, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Beta - d.Kappa; math.Abs(got-d.Gap) > 1e-12 {
		t.Errorf("β − κ = %v, gap %v", got, d.Gap)
	}
	for i, s := range d.Sources {
		if !strings.HasPrefix(s, "measured") {
			t.Errorf("input %d source %q, want measured", i, s)
		}
	}
	if d.OracleF < 0.9 || d.OracleC < 0.9 {
		t.Errorf("oracle arms on reverted-revert: fine %.3f, coarse %.3f; want both high with gold relations", d.OracleF, d.OracleC)
	}
	if math.Abs(d.Beta) > 0.05 {
		t.Errorf("β = %+.3f on reverted-revert snapshot; P2b says the arms agree where fine answers", d.Beta)
	}
	if p := theory.Corollary1FromPaper(); !strings.HasPrefix(p.Sources[0], "assumed") {
		t.Errorf("paper-input Corollary 1 does not label its assumed oracle inputs: %q", p.Sources[0])
	}
}
