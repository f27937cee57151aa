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
	"github.com/esrkit/esrkit/internal/synth"
)

// Corollary 1 measured on the bundled synthetic bench (a lossy extraction,
// as the paper's) and on the clean preset (every atom kept): the identity
// holds, every input is labelled measured, and with gold relations P2b
// makes β small on snapshot queries (coarse and fine agree wherever fine
// answers; they differ only where fine abstains on a gold CONTRADICTS), so
// the two oracle arms agree; with every atom kept both are high.
func TestCorollary1OnBench(t *testing.T) {
	bundled, err := bench.Load(filepath.Join("..", "..", "data", "synthetic"))
	if err != nil {
		t.Fatal(err)
	}
	clean, err := synth.Generate(synth.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string]*bench.Bench{"bundled": bundled, "clean": clean} {
		d, err := theory.Corollary1OnBench(context.Background(), b, esr.Snapshot, esr.RevertedRevert, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Beta - d.Kappa; math.Abs(got-d.Gap) > 1e-12 {
			t.Errorf("%s: β − κ = %v, gap %v", name, got, d.Gap)
		}
		for i, s := range d.Sources {
			if !strings.HasPrefix(s, "measured") {
				t.Errorf("%s: input %d source %q, want measured", name, i, s)
			}
		}
		if math.Abs(d.OracleF-d.OracleC) > 0.02 {
			t.Errorf("%s: oracle arms on reverted-revert: fine %.3f, coarse %.3f; P2b says they agree with gold relations", name, d.OracleF, d.OracleC)
		}
		if name == "clean" && (d.OracleF < 0.9 || d.OracleC < 0.9) {
			t.Errorf("%s: oracle arms on reverted-revert: fine %.3f, coarse %.3f; want both high with gold relations and every atom kept", name, d.OracleF, d.OracleC)
		}
		if math.Abs(d.Beta) > 0.05 {
			t.Errorf("%s: β = %+.3f on reverted-revert snapshot; P2b says the arms agree where fine answers", name, d.Beta)
		}
	}
	if p := theory.Corollary1FromPaper(); !strings.HasPrefix(p.Sources[0], "assumed") {
		t.Errorf("paper-input Corollary 1 does not label its assumed oracle inputs: %q", p.Sources[0])
	}
}
