package lab

import (
	"context"
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/report"
)

// Sweep is the explorer's view at several values of one reader capability,
// the rest of the settings fixed: what a student sees moving one slider,
// laid side by side (a small multiple) where no kernel moves the slider.
type Sweep struct {
	Capability string
	Values     []float64
	Views      []*View
}

// SweepCapability computes the view of s with capability cap at each of
// values (sim.Capabilities names).
func (e *Explorer) SweepCapability(ctx context.Context, s Settings, cap string, values []float64) (*Sweep, error) {
	sw := &Sweep{Capability: cap, Values: values}
	for _, v := range values {
		sv, err := s.WithCapability(cap, v)
		if err != nil {
			return nil, err
		}
		view, err := e.View(ctx, sv)
		if err != nil {
			return nil, err
		}
		sw.Views = append(sw.Views, view)
	}
	return sw, nil
}

// term is the view's pooled comparison of t.
func (sw *Sweep) term(i int, t eval.Term) (eval.Comparison, bool) {
	return eval.FindTerm(sw.Views[i].Comparisons, t, reader.Family{})
}

// Sentence says how the render and fine-d mechanism terms move from the
// first value to the last, with the intervals at both ends; "" when the
// views do not show both terms.
func (sw *Sweep) Sentence() string {
	if len(sw.Views) < 2 {
		return ""
	}
	last := len(sw.Views) - 1
	var parts []string
	for _, t := range []eval.Term{eval.TermRender, eval.TermFineMechanism} {
		a, ok1 := sw.term(0, t)
		b, ok2 := sw.term(last, t)
		if !ok1 || !ok2 {
			return ""
		}
		parts = append(parts, fmt.Sprintf("the %s term from %s %s to %s %s", t.Label, report.Signed(a.Delta), a.CI(), report.Signed(b.Delta), b.CI()))
	}
	return fmt.Sprintf("As %s goes from %g to %g, %s.", sw.Capability, sw.Values[0], sw.Values[last], strings.Join(parts, ", and "))
}
