package site

import (
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
)

// LabStep is one stop of the suggested lab path: a notebook, the minutes
// it takes in class and what to look at.
type LabStep struct {
	Notebook string
	// Minutes is used when the notebook's first Markdown cell states none
	// (Card.Minutes): today only 41-render-confound states its own ("about
	// 25 minutes"), so this table holds the others.
	Minutes int
	Focus   string
	Extra   bool // after the path, outside its total: for a second session or homework
}

// LabPath is the suggested 90-minute lab through the notebooks, in order:
// the two terms on one question, the paper's decomposition, the reader
// skills behind it, then retention, deployed systems and judges; then
// D-debian as an extra.
var LabPath = []LabStep{
	{Notebook: "00-quickstart", Minutes: 10, Focus: "start here: the render term and the mechanism term on one reverted revert, step by step"},
	{Notebook: "41-render-confound", Minutes: 25, Focus: "Table 2: is the reverted-revert gain render or mechanism, for these readers and in the paper?"},
	{Notebook: "40-explorer", Minutes: 20, Focus: "move one reader skill at a time and watch which term moves; the phase diagram"},
	{Notebook: "43-provenance", Minutes: 10, Focus: "provenance: is retention or typing what recovers the prior value?"},
	{Notebook: "45-deployed", Minutes: 15, Focus: "Graphiti and Mem0 under the same protocol: content, render and mechanism, with their assumptions"},
	{Notebook: "E-checks", Minutes: 10, Focus: "how much the judge and the abstain wording move the numbers"},
	{Notebook: "D-debian", Minutes: 15, Focus: "the same protocol on real revision histories (Debian changelogs)", Extra: true},
}

// How a page states its own length: "about 25 minutes" (41's reading path),
// or a bracketed or approximate "(25 min)", "~25 minutes", "≈ 25-minute".
var (
	aboutMinutes = regexp.MustCompile(`(?i)\babout\s+(\d{1,3})[\s-]*min(?:ute)?s?\b`)
	anyMinutes   = regexp.MustCompile(`(?i)(?:\(|~|≈)\s*(\d{1,3})[\s-]*min(?:ute)?s?\b`)
)

// statedMinutes is the minutes a notebook's first Markdown cell states
// for itself ("about N minutes" first, else "(N min)", "~N minutes"), or 0.
func statedMinutes(md string) int {
	m := aboutMinutes.FindStringSubmatch(md)
	if m == nil {
		m = anyMinutes.FindStringSubmatch(md)
	}
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// labStop is a step of the path whose notebook has a page in the report.
type labStop struct {
	LabStep
	Name, Title string // the card's
	Stated      bool   // Minutes came from the page itself
}

// labStops are the steps of LabPath among cards, in path order, each with
// the minutes its page states, else the table's.
func labStops(cards []Card) []labStop {
	have := map[string]Card{}
	for _, c := range cards {
		have[c.Name] = c
	}
	var stops []labStop
	for _, st := range LabPath {
		c, ok := have[st.Notebook]
		if !ok {
			continue
		}
		s := labStop{LabStep: st, Name: c.Name, Title: c.Title}
		if c.Minutes > 0 {
			s.Minutes, s.Stated = c.Minutes, true
		}
		stops = append(stops, s)
	}
	return stops
}

// writeLabPath writes the lab path (id "lab-path"), linking each step
// whose notebook is among the cards, with its minutes and where they come from.
func writeLabPath(b *strings.Builder, cards []Card) {
	stops := labStops(cards)
	total := 0
	for _, st := range stops {
		if !st.Extra {
			total += st.Minutes
		}
	}
	fmt.Fprintf(b, `<h2 id="lab-path">A %d-minute lab</h2><p>Follow the pages in this order; each page has previous and next links along it.</p><ol class="lab-path">`, total)
	extra := false
	for _, st := range stops {
		if st.Extra && !extra {
			extra = true
			b.WriteString(`</ol><p>Then, as an extra (not in the total):</p><ol class="lab-path-extra">`)
		}
		src := "as the report's lab table estimates"
		if st.Stated {
			src = "as the page states"
		}
		fmt.Fprintf(b, `<li><a href="%s.html">%s</a> (<span class="minutes">%d min</span>, %s): %s</li>`,
			html.EscapeString(st.Name), html.EscapeString(st.Title), st.Minutes, src, html.EscapeString(st.Focus))
	}
	b.WriteString("</ol>")
}
