package lab_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/goldenimg"
)

// paraphraseInput is a fixed paraphrase curve: every series over three
// rates for the oracle read-out, each series rising or flat, and the
// d-blind baseline.
func paraphraseInput() *lab.ParaphraseCurve {
	rates := []float64{0, 0.5, 1}
	c := &lab.ParaphraseCurve{Bench: "golden", Series: lab.ParaphraseSeries, Rates: rates,
		Baseline: map[string]eval.Accuracy{lab.OracleGroup: {Acc: 0.1, N: 60}}}
	for i, s := range lab.ParaphraseSeries {
		for _, r := range rates {
			acc := 0.2 + 0.15*float64(i) + 0.1*float64(i%2)*r
			c.Points = append(c.Points, lab.ParaphrasePoint{Series: s, Class: s, Rate: r, Group: lab.OracleGroup,
				Acc: eval.Accuracy{Acc: acc, N: 60}})
		}
	}
	return c
}

func TestParaphraseCurvePlotGolden(t *testing.T) {
	c := paraphraseInput()
	goldenimg.Check(t, c.Plot(lab.OracleGroup), "paraphrase-curve-plot")
	c.Points[4].Acc.Acc += 0.02
	goldenimg.CheckDiffers(t, c.Plot(lab.OracleGroup), "paraphrase-curve-plot")
}
