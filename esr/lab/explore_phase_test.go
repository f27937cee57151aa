package lab_test

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// The corners of the date × status phase diagram on the clean preset
// (every atom extracted; the bundled bench's lossy extraction and the rule
// scorer's statuses on it are in TestPhaseDiagramBundled). The
// d-blind control (graphrag-abstain) shows every atom's date in a seeded
// order, so:
//   - a perfect date sorter (date 1) reads the newest value from every
//     render: the render term is exactly 0, whatever the status skill;
//   - a reader that cannot sort (date 0) falls back to its conflict policy;
//     its first-row bias pays on the ledger's newest-first layout and not
//     on the control's seeded order: the render term is positive, and the
//     same at status 0 and 1 (neither render shows a status);
//   - status 0 reads fine-ledger exactly like render-only (same layout,
//     status ignored): the mechanism term is exactly 0;
//   - status 1 without dates reads the LIVE row that render-only lacks: the
//     mechanism term is positive.
func TestPhaseDiagramCorners(t *testing.T) {
	b := benchtest.Clean(t)
	base := sim.Profile{Name: "phase", FirstRowBias: 0.5, AbstainOnConflict: 0.5}
	ph, err := lab.PhaseDiagram(context.Background(), b, sim.Date, sim.Status, []float64{0, 1}, base, eval.StatOptions{B: 500, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ph.Questions != 180 || len(ph.Cells) != 4 {
		t.Fatalf("%d questions, %d cells", ph.Questions, len(ph.Cells))
	}
	c00, c10, c01, c11 := ph.Cell(0, 0), ph.Cell(1, 0), ph.Cell(0, 1), ph.Cell(1, 1)
	for _, c := range []lab.PhaseCell{c10, c11} {
		if c.Render.Delta != 0 {
			t.Errorf("date 1, status %g: render %+.3f, want 0 (the d-blind control shows dates)", c.Y, c.Render.Delta)
		}
	}
	if !(c00.Render.Lo > 0) || c00.Render.Delta != c01.Render.Delta {
		t.Errorf("date 0: render %v at status 0, %v at status 1; want positive and equal", c00.Render, c01.Render)
	}
	for _, c := range []lab.PhaseCell{c00, c10} {
		if c.Mechanism.Delta != 0 {
			t.Errorf("status 0, date %g: mechanism %+.3f, want 0", c.X, c.Mechanism.Delta)
		}
	}
	if !(c01.Mechanism.Lo > 0) || !(c01.Mechanism.Delta > c11.Mechanism.Delta) {
		t.Errorf("status 1: mechanism %v at date 0, %v at date 1; want positive and larger without dates", c01.Mechanism, c11.Mechanism)
	}
	if c00.Dominant() != "render" || c01.Dominant() != "mechanism" || c10.Dominant() != "neither" {
		t.Errorf("dominant: %s %s %s", c00.Dominant(), c01.Dominant(), c10.Dominant())
	}
	s := ph.Summary()
	for _, want := range []string{"readers with low date make the gain look like render", "readers with high status make it look like mechanism"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	tab := ph.Table()
	if len(tab.Rows) != 4 || !strings.Contains(strings.Join(tab.Notes, " "), "SIMULATED") {
		t.Errorf("table:\n%s", tab.Markdown())
	}
	for _, term := range []string{"render", "mechanism"} {
		if p := ph.Plot(term); p == nil || !strings.Contains(p.Title.Text, term) || p.X.Label.Text != "date (DateSkill)" {
			t.Errorf("%s plot: %+v", term, p)
		}
	}
	if _, err := lab.PhaseDiagram(context.Background(), b, sim.Date, sim.Date, []float64{0, 1}, base, eval.StatOptions{}); err == nil {
		t.Error("same capability on both axes accepted")
	}
	if _, err := lab.PhaseDiagram(context.Background(), b, sim.Date, sim.Status, []float64{0, 2}, base, eval.StatOptions{}); err == nil {
		t.Error("probability 2 accepted")
	}
}

// Every table fed by sim readers says they are simulated.
func TestSimFamiliesLabelled(t *testing.T) {
	b := benchtest.Mini(4)
	rs, err := reader.ParseList(strings.Join(lab.SimFamilies, ","), llm.Setup{}, sim.Readers)
	if err != nil {
		t.Fatal(err)
	}
	if !lab.Simulated(rs) {
		t.Error("sim readers not reported simulated")
	}
	res, err := lab.SuiteRenderConfound.Suite().Run(context.Background(), lab.Setup{Bench: b, Readers: rs, Stats: eval.StatOptions{B: 200}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tab := range res.Tables {
		if !strings.Contains(strings.Join(tab.Notes, " "), "sim:* are SIMULATED") {
			t.Errorf("%s does not label the sim families", tab.ID)
		}
	}
	if len(lab.StrictVariants(rs)) != len(rs) {
		t.Error("sim readers lack strict variants")
	}
}

// The 5×5 date × status diagram on the bundled bench, as docs/readers.md
// reads it: run with -v to see the table and the computed reading. The
// render term never grows with date skill (common random numbers: the
// d-blind control shows every date); a reader that cannot sort dates falls
// back on the first row, which the ledger's newest-first layout makes right
// (render dominates there); reading the status column helps a reader that
// cannot sort dates (the mechanism term at date 0 grows with status) and,
// on this bench, costs one that can: the rule scorer's statuses are wrong
// on more reverted reverts than the dates (the mechanism term at date 1,
// status 1 is below 0).
func TestPhaseDiagramBundled(t *testing.T) {
	if testing.Short() {
		t.Skip("5×5 grid with B = 10,000: a few seconds")
	}
	b, err := bench.Load("../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	base := sim.Profile{Name: "phase", FirstRowBias: 0.5, AbstainOnConflict: 0.5}
	grid := []float64{0, 0.25, 0.5, 0.75, 1}
	ph, err := lab.PhaseDiagram(context.Background(), b, sim.Date, sim.Status, grid, base, eval.DefaultStats)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + ph.Table().Markdown() + "\n\n" + ph.Summary())
	for yi := range grid {
		for xi := range grid {
			c := ph.Cell(xi, yi)
			if xi > 0 && c.Render.Delta > ph.Cell(xi-1, yi).Render.Delta {
				t.Errorf("render grows with date at %g, %g", c.X, c.Y)
			}
		}
		if yi > 0 && ph.Cell(0, yi).Mechanism.Delta < ph.Cell(0, yi-1).Mechanism.Delta {
			t.Errorf("at date 0 the mechanism term shrinks with status at %g", grid[yi])
		}
	}
	if ph.Cell(0, 0).Dominant() != "render" || ph.Cell(4, 0).Dominant() != "neither" || !(ph.Cell(0, 4).Mechanism.Lo > 0) || !(ph.Cell(4, 4).Mechanism.Hi < 0) {
		t.Errorf("corners: %s at (0, 0), %s at (1, 0); mechanism %v at (0, 1), %v at (1, 1)", ph.Cell(0, 0).Dominant(), ph.Cell(4, 0).Dominant(), ph.Cell(0, 4).Mechanism, ph.Cell(4, 4).Mechanism)
	}
}
