package site

import (
	"html"
	"sort"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/runlog"
)

// LogComparePage is a comparison of two logs of other frameworks
// (runlog.Compare) as a self-contained page: ComparePage's head, script and
// filters over the same data-* attributes (the scorer where a run's page
// has the stratum, the task where it has the reader family, the scores
// where it has the labels), so esr report copies and sanitizes it as it
// does a run's page. Each flip opens onto its sample's whole input, target,
// answers and explanations (the table clips them). Every string from the
// logs is escaped where it enters the page.
func LogComparePage(c *runlog.Comparison) []byte {
	tables := c.Tables()
	var b strings.Builder
	b.WriteString(compareHead("esr compare: "+c.B.Path+" against "+c.A.Path) + `<body>`)
	b.WriteString(`<h1>` + html.EscapeString(tables[0].Title) + `</h1><ul class="runs">`)
	for _, s := range []struct {
		tag  string
		side runlog.Side
	}{{"A", c.A}, {"B", c.B}} {
		b.WriteString(`<li><b>` + s.tag + `</b>: ` + html.EscapeString(s.side.Path) + ` (` + html.EscapeString(string(s.side.Format)) + ` log; ` +
			strconv.Itoa(s.side.Samples) + ` samples; models ` + html.EscapeString(strings.Join(s.side.Models, ", ")) +
			`; scorers ` + html.EscapeString(strings.Join(s.side.Scorers, ", ")) + `)</li>`)
	}
	b.WriteString(`</ul>`)
	scorers, tasks, scores := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, d := range c.Diffs {
		scorers[d.Scorer], tasks[d.Task] = true, true
	}
	for _, f := range c.Flips {
		scores[cellScore(f.ScoreA)], scores[cellScore(f.ScoreB)] = true, true
	}
	b.WriteString(`<div class="filters" id="filters">`)
	sel := func(id, label, any string, values map[string]bool) {
		delete(values, "")
		keys := make([]string, 0, len(values))
		for k := range values {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString(`<label>` + label + ` <select id="` + id + `"><option value="">` + any + `</option>`)
		for _, k := range keys {
			b.WriteString(`<option` + attr("value", k) + `>` + html.EscapeString(k) + `</option>`)
		}
		b.WriteString(`</select></label> `)
	}
	sel("f-stratum", "scorer", "every scorer", scorers)
	sel("f-family", "task", "every task", tasks)
	sel("f-direction", "flip direction", "both", map[string]bool{string(eval.Gained): true, string(eval.Lost): true})
	sel("f-label", "score (either log)", "every score", scores)
	b.WriteString(`</div><p class="hint">Scorer and task filter both tables (a difference over every task is shown only when no task is chosen); direction and score filter the flips.</p>`)

	b.WriteString(`<h2>Differences</h2><p class="shown" id="diffs-shown"></p>`)
	writeTable(&b, tables[0], "diffs", nil, func(i int) string {
		d := c.Diffs[i]
		return attr("data-stratum", d.Scorer) + attr("data-family", d.Task)
	}, nil)
	writeNotes(&b, tables[0].Notes)

	b.WriteString(`<h2>Flips</h2><p>` + html.EscapeString(tables[1].Title) + `. Open a flip to see the sample's whole input, target, answers and explanations.</p><p class="shown" id="flips-shown"></p>`)
	writeTable(&b, tables[1], "flips", []string{"sample"}, func(i int) string {
		f := c.Flips[i]
		return ` class="flip"` + attr("data-stratum", f.Scorer) + attr("data-family", f.Task) + attr("data-direction", string(f.Direction)) +
			attr("data-label-a", cellScore(f.ScoreA)) + attr("data-label-b", cellScore(f.ScoreB))
	}, func(i int, cols int) string {
		f := c.Flips[i]
		var d strings.Builder
		for _, part := range []struct{ name, text string }{{"input", f.Input}, {"target", f.Target}, {"answer A", f.AnswerA}, {"answer B", f.AnswerB},
			{"explanation A", f.ExplainA}, {"explanation B", f.ExplainB}} {
			if part.text != "" {
				d.WriteString(`<p><b>` + part.name + `</b></p><div class="whole">` + html.EscapeString(part.text) + `</div>`)
			}
		}
		return `<td><button type="button" class="toggle" aria-expanded="false">show</button></td></tr><tr class="renders" hidden><td colspan="` +
			strconv.Itoa(cols) + `"><p><b>` + html.EscapeString(f.Sample) + `</b> (` + html.EscapeString(f.Scorer) + `: ` +
			html.EscapeString(cellScore(f.ScoreA)) + ` in A, ` + html.EscapeString(cellScore(f.ScoreB)) + ` in B)</p>` + d.String() + `</td>`
	})
	for _, t := range tables[2:] {
		b.WriteString(`<h2>` + html.EscapeString(t.Title) + `</h2>`)
		writeTable(&b, t, string(t.ID), nil, nil, nil)
		writeNotes(&b, t.Notes)
	}
	b.WriteString("</body></html>\n")
	return []byte(b.String())
}

// cellScore is a score as the flips table shows it.
func cellScore(x float64) string {
	if x == float64(int64(x)) {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}
