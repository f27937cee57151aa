package eval

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTableExports(t *testing.T) {
	tab := &Table{ID: "t1", Title: "Δ of A_B", Columns: []string{"term", "Δ"}, Notes: []string{"simulated"}}
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
	if err := (&Table{Title: "no name"}).Save(dir); err == nil {
		t.Error("saving a table without a name should fail")
	}
}

func TestTableText(t *testing.T) {
	tb := &Table{Title: "T", Columns: []string{"kind", "rate"}, Rows: [][]Cell{{TextCell("gold"), PropCell(1)}, {TextCell("was-now"), TextCell("0.000 [0.000, 0.003]")}},
		Notes: []string{"a note"}}
	want := "T\n\nkind     rate\n-------  --------------------\ngold     1.000\nwas-now  0.000 [0.000, 0.003]\n\n- a note\n"
	if got := tb.Text(); got != want {
		t.Errorf("Text():\n%q\nwant\n%q", got, want)
	}
	// Widths count runes, not bytes.
	u := &Table{Columns: []string{"Δ", "x"}, Rows: [][]Cell{{TextCell("−0.1"), TextCell("y")}}}
	if got := u.Text(); got != "Δ     x\n----  -\n−0.1  y\n" {
		t.Errorf("unicode widths: %q", got)
	}
}
