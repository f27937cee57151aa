package lab_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/benchtest"
	"github.com/esrkit/esrkit/internal/report"
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
	for _, want := range []string{"date moves the render term most (+", "so on this grid it is largest at low date", "status moves the mechanism term most"} {
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

// A reader marked on the diagram answers as it does in the suites: its
// cell is the render and fine-d mechanism terms of its own rows (the
// default panel's draws), and the marks' mean is the pooled term, so the
// diagram's reading and notebook 41's Table 2 come from the same numbers.
// A negative term never "dominates".
func TestPhaseMarksAreThePanelsRows(t *testing.T) {
	b := benchtest.Mini(12)
	base := sim.Profile{Name: "phase", FirstRowBias: 0.5, AbstainOnConflict: 0.5}
	opt := eval.StatOptions{B: 200, Seed: 1}
	ph, err := lab.PhaseDiagram(context.Background(), b, sim.Date, sim.Status, []float64{0, 0.9, 1}, base, opt, sim.CalibratedProfiles()...)
	if err != nil {
		t.Fatal(err)
	}
	if len(ph.Marks) != len(sim.CalibratedProfiles()) {
		t.Fatalf("%d marks for %d profiles", len(ph.Marks), len(sim.CalibratedProfiles()))
	}
	rows, err := eval.Evaluate(context.Background(), b, eval.Config{Memories: lab.PhaseMemories, Readers: sim.CalibratedPanel()})
	if err != nil {
		t.Fatal(err)
	}
	var meanR, meanM float64
	for _, m := range ph.Marks {
		fam := eval.Family(reader.Family{Kind: reader.KindSim, Name: m.Name})
		f := eval.And(eval.RevertedRevertSnapshot, fam)
		r, err1 := eval.Compare(rows, eval.TermRender, f, opt)
		mc, err2 := eval.Compare(rows, eval.TermFineMechanism, f, opt)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if m.Cell.Render.Delta != r.Delta || m.Cell.Mechanism.Delta != mc.Delta {
			t.Errorf("%s: marked render %+.3f, mechanism %+.3f; its rows give %+.3f, %+.3f", m.Name, m.Cell.Render.Delta, m.Cell.Mechanism.Delta, r.Delta, mc.Delta)
		}
		if want, _ := sim.CalibratedProfiles()[0].Get(sim.Date); m.Name == sim.CalibratedProfiles()[0].Name && m.X != want {
			t.Errorf("%s marked at date %g, its skill is %g", m.Name, m.X, want)
		}
		meanR += m.Cell.Render.Delta / float64(len(ph.Marks))
		meanM += m.Cell.Mechanism.Delta / float64(len(ph.Marks))
	}
	pr, _ := eval.Compare(rows, eval.TermRender, eval.RevertedRevertSnapshot, opt)
	pm, _ := eval.Compare(rows, eval.TermFineMechanism, eval.RevertedRevertSnapshot, opt)
	if math.Abs(meanR-pr.Delta) > 1e-9 || math.Abs(meanM-pm.Delta) > 1e-9 {
		t.Errorf("marks' mean render %+.4f, mechanism %+.4f; pooled %+.4f, %+.4f", meanR, meanM, pr.Delta, pm.Delta)
	}
	if s := ph.Summary(); !strings.Contains(s, fmt.Sprintf("Their mean, render %s and mechanism %s", report.Signed(pr.Delta), report.Signed(pm.Delta))) {
		t.Errorf("summary does not state the pooled terms:\n%s", s)
	}
	neg := lab.PhaseCell{Render: eval.Comparison{Delta: 0.01, Lo: -0.02, Hi: 0.04}, Mechanism: eval.Comparison{Delta: -0.04, Lo: -0.07, Hi: -0.01}}
	if d := neg.Dominant(); d != "mechanism (negative)" {
		t.Errorf("a larger negative mechanism term: Dominant %q", d)
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
