package eval_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
)

// Describe's sign and significance words come from the interval, never
// from the label, and the sentence carries the estimate.
func TestDescribeFollowsInterval(t *testing.T) {
	pos := eval.Comparison{Term: eval.Term{Label: "render", A: memory.SpecOf("render-only"), B: memory.SpecOf("graphrag-abstain")}, N: 10, Delta: 0.2, Lo: 0.1, Hi: 0.3, Level: 0.95}
	neg := eval.Comparison{Term: eval.Term{Label: "render", A: memory.SpecOf("render-only"), B: memory.SpecOf("graphrag-abstain")}, N: 10, Delta: -0.2, Lo: -0.3, Hi: -0.1, Level: 0.95}
	nul := eval.Comparison{Term: eval.Term{Label: "fine-d mechanism", A: memory.SpecOf("fine-ledger"), B: memory.SpecOf("render-only")}, N: 10, Delta: 0.01, Lo: -0.02, Hi: 0.04, Level: 0.95}
	for _, tc := range []struct {
		c    eval.Comparison
		want string
	}{{pos, "positive"}, {neg, "negative"}, {nul, "not distinguishable from 0"}} {
		if got := eval.Describe(tc.c); !strings.Contains(got, tc.want) || !strings.Contains(got, fmt.Sprintf("%+.3f", tc.c.Delta)) {
			t.Errorf("eval.Describe(%+v) = %q, want %q and the estimate", tc.c, got, tc.want)
		}
	}
}
