package eval

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/esrkit/esrkit/internal/report"
	"github.com/esrkit/esrkit/internal/safefile"
)

// TableID names a table: the file stem it is saved under ("table2-render-
// decomposition") and the id a suite's result finds it by.
type TableID string

// On is the id of a table built per benchmark (or per stratum): id and
// name joined by "-", as the builders name their files.
func (id TableID) On(name string) TableID { return id + "-" + TableID(name) }

// Table is a titled grid of typed cells (Cell: its text and what it
// holds). Notes are printed under it (what produced the numbers, which
// reader family, what differs from the paper).
type Table struct {
	ID      TableID
	Title   string
	Columns []string
	Rows    [][]Cell
	Notes   []string
}

// AddRow appends a row of cells: a Cell as it is, a string as text, an
// integer as a count, a float64 as a number with three decimals, anything
// else as its text (fmt.Sprint).
func (t *Table) AddRow(cells ...any) {
	row := make([]Cell, len(cells))
	for i, c := range cells {
		switch v := c.(type) {
		case Cell:
			row[i] = v
		case string:
			row[i] = TextCell(v)
		case int:
			row[i] = CountCell(v)
		case int64, int32, uint, uint64, uint32:
			row[i] = Cell{kindCount, fmt.Sprint(v)}
		case float64:
			row[i] = NumberCell("%.3f", v)
		default:
			row[i] = TextCell(fmt.Sprint(v))
		}
	}
	t.Rows = append(t.Rows, row)
}

// Texts are the rows' cells as text, as every writer prints them.
func (t *Table) Texts() [][]string {
	out := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		out[i] = texts(r)
	}
	return out
}

// texts are cells' texts.
func texts(cells []Cell) []string {
	s := make([]string, len(cells))
	for i, c := range cells {
		s[i] = c.Text
	}
	return s
}

// WriteCSV writes the header and rows as CSV.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Columns); err != nil {
		return err
	}
	if err := cw.WriteAll(t.Texts()); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// Markdown renders the table as GitHub-flavoured Markdown with its title as
// a bold caption and notes as a list. Title, cells and notes may hold data
// (a question, an answer): what could start raw HTML in them is escaped
// (report.MarkdownSafe), and so is a cell's "|".
func (t *Table) Markdown() string {
	var b strings.Builder
	if t.Title != "" {
		b.WriteString("**" + report.MarkdownSafe(t.Title) + "**\n\n")
	}
	esc := func(s string) string { return strings.ReplaceAll(report.MarkdownSafe(s), "|", `\|`) }
	b.WriteString("|")
	for _, c := range t.Columns {
		b.WriteString(" " + esc(c) + " |")
	}
	b.WriteString("\n|")
	for range t.Columns {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		b.WriteString("|")
		for _, c := range r {
			b.WriteString(" " + esc(c.Text) + " |")
		}
		b.WriteString("\n")
	}
	for _, n := range t.Notes {
		b.WriteString("\n- " + report.MarkdownSafe(n))
	}
	if len(t.Notes) > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

var latexEscaper = strings.NewReplacer(`\`, `\textbackslash{}`, "&", `\&`, "%", `\%`, "$", `\$`, "#", `\#`,
	"_", `\_`, "{", `\{`, "}", `\}`, "~", `\textasciitilde{}`, "^", `\textasciicircum{}`,
	"−", "$-$", "±", "$\\pm$", "≥", "$\\geq$", "≤", "$\\leq$")

// LaTeX renders the table as a booktabs tabular inside a table float.
func (t *Table) LaTeX() string {
	var b strings.Builder
	b.WriteString("\\begin{table}[t]\n\\centering\n\\begin{tabular}{l" + strings.Repeat("r", max(len(t.Columns)-1, 0)) + "}\n\\toprule\n")
	row := func(cells []string) {
		esc := make([]string, len(cells))
		for i, c := range cells {
			esc[i] = latexEscaper.Replace(c)
		}
		b.WriteString(strings.Join(esc, " & ") + " \\\\\n")
	}
	row(t.Columns)
	b.WriteString("\\midrule\n")
	for _, r := range t.Rows {
		row(texts(r))
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	if t.Title != "" {
		b.WriteString("\\caption{" + latexEscaper.Replace(t.Title) + "}\n")
	}
	if t.ID != "" {
		b.WriteString("\\label{tab:" + string(t.ID) + "}\n")
	}
	b.WriteString("\\end{table}\n")
	return b.String()
}

// Save writes NAME.csv, NAME.md and NAME.tex into dir, each atomically (a
// temporary file renamed into place: nothing partial is left behind).
func (t *Table) Save(dir string) error {
	if t.ID == "" {
		return fmt.Errorf("report: table %q has no ID to save under", t.Title)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := safefile.Write(filepath.Join(dir, string(t.ID)+".csv"), 0o644, t.WriteCSV); err != nil {
		return err
	}
	if err := safefile.WriteFile(filepath.Join(dir, string(t.ID)+".md"), []byte(t.Markdown()), 0o644); err != nil {
		return err
	}
	return safefile.WriteFile(filepath.Join(dir, string(t.ID)+".tex"), []byte(t.LaTeX()), 0o644)
}
