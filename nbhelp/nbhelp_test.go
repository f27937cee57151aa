package nbhelp

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/internal/repo"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// recorder is a displayer that keeps what it is sent.
type recorder struct {
	html, md []string
	png      [][]byte
	updates  []string // "id\x00html"
}

func (r *recorder) HTML(s string)              { r.html = append(r.html, s) }
func (r *recorder) UpdateHTML(id, html string) { r.updates = append(r.updates, id+"\x00"+html) }
func (r *recorder) Markdown(s string)          { r.md = append(r.md, s) }
func (r *recorder) PNG(b []byte)               { r.png = append(r.png, b) }

func record(t *testing.T) *recorder {
	t.Helper()
	r := &recorder{}
	old := out
	out = r
	t.Cleanup(func() { out = old })
	return r
}

func TestTableHTMLEscapes(t *testing.T) {
	got := TableHTML([]string{"a<b", `"q"`}, [][]eval.Cell{{eval.TextCell("<script>x</script>"), eval.NumberCell("%.1f", 1.5)}, {eval.TextCell("&amp;")}})
	for _, want := range []string{
		"<th>a&lt;b</th>", "<th>&#34;q&#34;</th>",
		"<td>&lt;script&gt;x&lt;/script&gt;</td>",
		`<td style="text-align:right">1.5</td>`,
		"<td>&amp;amp;</td>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("TableHTML output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "<script>") {
		t.Errorf("unescaped markup in %s", got)
	}
	if n := strings.Count(got, "<tr>"); n != 3 {
		t.Errorf("got %d rows, want 3 (header + 2)", n)
	}
}

// A cell is styled by its kind, never by its text: a version string that
// reads as a number stays text, a count and a difference are right-aligned,
// a verdict is shaded whatever its words.
func TestTableHTMLStylesByKind(t *testing.T) {
	got := TableHTML(nil, [][]eval.Cell{{eval.TextCell("1.15"), eval.CountCell(900), eval.SignedCell(0.159),
		eval.VerdictCell("30 s", true), eval.VerdictCell("ABSTAIN", false), eval.TextCell("ends in ✓")}})
	for _, want := range []string{
		"<td>1.15</td>", `<td style="text-align:right">900</td>`, `<td style="text-align:right">+0.159</td>`,
		`<td style="background:#d9f0d3">30 s ✓</td>`, `<td style="background:#f4cccc">ABSTAIN ✗</td>`, "<td>ends in ✓</td>",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("TableHTML output lacks %q:\n%s", want, got)
		}
	}
}

func TestTableHTMLNoHeader(t *testing.T) {
	if got := TableHTML(nil, [][]eval.Cell{{eval.TextCell("x")}}); strings.Contains(got, "<thead>") {
		t.Errorf("nil header rendered a <thead>: %s", got)
	}
}

func testPlot(t *testing.T) *plot.Plot {
	t.Helper()
	p := plot.New()
	p.Title.Text = "test <plot>"
	l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}, {X: 2, Y: 4}})
	if err != nil {
		t.Fatal(err)
	}
	p.Add(l)
	return p
}

func TestSaveFigureWritesPNGAndSVG(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module "+repo.ModulePath+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(rootEnv, root)
	pngPath, svgPath, err := SaveFigure(testPlot(t), "fig1")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "figures", "fig1.png"); pngPath != want {
		t.Errorf("png path %s, want %s", pngPath, want)
	}
	b, err := os.ReadFile(pngPath)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("figure is not a PNG: %v", err)
	}
	// 16 cm at 150 dpi is 945 pixels.
	if w := img.Bounds().Dx(); w < 940 || w > 950 {
		t.Errorf("PNG width %d px, want about 945", w)
	}
	s, err := os.ReadFile(svgPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(s, []byte("<svg")) || !bytes.Contains(s, []byte("</svg>")) {
		t.Errorf("%s is not an SVG document", svgPath)
	}
	entries, _ := os.ReadDir(filepath.Join(root, "figures"))
	if len(entries) != 2 {
		t.Errorf("figures/ holds %d entries, want 2 (no leftover temporary files)", len(entries))
	}
	// A second save overwrites in place.
	if _, _, err := SaveFigure(testPlot(t), "fig1.png"); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(filepath.Join(root, "figures")); len(entries) != 2 {
		t.Errorf("after re-save figures/ holds %d entries, want 2", len(entries))
	}
}

