package lab_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/goldenimg"
)

// staircaseInput is a fixed staircase: two families, the pooled line and
// the paper's values.
func staircaseInput() []eval.Accuracy {
	var acc []eval.Accuracy
	for _, g := range []struct {
		name string
		acc  []float64
	}{
		{"scripted:time-sorter", []float64{0.35, 0.55, 0.60, 0.50}},
		{"scripted:status-reader", []float64{0.30, 0.40, 0.75, 0.65}},
		{reader.Pooled.String(), []float64{0.325, 0.475, 0.675, 0.575}},
		{lab.PaperGroup, []float64{0.28, 0.44, 0.47, 0.37}},
	} {
		for i, m := range lab.Staircase {
			acc = append(acc, eval.Accuracy{Group: g.name, Memory: m, N: 120, Acc: g.acc[i]})
		}
	}
	return acc
}

func TestStaircasePlotGolden(t *testing.T) {
	const title = "Staircase (golden fixture)"
	acc := staircaseInput()
	goldenimg.Check(t, lab.StaircasePlot(acc, title), "staircase-plot")
	acc[5].Acc += 0.02
	goldenimg.CheckDiffers(t, lab.StaircasePlot(acc, title), "staircase-plot")
	goldenimg.CheckDiffers(t, lab.StaircasePlot(staircaseInput(), title+"."), "staircase-plot")
}
