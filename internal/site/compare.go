package site

import (
	"bytes"
	"html"
	"sort"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/textdiff"
)

// The comparison page (esr compare --html): one self-contained page with
// the tables of eval.RunComparison.Tables, filters over the differences and
// the flips, and each flip's two renders side by side. Every data string is
// escaped where it enters the page; the page's one script, in its head,
// reads data only from escaped data-* attributes and sets only hidden flags
// and counts, so no text from a run can become markup or script.

// compareMark is in the head of every comparison page: esr compare
// replaces, and esr report copies, only pages that carry it.
const compareMark = `<meta name="generator" content="esr compare">`

// IsComparePage reports whether head (a file's first bytes) starts a page
// ComparePage wrote.
func IsComparePage(head []byte) bool {
	return bytes.HasPrefix(head, []byte(`<!DOCTYPE html><html><head><meta charset="utf-8">`+compareMark))
}

// compareHead is every comparison page up to its body: the mark, title
// (escaped here), the style and the page's one script. esr report writes
// it anew over a page it copies (SanitizeComparePage).
func compareHead(title string) string {
	return `<!DOCTYPE html><html><head><meta charset="utf-8">` + compareMark + `<title>` + html.EscapeString(title) +
		`</title><style>` + compareCSS + `</style><script>` + compareJS + `</script></head>`
}

// ComparePage is rc as a self-contained HTML page.
func ComparePage(rc *eval.RunComparison) []byte {
	tables := rc.Tables()
	var b strings.Builder
	b.WriteString(compareHead("esr compare: "+rc.B.Name+" against "+rc.A.Name) + `<body>`)
	b.WriteString(`<h1>` + html.EscapeString(tables[0].Title) + `</h1>`)
	b.WriteString(`<ul class="runs">`)
	for _, s := range []struct {
		tag  string
		side eval.RunSide
	}{{"A", rc.A}, {"B", rc.B}} {
		b.WriteString(`<li><b>` + s.tag + `</b>: ` + html.EscapeString(s.side.Name) + ` (` + strconv.Itoa(s.side.Rows) + ` rows; memories ` +
			html.EscapeString(joinStrings(s.side.Memories)) + `; readers ` + html.EscapeString(joinStrings(s.side.Readers)) +
			`; judges ` + html.EscapeString(strings.Join(s.side.Judges, ", ")) + `)</li>`)
	}
	b.WriteString(`</ul>`)
	writeFilters(&b, rc)

	b.WriteString(`<h2>Differences</h2><p class="shown" id="diffs-shown"></p>`)
	writeTable(&b, tables[0], "diffs", nil, func(i int) string {
		d := rc.Diffs[i]
		return attr("data-stratum", string(d.Stratum)) + attr("data-family", d.Family.String())
	}, nil)
	writeNotes(&b, tables[0].Notes)

	b.WriteString(`<h2>Flips</h2><p>` + html.EscapeString(tables[1].Title) + `. Open a flip to see the question's two renders side by side, B's lines that are not in A's marked.</p><p class="shown" id="flips-shown"></p>`)
	// The renders of a question are the same for every reader that
	// flipped on it: each pair of renders is written once, in a template
	// the page copies into a flip's row when it is opened.
	renderIDs := map[[4]string]string{}
	var renders []string
	writeTable(&b, tables[1], "flips", []string{"renders"}, func(i int) string {
		f := rc.Flips[i]
		return ` class="flip"` + attr("data-stratum", string(f.Stratum)) + attr("data-family", f.Family.String()) +
			attr("data-direction", string(f.Direction)) + attr("data-label-a", string(f.LabelA)) + attr("data-label-b", string(f.LabelB))
	}, func(i int, cols int) string {
		f := rc.Flips[i]
		button := `<td><button type="button" class="toggle" aria-expanded="false">show</button></td>`
		var detail string
		if f.RenderA == "" && f.RenderB == "" {
			detail = `<p>No renders: the comparison was made without the benchmark (esr compare --data), or both sides are the same memory's render.</p>`
		} else {
			key := [4]string{f.Pair.A.String(), f.Pair.B.String(), f.RenderA, f.RenderB}
			id, ok := renderIDs[key]
			if !ok {
				id = "r" + strconv.Itoa(len(renders))
				renderIDs[key] = id
				renders = append(renders, `<template id="`+id+`">`+textdiff.ColumnsHTML([]string{"A: " + key[0], "B: " + key[1]}, []string{f.RenderA, f.RenderB}, true)+`</template>`)
			}
			detail = `<div class="slot" data-renders="` + id + `"></div>`
		}
		return button + `</tr><tr class="renders" hidden><td colspan="` + strconv.Itoa(cols) + `"><p><b>` + html.EscapeString(f.QID) +
			`</b> ` + html.EscapeString(f.Question) + ` (` + html.EscapeString(f.Reader.String()) + `: gold ` + html.EscapeString(f.Gold) + `; A answered ` + html.EscapeString(f.AnswerA) +
			`, B answered ` + html.EscapeString(f.AnswerB) + `)</p>` + detail + `</td>`
	})
	for _, t := range tables[2:] {
		b.WriteString(`<h2>` + html.EscapeString(t.Title) + `</h2>`)
		writeTable(&b, t, string(t.ID), nil, nil, nil)
		writeNotes(&b, t.Notes)
	}
	b.WriteString(strings.Join(renders, ""))
	b.WriteString("</body></html>\n")
	return []byte(b.String())
}

// attr is ` name="value"` with value escaped.
func attr(name, value string) string { return ` ` + name + `="` + html.EscapeString(value) + `"` }

