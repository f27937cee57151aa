package nbhelp

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// executedDir holds the executed copies of the notebooks that make test
// writes (NBOUT, relative to the repository root) before go test runs.
func executedDir() string {
	if d := os.Getenv("ESRKIT_NBOUT"); d != "" {
		return d
	}
	return filepath.Join("..", "notebooks", "executed")
}

// page is what one executed notebook shows: each code cell's source and
// the text of its outputs, and the tables of its HTML outputs.
type page struct {
	name   string
	cells  []pageCell
	tables []pageTable
	// problems are what a check looked for and did not find on the page.
	problems []string
}

type pageCell struct {
	source string
	text   string // every output's text, tags stripped, entities unescaped
}

// pageTable is one HTML table of an output: its title (the bold line or
// the fold's summary above it), its header and its body rows, as text.
type pageTable struct {
	title  string
	header []string
	rows   [][]string
	p      *page
	source string // the source of the code cell that printed it
}

// loadPage reads notebooks/executed/NAME.ipynb; ok is false when it is
// missing.
func loadPage(dir, name string) (*page, bool, error) {
	raw, err := os.ReadFile(filepath.Join(dir, name+".ipynb"))
	if os.IsNotExist(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var nb struct {
		Cells []struct {
			Type    string          `json:"cell_type"`
			Source  json.RawMessage `json:"source"`
			Outputs []struct {
				Type string                     `json:"output_type"`
				Text json.RawMessage            `json:"text"`
				Data map[string]json.RawMessage `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(raw, &nb); err != nil {
		return nil, false, fmt.Errorf("%s: %v", name, err)
	}
	p := &page{name: name}
	for _, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		var text []string
		for _, o := range c.Outputs {
			if o.Type == "stream" {
				text = append(text, sourceText(o.Text))
			}
			for _, mime := range []string{"text/markdown", "text/plain"} {
				if d, ok := o.Data[mime]; ok {
					text = append(text, sourceText(d))
				}
			}
			if d, ok := o.Data["text/html"]; ok {
				h := sourceText(d)
				text = append(text, htmlText(h))
				for _, t := range htmlTables(h, p) {
					t.source = sourceText(c.Source)
					p.tables = append(p.tables, t)
				}
			}
		}
		p.cells = append(p.cells, pageCell{source: sourceText(c.Source), text: strings.Join(text, "\n")})
	}
	return p, true, nil
}

var (
	scriptOrStyle = regexp.MustCompile(`(?s)<(script|style)\b.*?</(script|style)>`)
	blockEnd      = regexp.MustCompile(`(?i)</(p|tr|li|h\d|div|summary|caption|table|pre)>|<br\s*/?>`)
	cellEnd       = regexp.MustCompile(`(?i)</t[dh]>`)
	anyTag        = regexp.MustCompile(`(?s)<[^>]*>`)
	tableRE       = regexp.MustCompile(`(?s)<table\b.*?</table>`)
	titleRE       = regexp.MustCompile(`(?s)(?:<b>(.*?)</b>|<summary>(.*?)</summary>)`)
	rowRE         = regexp.MustCompile(`(?s)<tr\b.*?</tr>`)
	cellRE        = regexp.MustCompile(`(?s)<(t[dh])\b[^>]*>(.*?)</t[dh]>`)
)

// htmlText is an HTML output as text: one line per block or table row,
// cells separated by " | ".
func htmlText(h string) string {
	h = scriptOrStyle.ReplaceAllString(h, "")
	h = blockEnd.ReplaceAllString(h, "\n")
	h = cellEnd.ReplaceAllString(h, " | ")
	return html.UnescapeString(anyTag.ReplaceAllString(h, ""))
}

func inlineText(h string) string {
	return strings.TrimSpace(html.UnescapeString(anyTag.ReplaceAllString(h, "")))
}

// htmlTables are the tables of an HTML output, each titled by the last
// bold line or fold summary between it and the table before.
func htmlTables(h string, p *page) []pageTable {
	var out []pageTable
	prev := 0
	for _, loc := range tableRE.FindAllStringIndex(h, -1) {
		t := pageTable{p: p}
		for _, m := range titleRE.FindAllStringSubmatch(h[prev:loc[0]], -1) {
			t.title = inlineText(m[1] + m[2])
		}
		for _, r := range rowRE.FindAllString(h[loc[0]:loc[1]], -1) {
			var cells []string
			header := false
			for _, c := range cellRE.FindAllStringSubmatch(r, -1) {
				header = header || c[1] == "th"
				cells = append(cells, inlineText(c[2]))
			}
			if header && t.header == nil && len(t.rows) == 0 {
				t.header = cells
			} else {
				t.rows = append(t.rows, cells)
			}
		}
		out = append(out, t)
		prev = loc[1]
	}
	return out
}

// missing records something a check looked for on the page and did not
// find; the test fails on it.
func (p *page) missing(format string, args ...any) {
	p.problems = append(p.problems, fmt.Sprintf(format, args...))
}

// table is the first table whose title contains title.
func (p *page) table(title string) *pageTable {
	for i := range p.tables {
		if strings.Contains(p.tables[i].title, title) {
			return &p.tables[i]
		}
	}
	p.missing("no table titled %q", title)
	return &pageTable{p: p, title: title}
}

// tableFrom is the first table titled title that a code cell whose
// source contains src printed.
func (p *page) tableFrom(src, title string) *pageTable {
	for i := range p.tables {
		if strings.Contains(p.tables[i].source, src) && strings.Contains(p.tables[i].title, title) {
			return &p.tables[i]
		}
	}
	p.missing("no table titled %q printed by a cell containing %q", title, src)
	return &pageTable{p: p, title: title}
}

// tableWithHeader is the first table whose first header cell is h.
func (p *page) tableWithHeader(h string) *pageTable {
	for i := range p.tables {
		if len(p.tables[i].header) > 0 && p.tables[i].header[0] == h {
			return &p.tables[i]
		}
	}
	p.missing("no table with a column %q first", h)
	return &pageTable{p: p, title: h}
}

// cell is the text of the outputs of the first code cell whose source
// contains each of src.
func (p *page) cell(src ...string) string {
	for _, c := range p.cells {
		all := true
		for _, s := range src {
			all = all && strings.Contains(c.source, s)
		}
		if all {
			return c.text
		}
	}
	p.missing("no code cell containing %q", src)
	return ""
}

// text is every output of the page.
func (p *page) text() string {
	var b strings.Builder
	for _, c := range p.cells {
		b.WriteString(c.text)
		b.WriteByte('\n')
	}
	return b.String()
}

// match is the submatches of re in s, recorded as missing when none.
func (p *page) match(re *regexp.Regexp, s string) []string {
	m := re.FindStringSubmatch(s)
	if m == nil {
		p.missing("no text matching %q", re)
		return make([]string, re.NumSubexp()+1)
	}
	return m
}

// col is the index of the first header cell that equals name, or else
// starts with it.
func (t *pageTable) col(name string) int {
	for i, h := range t.header {
		if h == name {
			return i
		}
	}
	for i, h := range t.header {
		if strings.HasPrefix(h, name) {
			return i
		}
	}
	t.p.missing("table %q: no column %q (header %q)", t.title, name, t.header)
	return -1
}

// row is the first row whose first cell equals key, or else starts
// with it.
func (t *pageTable) row(key string) []string {
	for _, r := range t.rows {
		if len(r) > 0 && r[0] == key {
			return r
		}
	}
	for _, r := range t.rows {
		if len(r) > 0 && strings.HasPrefix(r[0], key) {
			return r
		}
	}
	t.p.missing("table %q: no row %q", t.title, key)
	return nil
}

// cell is the text in row key, column name.
func (t *pageTable) cell(key, name string) string {
	r, c := t.row(key), t.col(name)
	if r == nil || c < 0 || c >= len(r) {
		return ""
	}
	return r[c]
}

// num is the number in row key, column name.
func (t *pageTable) num(key, name string) float64 {
	return t.p.number(t.cell(key, name), fmt.Sprintf("table %q, row %q, column %q", t.title, key, name))
}

// interval is the interval "[lo, hi]" in row key, column name.
func (t *pageTable) interval(key, name string) (lo, hi float64) {
	return t.p.interval(t.cell(key, name), fmt.Sprintf("table %q, row %q, column %q", t.title, key, name))
}

// column is the numbers of a column, row by row.
func (t *pageTable) column(name string) []float64 {
	c := t.col(name)
	var out []float64
	for _, r := range t.rows {
		if c >= 0 && c < len(r) {
			out = append(out, t.p.number(r[c], fmt.Sprintf("table %q, column %q", t.title, name)))
		}
	}
	return out
}

var (
	numberRE   = regexp.MustCompile(`[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?`)
	intervalRE = regexp.MustCompile(`\[\s*([-+]?[\d.]+)\s*,\s*([-+]?[\d.]+)\s*\]`)
)

// number reads the first number in s (a printed minus sign counts).
func (p *page) number(s, where string) float64 {
	m := numberRE.FindString(strings.ReplaceAll(s, "−", "-"))
	v, err := strconv.ParseFloat(m, 64)
	if err != nil {
		p.missing("%s: no number in %q", where, s)
		return math.NaN()
	}
	return v
}

// interval reads the first "[lo, hi]" in s.
func (p *page) interval(s, where string) (lo, hi float64) {
	m := intervalRE.FindStringSubmatch(strings.ReplaceAll(s, "−", "-"))
	if m == nil {
		p.missing("%s: no interval in %q", where, s)
		return math.NaN(), math.NaN()
	}
	lo, _ = strconv.ParseFloat(m[1], 64)
	hi, _ = strconv.ParseFloat(m[2], 64)
	return lo, hi
}

// TestPageReaderReadsTables: the reader finds a titled table, its columns,
// rows, numbers and intervals, in plain and folded HTML, with entities
// unescaped.
func TestPageReaderReadsTables(t *testing.T) {
	p := &page{name: "t"}
	h := `<p><b>Table 2: a &amp; b</b></p><table><thead><tr><th>term</th><th>Δ</th><th>95% CI</th></tr></thead>` +
		`<tbody><tr><td>render</td><td>+0.189</td><td>[+0.128, +0.250]</td></tr><tr><td>fine &lt;d&gt;</td><td>−0.006</td><td>[-0.050, +0.050]</td></tr></tbody></table>` +
		`<details><summary>Folded (2 rows; click to open)</summary><table><tr><th>x</th></tr><tr><td>1</td></tr></table></details>`
	p.tables = htmlTables(h, p)
	tb := p.table("a & b")
	if d := tb.num("render", "Δ"); d != 0.189 {
		t.Errorf("render Δ %v", d)
	}
	if d := tb.num("fine <d>", "Δ"); d != -0.006 {
		t.Errorf("fine Δ %v", d)
	}
	if lo, hi := tb.interval("fine", "95% CI"); lo != -0.05 || hi != 0.05 {
		t.Errorf("interval %v %v", lo, hi)
	}
	if c := p.table("Folded").column("x"); len(c) != 1 || c[0] != 1 {
		t.Errorf("folded column %v", c)
	}
	if txt := htmlText(h); !strings.Contains(txt, "render | +0.189 | [+0.128, +0.250] | ") {
		t.Errorf("text %q", txt)
	}
	if len(p.problems) != 0 {
		t.Errorf("problems %v", p.problems)
	}
	p.table("absent")
	if len(p.problems) != 1 {
		t.Errorf("a missing table is not recorded: %v", p.problems)
	}
}
