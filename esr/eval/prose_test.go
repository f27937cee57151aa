package eval

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/memory"
)

// Describe says each fact once: a comparison with an interval gives it, its
// verdict and n; one with too few discordant pairs gives the estimate and
// why there is no interval, with n and the pairs, and no second "(n = …)".
func TestDescribeSaysEachFactOnce(t *testing.T) {
	with := Comparison{Term: Term{Label: "render", A: memory.SpecOf(memory.RenderOnly), B: memory.SpecOf(memory.GraphRAGAbstain)}, Delta: 0.439, Lo: 0.407, Hi: 0.471, Level: 0.95, N: 900, Interval: IntervalPair}
	got := Describe(with)
	for _, want := range []string{"render (render-only − graphrag-abstain) is +0.439 [+0.407, +0.471]", "positive (the 95% interval excludes 0)", "(n = 900)"} {
		if !strings.Contains(got, want) {
			t.Errorf("Describe = %q, want it to contain %q", got, want)
		}
	}
	few := Comparison{Term: Term{Label: "relation-type", A: memory.SpecOf(memory.GraphRAGAbstain), B: memory.SpecOf("graphrag-abstain [single-valued-key]")}, Delta: 0.001, Level: 0.95, N: 2375, N10: 2, N01: 1, TooFew: true, Interval: IntervalPair}
	got = Describe(few)
	want := "relation-type (graphrag-abstain − graphrag-abstain [single-valued-key]) is +0.001, too few discordant pairs for a 95% interval or a verdict (n = 2375, 3 discordant pairs)"
	if got != want {
		t.Errorf("Describe =\n  %q\nwant\n  %q", got, want)
	}
	for _, once := range []string{"n = 2375", few.TooFewReason()} {
		if n := strings.Count(got, once); n != 1 {
			t.Errorf("%q appears %d times in %q, want once", once, n, got)
		}
	}
}