func joinStrings[S ~[]E, E interface{ String() string }](xs S) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = x.String()
	}
	return strings.Join(parts, ", ")
}

// writeTable writes t as a table with id; rowAttrs gives row i's
// attributes and after what ends it (cells, or cells and a following row),
// both already escaped.
func writeTable(b *strings.Builder, t *eval.Table, id string, extra []string, rowAttrs func(int) string, after func(i, cols int) string) {
	b.WriteString(`<div class="scroll"><table id="` + id + `"><thead><tr>`)
	for _, c := range append(append([]string{}, t.Columns...), extra...) {
		b.WriteString(`<th>` + html.EscapeString(c) + `</th>`)
	}
	b.WriteString(`</tr></thead><tbody>`)
	for i, r := range t.Rows {
		b.WriteString(`<tr`)
		if rowAttrs != nil {
			b.WriteString(rowAttrs(i))
		}
		b.WriteString(`>`)
		for _, c := range r {
			if c.Kind.Numeric() {
				b.WriteString(`<td class="num">` + html.EscapeString(c.Text) + `</td>`)
			} else {
				// A long cell (a reader's reasoning, the render lines
				// changed) scrolls inside its box instead of making its row
				// a screen tall.
				b.WriteString(`<td><div class="c">` + html.EscapeString(c.Text) + `</div></td>`)
			}
		}
		if after != nil {
			b.WriteString(after(i, len(t.Columns)+len(extra)))
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table></div>`)
}

func writeNotes(b *strings.Builder, notes []string) {
	if len(notes) == 0 {
		return
	}
	b.WriteString(`<ul class="notes">`)
	for _, n := range notes {
		b.WriteString(`<li>` + html.EscapeString(n) + `</li>`)
	}
	b.WriteString(`</ul>`)
}

// writeFilters writes the filters' selects, each listing the values the
// comparison holds.
func writeFilters(b *strings.Builder, rc *eval.RunComparison) {
	strata, families, labels := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, d := range rc.Diffs {
		strata[string(d.Stratum)], families[d.Family.String()] = true, true
	}
	for _, f := range rc.Flips {
		strata[string(f.Stratum)], families[f.Family.String()] = true, true
		labels[string(f.LabelA)], labels[string(f.LabelB)] = true, true
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
	sel("f-stratum", "stratum", "every stratum", strata)
	sel("f-family", "reader family", "every family", families)
	sel("f-direction", "flip direction", "both", map[string]bool{string(eval.Gained): true, string(eval.Lost): true})
	sel("f-label", "label (either run)", "every label", labels)
	b.WriteString(`</div><p class="hint">Stratum and family filter both tables (a difference over every stratum, or over the pooled readers, is shown only when no stratum, or no family, is chosen); direction and label filter the flips.</p>`)
}

const compareCSS = `body{font-family:sans-serif;margin:2em;max-width:1400px}
table{border-collapse:collapse;font-size:13px;margin:6px 0}th,td{border:1px solid #ccc;padding:3px 6px;vertical-align:top;text-align:left}
th{background:#f3f3f3}td{white-space:pre-wrap}td.num{text-align:right}.scroll{overflow-x:auto}
td>div.c{max-height:6em;max-width:24em;overflow:auto}
.notes,.hint,.shown{font-size:smaller;color:#555}.filters label{margin-right:1em}
tr[data-direction="gained"] td:nth-last-child(2){background:#d9f0d3}tr[data-direction="lost"] td:nth-last-child(2){background:#f4cccc}
tr.renders>td{background:#fafafa}`

// compareJS filters the rows by their data-* attributes and opens a
// flip's renders (a copy of the template the page holds for them); it
// never reads or writes markup.
const compareJS = `document.addEventListener("DOMContentLoaded", function () {
  function val(id) { return document.getElementById(id).value; }
  function apply() {
    var s = val("f-stratum"), f = val("f-family"), d = val("f-direction"), l = val("f-label");
    var shown = 0, rows = document.querySelectorAll("#diffs tbody tr");
    rows.forEach(function (r) {
      var ok = (!s || r.dataset.stratum === s) && (!f || r.dataset.family === f);
      r.hidden = !ok; if (ok) shown++;
    });
    document.getElementById("diffs-shown").textContent = "showing " + shown + " of " + rows.length + " differences";
    shown = 0; rows = document.querySelectorAll("#flips tbody tr.flip");
    rows.forEach(function (r) {
      var ok = (!s || r.dataset.stratum === s) && (!f || r.dataset.family === f) && (!d || r.dataset.direction === d) &&
        (!l || r.dataset.labelA === l || r.dataset.labelB === l);
      r.hidden = !ok; if (ok) shown++;
      var next = r.nextElementSibling;
      next.hidden = !ok || r.querySelector("button.toggle").getAttribute("aria-expanded") !== "true";
    });
    document.getElementById("flips-shown").textContent = "showing " + shown + " of " + rows.length + " flips";
  }
  ["f-stratum", "f-family", "f-direction", "f-label"].forEach(function (id) {
    document.getElementById(id).addEventListener("change", apply);
  });
  document.querySelectorAll("#flips button.toggle").forEach(function (btn) {
    btn.addEventListener("click", function () {
      var open = btn.getAttribute("aria-expanded") !== "true";
      btn.setAttribute("aria-expanded", open ? "true" : "false");
      btn.textContent = open ? "hide" : "show";
      var detail = btn.closest("tr").nextElementSibling, slot = detail.querySelector(".slot");
      if (open && slot && !slot.firstChild) {
        slot.appendChild(document.getElementById(slot.dataset.renders).content.cloneNode(true));
      }
      detail.hidden = !open;
    });
  });
  apply();
});`
