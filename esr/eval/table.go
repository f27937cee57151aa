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

// Table is a titled grid of formatted cells. Notes are printed under it
// (what produced the numbers, which reader family, what differs from the
// paper).
type Table struct {
	Name    string // file stem, e.g. "table2-render-decomposition"
	Title   string
	Columns []string
	Rows    [][]string
	Notes   []string
}

// AddRow appends a row of cells (formatted with fmt.Sprint when not strings).
func (t *Table) AddRow(cells ...any) {
	row := make([]string, len(cells))
	for i, c := range cells {
		switch v := c.(type) {
		case string:
			row[i] = v
		case float64:
			row[i] = fmt.Sprintf("%.3f", v)
		default:
			row[i] = fmt.Sprint(v)
		}
	}
	t.Rows = append(t.Rows, row)
}

// WriteCSV writes the header and rows as CSV.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Columns); err != nil {
		return err
	}
	if err := cw.WriteAll(t.Rows); err != nil {
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
			b.WriteString(" " + esc(c) + " |")
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
		row(r)
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	if t.Title != "" {
		b.WriteString("\\caption{" + latexEscaper.Replace(t.Title) + "}\n")
	}
	if t.Name != "" {
		b.WriteString("\\label{tab:" + t.Name + "}\n")
	}
	b.WriteString("\\end{table}\n")
	return b.String()
}

// Save writes NAME.csv, NAME.md and NAME.tex into dir, each atomically (a
// temporary file renamed into place: nothing partial is left behind).
func (t *Table) Save(dir string) error {
	if t.Name == "" {
		return fmt.Errorf("report: table %q has no Name to save under", t.Title)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := safefile.Write(filepath.Join(dir, t.Name+".csv"), 0o644, t.WriteCSV); err != nil {
		return err
	}
	if err := safefile.WriteFile(filepath.Join(dir, t.Name+".md"), []byte(t.Markdown()), 0o644); err != nil {
		return err
	}
	return safefile.WriteFile(filepath.Join(dir, t.Name+".tex"), []byte(t.LaTeX()), 0o644)
}
