package nbhelp

import (
	"context"
	"fmt"
	"html"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

func syntheticExplorer(t *testing.T) *lab.Explorer {
	t.Helper()
	b, err := bench.Load("../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	return lab.NewExplorer(b)
}

// TestExploreStaticShowsTheLibraryView: outside a browser Explore shows,
// without blocking, the settings, the library's table for them (every
// cell), its sentence, and the first question's drill-down with the sim
// reader and the scripted families.
func TestExploreStaticShowsTheLibraryView(t *testing.T) {
	if interactive() {
		t.Skip("running inside a GoNB kernel")
	}
	rec := record(t)
	ex := syntheticExplorer(t)
	s := lab.DefaultSettings()
	if err := Explore(ex, s, ScriptedReaders()...); err != nil {
		t.Fatal(err)
	}
	if len(rec.html) != 3 || len(rec.updates) != 0 {
		t.Fatalf("Explore displayed %d blocks and %d updates, want 3 blocks (settings, view, drill-down) and no updates", len(rec.html), len(rec.updates))
	}
	if !strings.Contains(rec.html[0], "Static view") || !strings.Contains(rec.html[0], "<td>"+string(s.QueryType)+"</td>") {
		t.Errorf("first block lacks the static note or the settings: %.300s", rec.html[0])
	}
	v, err := ex.View(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	view := rec.html[1]
	if !strings.Contains(view, `data-key="`+html.EscapeString(ExploreKey(s))+`"`) {
		t.Errorf("view block does not carry its settings key")
	}
	for _, row := range v.Table().Rows {
		for _, cell := range row {
			if !strings.Contains(view, html.EscapeString(cell.Text)+"</td>") {
				t.Errorf("view lacks the library's cell %q", cell)
			}
		}
	}
	if !strings.Contains(view, html.EscapeString(v.Sentence())) || !strings.Contains(view, "<svg") {
		t.Error("view lacks the sentence or the plot")
	}
	qids, _ := ex.QIDs(s)
	drill := rec.html[2]
	if !strings.Contains(drill, `data-qid="`+qids[0]+`"`) || !strings.Contains(drill, "Question 1 of") {
		t.Errorf("drill-down is not of the first question %s", qids[0])
	}
	for _, name := range append([]string{v.Reader}, "scripted:naive", "scripted:status-reader") {
		if !strings.Contains(drill, "<td>"+name+"</td>") {
			t.Errorf("drill-down lacks reader %s", name)
		}
	}
	for _, m := range []memory.Spec{memory.SpecOf(memory.GraphRAGAbstain), memory.SpecOf(memory.RenderOnly), memory.SpecOf(memory.FineLedger), eval.CoarseControl, memory.SpecOf(memory.CoarseRetain)} {
		if !strings.Contains(drill, "<b>"+m.String()+"</b>") {
			t.Errorf("drill-down lacks the render of %s", m)
		}
	}
	// fine-ledger differs from render-only in its status column only: the
	// drill-down must highlight something there.
	if !strings.Contains(drill, "<mark") {
		t.Error("drill-down highlights nothing")
	}
}

// TestExploreApply: each control event changes exactly the setting it names.
func TestExploreApply(t *testing.T) {
	ui := &exploreUI{ex: syntheticExplorer(t), s: lab.DefaultSettings()}
	base := ui.s
	ui.qi = 3
	ui.apply(exploreEvent{"stratum", 2})
	if ui.s.Stratum != exploreStrata[2] || ui.qi != 0 {
		t.Errorf("stratum event: stratum %q, question %d; want %q, 0", ui.s.Stratum, ui.qi, exploreStrata[2])
	}
	ui.apply(exploreEvent{"next", 1})
	ui.apply(exploreEvent{"query", 1})
	if ui.s.QueryType != esr.Provenance || ui.qi != 0 {
		t.Errorf("query event: %q, question %d", ui.s.QueryType, ui.qi)
	}
	ui.apply(exploreEvent{sim.Status, 20})
	want, _ := base.WithCapability(sim.Status, 0.2)
	if ui.s.Reader != want.Reader || ui.s.Reader.Name != lab.CustomProfile {
		t.Errorf("status slider: reader %+v, want %+v", ui.s.Reader, want.Reader)
	}
	ui.apply(exploreEvent{"profile", 1})
	if ui.s.Reader != append(sim.CalibratedProfiles(), sim.Profiles()...)[1] {
		t.Errorf("profile event: reader %+v", ui.s.Reader)
	}
	ui.apply(exploreEvent{"noise", 30})
	ui.apply(exploreEvent{"seed", 7})
	ui.apply(exploreEvent{"terms", 1})
	ui.apply(exploreEvent{"format", 1})
	if ui.s.NoiseP != 0.3 || ui.s.Seed != 7 || ui.s.Terms != lab.TermSets[1].Name || ui.s.Format != "verbose" {
		t.Errorf("settings after noise, seed, terms, format: %+v", ui.s)
	}
	before := ui.s
	ui.apply(exploreEvent{"stratum", 99})
	ui.apply(exploreEvent{"profile", len(profileNames()) - 1}) // "custom" changes nothing
	if ui.s != before {
		t.Errorf("out-of-range select and the custom entry changed the settings: %+v", ui.s)
	}
}

// TestExploreSlidersRoundTrip: each built-in profile sits exactly on slider
// positions, so selecting it and reading the sliders back gives it again
// (and its name, not "custom").
func TestExploreSlidersRoundTrip(t *testing.T) {
	for _, p := range sim.Profiles() {
		s := lab.DefaultSettings()
		s.Reader = p
		back := s
		for _, c := range exploreSliders {
			pos := int(c.value(s)*c.scale + 0.5)
			var err error
			if back, err = c.apply(back, pos); err != nil {
				t.Fatal(err)
			}
		}
		if back.Reader != p {
			t.Errorf("profile %s through the sliders = %+v", p.Name, back.Reader)
		}
	}
}

// BenchmarkExploreRedrawBlocks measures what a control change costs the live
// explorer end to end in Go, from kept renders: the view (read, judge,
// intervals), its HTML with the SVG plot, and the drill-down; per stratum of
// the bundled synthetic bench. The ratio x-view is to the library's view
// alone, measured in the same run.
//
// Run: go test ./nbhelp -run '^$' -bench ExploreRedrawBlocks -benchtime 10x
func BenchmarkExploreRedrawBlocks(b *testing.B) {
	bn, err := bench.Load("../data/synthetic")
	if err != nil {
		b.Fatal(err)
	}
	extra := ScriptedReaders()
	for _, stratum := range []string{string(esr.RevertedRevert), lab.AllStrata} {
		b.Run(stratum, func(b *testing.B) {
			ex := lab.NewExplorer(bn)
			s := lab.DefaultSettings()
			s.Stratum = stratum
			if _, _, err := exploreBlocks(ex, s, extra, 0); err != nil {
				b.Fatal(err)
			}
			t0 := time.Now()
			const reps = 3
			for i := range reps {
				s.Reader.DateSkill = float64(i) / 10
				if _, err := ex.View(context.Background(), s); err != nil {
					b.Fatal(err)
				}
			}
			view := float64(time.Since(t0).Nanoseconds()) / reps
			i := 0
			for b.Loop() {
				s.Reader.DateSkill = float64(i%10) / 10
				i++
				if _, _, err := exploreBlocks(ex, s, extra, i); err != nil {
					b.Fatal(err)
				}
			}
			per := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
			b.ReportMetric(per/1e9, "s/redraw")
			b.ReportMetric(per/view, "x-view")
		})
	}
}

// The render diff marks what the next render changes and says what the
// marks mean; a reordered line is marked, text from data is escaped.
func TestRenderDiffHTML(t *testing.T) {
	got := renderDiffHTML([]string{"a", "b"}, []string{"x | 1\ny | <2>", "y | <2>\nx | 1"})
	if !strings.Contains(got, "Highlighted: what each render changes") || !strings.Contains(got, "<mark") || !strings.Contains(got, "&lt;2&gt;") || strings.Contains(got, "<2>") {
		t.Errorf("renderDiffHTML: %s", got)
	}
}

// Under the marked renders, the features the reader model reads that
// change from render to render: on the Figure 1 staircase the render step
// changes the row order and grouping, the mechanism step the row status.
func TestRendersHTMLNamesWhatMoved(t *testing.T) {
	w, err := lab.Work(context.Background(), bench.Figure1Bench(), bench.Figure1QA(), nil, []reader.Reader{reader.Oracle{}}, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := rendersHTML(w)
	step := func(from, to string) string {
		i := strings.Index(got, "<b>"+from+" → "+to+"</b>")
		if i < 0 {
			t.Fatalf("no line for %s → %s:\n%s", from, to, got)
		}
		j := strings.Index(got[i:], "</li>")
		return got[i : i+j]
	}
	if s := step("graphrag-abstain", "render-only"); !strings.Contains(s, "row order unordered → newest-first") || strings.Contains(s, "row status") {
		t.Errorf("render step: %s", s)
	}
	if s := step("render-only", "fine-ledger"); !strings.Contains(s, "row status none → shown") || strings.Contains(s, "row order") {
		t.Errorf("mechanism step: %s", s)
	}
}

// TestExploreHeadlessShowsTheSliderMoving: with no browser (the executed
// copies the report is made of), Explore shows the view at three
// date-skill settings side by side, with the library's sentence on how the
// terms move, so the static page shows what the slider does.
func TestExploreHeadlessShowsTheSliderMoving(t *testing.T) {
	t.Setenv(nonInteractiveEnv, "1")
	rec := record(t)
	ex := syntheticExplorer(t)
	s := lab.DefaultSettings()
	if err := Explore(ex, s, ScriptedReaders()...); err != nil {
		t.Fatal(err)
	}
	if len(rec.html) < 2 {
		t.Fatalf("Explore displayed %d blocks, want the note and the small multiple", len(rec.html))
	}
	last := rec.html[len(rec.html)-1]
	if n := strings.Count(last, "<svg"); n != len(staticSweep.values) {
		t.Errorf("the small multiple shows %d plots, want %d", n, len(staticSweep.values))
	}
	sw, err := ex.SweepCapability(context.Background(), s, staticSweep.cap, staticSweep.values)
	if err != nil {
		t.Fatal(err)
	}
	if sw.Sentence() == "" || !strings.Contains(last, html.EscapeString(sw.Sentence())) {
		t.Errorf("the small multiple lacks the sweep's sentence %q", sw.Sentence())
	}
	for _, v := range staticSweep.values {
		if !strings.Contains(last, fmt.Sprintf("%s = %g", staticSweep.cap, v)) {
			t.Errorf("no panel titled %s = %g", staticSweep.cap, v)
		}
	}
}
