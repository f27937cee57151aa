package lab

import (
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/internal/report"
)

// Table13Verdict compares the noise sweeps with the paper's finding (C3
// falsified: coarse stays ahead at every level, no monotone trend, no sign
// flip): per axis, whether ours ever has fine ahead (an interval above 0),
// and its trend.
func Table13Verdict(rel, drop []eval.Comparison) string {
	var parts []string
	for _, ax := range []struct {
		name string
		cs   []eval.Comparison
		key  string
	}{{"relation-label noise", rel, "relation-noise"}, {"atom dropout", drop, "atom-dropout"}} {
		var xs []float64
		ahead, behind := 0, 0
		for _, c := range ax.cs {
			xs = append(xs, c.Delta)
			switch {
			case !c.Significant():
			case c.Lo > 0:
				ahead++
			case c.Hi < 0:
				behind++
			}
		}
		if len(xs) == 0 {
			continue
		}
		s := fmt.Sprintf("under %s it %s, fine ahead (interval above 0) at %d of %d levels and behind at %d; the paper's %s", ax.name, trend(xs), ahead, len(xs), behind, trend(paper.Table13[ax.key]))
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return ""
	}
	return "The paper's reading of Table 13: coarse stays ahead at every level with no monotone trend and no sign flip (its C3 fails). Ours: " + strings.Join(parts, "; ") + "."
}

// trend describes a series: rising, falling or neither, by the sign of
// the difference between its last and first values and whether every step
// keeps that direction.
func trend(xs []float64) string {
	if len(xs) < 2 {
		return "too short for a trend"
	}
	up, down := true, true
	for i := 1; i < len(xs); i++ {
		if xs[i] < xs[i-1] {
			up = false
		}
		if xs[i] > xs[i-1] {
			down = false
		}
	}
	d := xs[len(xs)-1] - xs[0]
	switch {
	case up && d > 0:
		return fmt.Sprintf("rises monotonically (%s → %s)", report.Signed(xs[0]), report.Signed(xs[len(xs)-1]))
	case down && d < 0:
		return fmt.Sprintf("falls monotonically (%s → %s)", report.Signed(xs[0]), report.Signed(xs[len(xs)-1]))
	case d > 0:
		return fmt.Sprintf("rises overall but not monotonically (%s → %s)", report.Signed(xs[0]), report.Signed(xs[len(xs)-1]))
	case d < 0:
		return fmt.Sprintf("falls overall but not monotonically (%s → %s)", report.Signed(xs[0]), report.Signed(xs[len(xs)-1]))
	}
	return "shows no overall trend"
}