// With $ESRKIT_FIGURES set, figures go there and figures/ under the root
// is left as it was (the exercise runs' notebooks save theirs apart).
func TestSaveFigureHonoursFiguresEnv(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module "+repo.ModulePath+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(rootEnv, root)
	t.Setenv(FiguresEnv, elsewhere)
	pngPath, _, err := SaveFigure(testPlot(t), "fig1")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(elsewhere, "fig1.png"); pngPath != want {
		t.Errorf("png path %s, want %s", pngPath, want)
	}
	if _, err := os.Stat(filepath.Join(root, "figures")); !os.IsNotExist(err) {
		t.Errorf("figures/ under the root was written (%v)", err)
	}
}

func TestSaveFigureRejectsPaths(t *testing.T) {
	for _, name := range []string{"", "..", "../x", "a/b", `a\b`} {
		if _, _, err := saveFigureIn(t.TempDir(), testPlot(t), name); err == nil {
			t.Errorf("SaveFigureIn accepted name %q", name)
		}
	}
}

func TestShowPlot(t *testing.T) {
	r := record(t)
	if err := showPlot(testPlot(t)); err != nil {
		t.Fatal(err)
	}
	if err := showPlotPNG(testPlot(t)); err != nil {
		t.Fatal(err)
	}
	if len(r.html) != 1 || !strings.HasPrefix(r.html[0], "<div><svg") || strings.Contains(r.html[0], "<?xml") {
		t.Errorf("inline SVG = %.80q", r.html)
	}
	if len(r.png) != 1 || !bytes.HasPrefix(r.png[0], []byte("\x89PNG")) {
		t.Errorf("ShowPlotPNG sent %d images", len(r.png))
	}
}

