package lab_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/reader"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/internal/goldenimg"
	"github.com/esrkit/esrkit/stats"
)

// figure3Input is a fixed provenance accuracy per retention class, with
// Wilson intervals on 200 questions.
func figure3Input() []eval.Accuracy {
	var acc []eval.Accuracy
	for i, m := range paper.RetentionClasses {
		correct := []int{52, 90, 118, 141}[i]
		lo, hi := stats.WilsonInterval(correct, 200, 0.95)
		acc = append(acc, eval.Accuracy{Group: reader.Pooled.String(), Memory: m, N: 200, Correct: correct, Acc: float64(correct) / 200, Lo: lo, Hi: hi})
	}
	return acc
}

func TestFigure3Golden(t *testing.T) {
	const title = "Figure 3: provenance accuracy (golden fixture)"
	acc := figure3Input()
	goldenimg.Check(t, lab.ProvenancePlot(acc, title, "f3"), "provenance-plot")
	acc[2].Acc += 0.02
	goldenimg.CheckDiffers(t, lab.ProvenancePlot(acc, title, "f3"), "provenance-plot")
}
