package nbhelp

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/internal/site"
)

// labPath are the notebooks of the 90-minute lab, in order.
var labPath = []string{"00-quickstart", "40-explorer", "41-render-confound", "43-provenance", "E-checks"}

// Every page of the lab path shows a reader whose verdict changes between
// the d-blind control and render-only, with the reader's own account of
// what decided each answer (nbhelp.Flips), and the question it shows has
// such a flip on the bundled data with the default readers.
func TestLabPathShowsARenderFlip(t *testing.T) {
	for _, name := range labPath {
		cells := readCells(t, filepath.Join("..", "notebooks", name+".ipynb"))
		shows := false
		for _, c := range cells {
			if c.Type == "code" && strings.Contains(sourceText(c.Source), "nbhelp.Flips(w, 0, 1)") {
				shows = true
			}
		}
		if !shows {
			t.Errorf("%s shows no render flip (nbhelp.Flips(w, 0, 1))", name)
		}
		// Where a page shows the renders, it marks what moved between them.
		marks := name == "E-checks" // E judges the flip; it shows no renders
		for _, c := range cells {
			src := sourceText(c.Source)
			if c.Type == "code" && (strings.Contains(src, "nbhelp.ShowRenders(w)") || strings.Contains(src, "nbhelp.DrillHTML(")) {
				marks = true
			}
		}
		if !marks {
			t.Errorf("%s shows its renders without marking what moved (nbhelp.ShowRenders)", name)
		}
	}
	if testing.Short() {
		t.Skip("-short: the questions are not worked")
	}
	ctx := context.Background()
	rs := Readers()
	flips := func(page string, w *lab.WorkedQuestion) {
		t.Helper()
		md := flipsMarkdown(w, 0, 1)
		if len(w.Flips(0, 1)) == 0 || !strings.Contains(md, "turns") {
			t.Errorf("%s: no render flip on %s:\n%s", page, w.QA.QID, md)
		}
	}
	b := Bench("synthetic")
	// 00: the first reverted revert with a render flip (the Figure 1
	// stream's three dated rows may flip no reader).
	qa00, err := lab.PickRenderFlip(ctx, b, esr.RevertedRevert, esr.Snapshot, rs, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := lab.Work(ctx, b, qa00, nil, rs, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	flips("00-quickstart", w)
	// 41: the worked reverted revert.
	qa, err := lab.PickWorked(b, esr.RevertedRevert, esr.Snapshot)
	if err != nil {
		t.Fatal(err)
	}
	if w, err = lab.Work(ctx, b, qa, nil, rs, memory.Options{}); err != nil {
		t.Fatal(err)
	}
	flips("41-render-confound", w)
	// 43 and E: the first question with a flip (43 on provenance).
	for _, qt := range []esr.QueryType{esr.Provenance, esr.Snapshot} {
		qa, err := lab.PickRenderFlip(ctx, b, esr.RevertedRevert, qt, rs, memory.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if w, err = lab.Work(ctx, b, qa, lab.Staircase[:2], rs, memory.Options{}); err != nil {
			t.Fatal(err)
		}
		flips("43 / E ("+string(qt)+")", w)
	}
	// 40: the drill's first question with a flip, for the default settings.
	ex := lab.NewExplorer(b)
	s := lab.DefaultSettings()
	i, err := ex.FirstRenderFlip(ctx, s, ScriptedReaders()...)
	if err != nil {
		t.Fatal(err)
	}
	qids, err := ex.QIDs(s)
	if err != nil {
		t.Fatal(err)
	}
	if w, err = ex.Drill(ctx, s, qids[i], ScriptedReaders()...); err != nil {
		t.Fatal(err)
	}
	flips("40-explorer", w)
}

// The first figure of the lab path is the staircase of a question picked
// because a reader's verdict changes at the render step (lab.PickRenderFlip),
// drawn in the cell that shows that flip; on the executed page, when there
// is one, the cell says which reader turns.
func TestLabPathFirstFigureShowsAFlip(t *testing.T) {
	first := site.LabPath[0].Notebook
	var figure string
	for _, c := range readCells(t, filepath.Join("..", "notebooks", first+".ipynb")) {
		if src := sourceText(c.Source); c.Type == "code" && (strings.Contains(src, "nbhelp.Figure(") || strings.Contains(src, "nbhelp.FigureRow(")) {
			figure = src
			break
		}
	}
	if !strings.Contains(figure, "lab.PickRenderFlip(") || !strings.Contains(figure, "lab.StaircasePlot(w.Accuracies()") || !strings.Contains(figure, "nbhelp.Flips(w, 0, 1)") {
		t.Fatalf("%s's first figure is not the staircase of a question with a render flip:\n%s", first, figure)
	}
	if p, found, err := loadPage(executedDir(), first); err != nil {
		t.Fatal(err)
	} else if found {
		if out := p.cell("lab.PickRenderFlip(", "lab.StaircasePlot("); !strings.Contains(out, "turns") {
			t.Errorf("%s: the first figure's cell shows no flip:\n%s", first, out)
		}
	}
}
