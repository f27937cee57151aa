package deployed_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/deployed"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/goldenimg"
)

// paraphraseInput is a fixed paraphrase curve: every series over three
// rates for the oracle read-out, each series rising or flat, and the
// d-blind baseline.
func paraphraseInput() *deployed.ParaphraseCurve {
	rates := []float64{0, 0.5, 1}
	c := &deployed.ParaphraseCurve{Bench: "golden", Series: deployed.ParaphraseSeries, Rates: rates,
		Baseline: map[string]eval.Accuracy{deployed.OracleGroup: {Acc: 0.1, N: 60}}}
	for i, s := range deployed.ParaphraseSeries {
		for _, r := range rates {
			acc := 0.2 + 0.15*float64(i) + 0.1*float64(i%2)*r
			c.Points = append(c.Points, deployed.ParaphrasePoint{Series: s, Class: s, Rate: r, Group: deployed.OracleGroup,
				Acc: eval.Accuracy{Acc: acc, N: 60}})
		}
	}
	return c
}

func TestParaphraseCurvePlotGolden(t *testing.T) {
	c := paraphraseInput()
	goldenimg.Check(t, c.Plot(deployed.OracleGroup), "paraphrase-curve-plot")
	c.Points[4].Acc.Acc += 0.02
	goldenimg.CheckDiffers(t, c.Plot(deployed.OracleGroup), "paraphrase-curve-plot")
}
