package report_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/internal/report"
)

func TestTableExports(t *testing.T) {
	tab := &report.Table{Name: "t1", Title: "Δ of A_B", Columns: []string{"term", "Δ"}, Notes: []string{"simulated"}}
	tab.AddRow("render | layout", -0.25)
	var csv bytes.Buffer
	if err := tab.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	if csv.String() != "term,Δ\nrender | layout,-0.250\n" {
		t.Errorf("csv %q", csv.String())
	}
	if md := tab.Markdown(); !strings.Contains(md, `render \| layout`) || !strings.Contains(md, "- simulated") {
		t.Errorf("markdown %q", md)
	}
	tex := tab.LaTeX()
	for _, want := range []string{`\toprule`, `\midrule`, `\bottomrule`, `A\_B`, `\label{tab:t1}`} {
		if !strings.Contains(tex, want) {
			t.Errorf("latex lacks %q:\n%s", want, tex)
		}
	}
	dir := t.TempDir()
	if err := tab.Save(dir); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".csv", ".md", ".tex"} {
		if _, err := os.Stat(filepath.Join(dir, "t1"+ext)); err != nil {
			t.Error(err)
		}
	}
	if err := (&report.Table{Title: "no name"}).Save(dir); err == nil {
		t.Error("saving a table without a name should fail")
	}
}

func TestPlotsSave(t *testing.T) {
	pts := []report.IntervalPoint{{Label: "render", Est: 0.16, Lo: 0.11, Hi: 0.21, Series: "a"}, {Label: "render", Est: 0.1, Lo: 0.0, Hi: 0.2, Series: "b"}}
	dir := t.TempDir()
	if _, _, err := report.SaveFigure(report.IntervalPlot("t", "Δ", pts, true), dir, "ip"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := report.SaveFigure(report.BarPlot("t", "acc", pts[:1]), dir, "bar"); err != nil {
		t.Fatal(err)
	}
	lp := report.LinePlot("t", "p", "Δ", map[string][]report.XYInterval{"s": {{X: 0, Est: 0, Lo: -0.1, Hi: 0.1}, {X: 0.5, Est: -0.1, Lo: -0.2, Hi: 0}}}, []string{"s"}, true)
	if _, _, err := report.SaveFigure(lp, dir, "line"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"ip.png", "ip.svg", "bar.png", "line.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

func TestTableText(t *testing.T) {
	tb := &report.Table{Title: "T", Columns: []string{"kind", "rate"}, Rows: [][]string{{"gold", "1.000"}, {"was-now", "0.000 [0.000, 0.003]"}},
		Notes: []string{"a note"}}
	want := "T\n\nkind     rate\n-------  --------------------\ngold     1.000\nwas-now  0.000 [0.000, 0.003]\n\n- a note\n"
	if got := tb.Text(); got != want {
		t.Errorf("Text():\n%q\nwant\n%q", got, want)
	}
	// Widths count runes, not bytes.
	u := &report.Table{Columns: []string{"Δ", "x"}, Rows: [][]string{{"−0.1", "y"}}}
	if got := u.Text(); got != "Δ     x\n----  -\n−0.1  y\n" {
		t.Errorf("unicode widths: %q", got)
	}
}
