package lab_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/goldenimg"
)

// phaseInput is a fixed 4×4 date × status phase diagram, refined near 1
// (equal cells whatever the spacing): the render term falls with the date
// skill, the mechanism term rises with the status skill; intervals ±0.05,
// so cells near 0 are not starred; two readers are marked at their own
// skills, between the grid's values.
func phaseInput() *lab.Phase {
	grid := []float64{0, 0.5, 0.9, 1}
	p := &lab.Phase{XCap: sim.Date, YCap: sim.Status, Grid: grid,
		Base: sim.Profile{Name: "phase"}, Seed: 1, Questions: 180}
	for _, y := range grid {
		for _, x := range grid {
			r := 0.3 * (1 - x)
			m := 0.25 * y * (1 - 0.5*x)
			p.Cells = append(p.Cells, lab.PhaseCell{X: x, Y: y,
				Render:    eval.Comparison{Term: eval.Term{Label: "render"}, Delta: r, Lo: r - 0.05, Hi: r + 0.05},
				Mechanism: eval.Comparison{Term: eval.Term{Label: "fine-d mechanism"}, Delta: m, Lo: m - 0.05, Hi: m + 0.05}})
		}
	}
	p.Marks = []lab.PhaseMark{{Name: "fit-a", X: 0.97, Y: 0.98}, {Name: "fit-b", X: 0.7, Y: 0.25}}
	return p
}

func TestPhasePlotGolden(t *testing.T) {
	p := phaseInput()
	goldenimg.Check(t, p.Plot("render"), "phase-plot-render")
	goldenimg.Check(t, p.Plot("mechanism"), "phase-plot-mechanism")
	p.Cells[5].Render.Delta += 0.02
	goldenimg.CheckDiffers(t, p.Plot("render"), "phase-plot-render")
}