func TestRoot(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "notebooks", "deep")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	// A go.mod of another module on the way up is skipped.
	if err := os.WriteFile(filepath.Join(sub, "go.mod"), []byte("module example.com/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("// c\nmodule "+repo.ModulePath+"\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := repo.RootFrom(sub)
	if err != nil || got != root {
		t.Errorf("findRootFrom(%s) = %q, %v; want %q", sub, got, err, root)
	}
	if _, err := repo.RootFrom(t.TempDir()); err == nil {
		t.Error("findRootFrom outside the repository succeeded")
	}

	t.Setenv(rootEnv, root)
	if Root() != root || Path("data", "x.csv") != filepath.Join(root, "data", "x.csv") {
		t.Errorf("with %s set: Root() = %q", rootEnv, Root())
	}
	t.Setenv(rootEnv, filepath.Join(root, "nope"))
	if _, err := findRoot(); err == nil {
		t.Errorf("FindRoot accepted a missing %s", rootEnv)
	}
	t.Setenv(rootEnv, "")
	if got, err := findRoot(); err != nil || !repo.IsRoot(got) {
		t.Errorf("FindRoot from the package folder = %q, %v", got, err)
	}
}

func TestProgress(t *testing.T) {
	t.Setenv(nonInteractiveEnv, "")
	r := record(t)
	clock := time.Unix(0, 0)
	p := newProgress("work <1>", 4)
	p.now = func() time.Time { return clock }
	p.start, p.lastSent = clock, clock
	p.Set(1) // too soon: dropped
	clock = clock.Add(time.Second)
	p.Set(2) // sent
	p.Set(4) // finished: always sent
	clock = clock.Add(time.Second)
	p.Done()
	if len(r.updates) != 4 {
		t.Fatalf("sent %d updates, want 4: %q", len(r.updates), r.updates)
	}
	id := strings.SplitN(r.updates[0], "\x00", 2)[0]
	for _, u := range r.updates {
		if !strings.HasPrefix(u, id+"\x00") {
			t.Errorf("update %q does not reuse id %q", u, id)
		}
	}
	if !strings.Contains(r.updates[1], "work &lt;1&gt;: 2/4") || !strings.Contains(r.updates[1], "~1s left") {
		t.Errorf("mid update = %q", r.updates[1])
	}
	if !strings.Contains(r.updates[3], "4/4") || !strings.Contains(r.updates[3], "100%") || strings.Contains(r.updates[3], "left") {
		t.Errorf("final update = %q", r.updates[3])
	}
}

// TestProgressHeadlessClears: in a headless run the finished line is
// cleared, so executed notebooks keep no progress bars.
func TestProgressHeadlessClears(t *testing.T) {
	t.Setenv(nonInteractiveEnv, "1")
	r := record(t)
	p := newProgress("work", 2)
	p.Set(2)
	p.Done()
	if n := len(r.updates); n < 2 || !strings.HasSuffix(r.updates[n-1], "\x00") {
		t.Errorf("last update %q, want the line cleared", r.updates)
	}
}

func TestProgressHTMLUnknownTotal(t *testing.T) {
	got := progressHTML("n", 12, 0, 1500*time.Millisecond)
	if !strings.Contains(got, "n: 12 1.5s") {
		t.Errorf("ProgressHTML = %q", got)
	}
}

func TestMarkdownAndHTML(t *testing.T) {
	r := record(t)
	Markdown("# hi")
	HTML("<b>x</b>")
	if len(r.md) != 1 || r.md[0] != "# hi" || len(r.html) != 1 {
		t.Errorf("got md %q html %q", r.md, r.html)
	}
	if inNotebook() {
		t.Error("InNotebook() is true under go test")
	}
}

func TestReportHTMLAndOutcomesFrame(t *testing.T) {
	tab := &eval.Table{Title: "T <1>", Columns: []string{"a", "b"}, Notes: []string{"scripted readers are simulated"}}
	tab.AddRow("x", 0.5)
	h := reportHTML(tab)
	for _, want := range []string{"T &lt;1&gt;", "<td>x</td>", "0.500", "simulated"} {
		if !strings.Contains(h, want) {
			t.Errorf("report HTML lacks %q: %s", want, h)
		}
	}
	df := OutcomesFrame([]eval.Outcome{{QID: "q1", Memory: memory.SpecOf(memory.FineLedger), Correct: true}, {QID: "q2", Memory: memory.SpecOf(memory.RenderOnly)}})
	if df.Nrow() != 2 || df.Col("Correct").Sum() != 1 {
		t.Errorf("frame: %d rows, correct sum %v", df.Nrow(), df.Col("Correct").Sum())
	}
	if got := df.Filter(dataframe.F{Colname: "Memory", Comparator: series.Eq, Comparando: "render-only"}).Nrow(); got != 1 {
		t.Errorf("filter by memory: %d rows", got)
	}
}

// TestShowFoldedListEscapes: folded sentences keep their code and bold
// and never pass markup through.
func TestShowFoldedListEscapes(t *testing.T) {
	rec := record(t)
	ShowFoldedList([]string{"`a` **b** <script>x</script>", "two"}, "sum <i>")
	if len(rec.html) != 1 {
		t.Fatalf("%d blocks", len(rec.html))
	}
	h := rec.html[0]
	for _, want := range []string{"<details><summary>sum &lt;i&gt; (2 sentences; click to open)</summary>", "<code>a</code>", "<b>b</b>", "&lt;script&gt;", "<li>two</li>"} {
		if !strings.Contains(h, want) {
			t.Errorf("folded list lacks %q: %s", want, h)
		}
	}
	if strings.Contains(h, "<script>") {
		t.Errorf("markup passed through: %s", h)
	}
}
