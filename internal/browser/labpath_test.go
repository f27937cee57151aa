package browser

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/internal/site"
)

// The lab path's reading load, as a student sees it at 1,400 px: the words
// a page shows (prose, table cells and output text; folded <details>
// bodies, code and figures left out, since none of them is read as prose),
// the words of its code cells (shown, not read), and the page's height.
const (
	labWidth       = 1400
	labMaxWords    = 9000  // the whole path: about half a 90-minute lab at ~200 words a minute
	labMaxHeightPx = 12000 // any one page
)

// visibleWordsJS counts the words of the rendered text nodes of the page:
// a text node counts when a Range over it has client rectangles (so text
// in a closed <details>, in display:none or in <script>/<style> does not),
// and not inside an inline <svg> (a figure's labels). A word is a run of
// non-space characters with a letter or a digit. Text inside a code cell's
// input area counts apart.
const visibleWordsJS = `(() => {
	const codeSel = ".jp-CodeCell .jp-InputArea, .code_cell .input_area";
	const word = /[\p{L}\p{N}]/u;
	let prose = 0, code = 0;
	const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	const range = document.createRange();
	// Inside a closed <details>, only its own <summary> shows (Chromium
	// keeps layout boxes for the hidden part, so rectangles alone do not
	// tell).
	const folded = el => {
		for (let e = el; e; e = e.parentElement) {
			if (e.tagName === "DETAILS" && !e.open) {
				let s = el;
				while (s && s.parentElement !== e) s = s.parentElement;
				if (!s || s.tagName !== "SUMMARY") return true;
			}
		}
		return false;
	};
	for (let n = walker.nextNode(); n; n = walker.nextNode()) {
		const el = n.parentElement;
		if (!el || el.closest("svg, script, style, noscript, template") || folded(el)) continue;
		const words = n.textContent.split(/\s+/).filter(w => word.test(w)).length;
		if (words === 0) continue;
		range.selectNodeContents(n);
		const rects = range.getClientRects();
		let shown = false;
		for (const r of rects) { if (r.width > 0 && r.height > 0) { shown = true; break; } }
		if (!shown) continue;
		if (el.closest(codeSel)) code += words; else prose += words;
	}
	return {prose, code, height: Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)};
})()`

// overflowJS measures, with every folded part opened (a student may open
// any), how far the page and each cell's output reach sideways: the page's
// width against its window's, and each output area (nbconvert's lab or
// classic template) whose content is wider than the area, so that the area
// itself scrolls, prose and all. Something wide passes when it scrolls in
// a box of its own inside the output (a render's box, a table's scroll
// box), which the output area's own width does not count. Folds are closed
// again after.
const overflowJS = `(() => {
	const shut = [...document.querySelectorAll("details:not([open])")];
	for (const d of shut) d.open = true;
	const cells = [...document.querySelectorAll(".jp-Cell, .cell")];
	const over = [];
	for (const el of document.querySelectorAll(".jp-OutputArea, .output_area")) {
		if (el.scrollWidth > el.clientWidth + 1) {
			const cell = el.closest(".jp-Cell, .cell");
			const src = cell ? (cell.querySelector(".jp-InputArea, .input_area") || cell).innerText : "";
			over.push({cell: cells.indexOf(cell), width: el.scrollWidth, area: el.clientWidth, source: src.replace(/\s+/g, " ").slice(0, 100)});
		}
	}
	const page = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
	for (const d of shut) d.open = false;
	return {window: document.documentElement.clientWidth, page, over};
})()`

// pageOverflow is overflowJS's measurement.
type pageOverflow struct {
	Window int `json:"window"`
	Page   int `json:"page"`
	Over   []struct {
		Cell   int    `json:"cell"`
		Width  int    `json:"width"`
		Area   int    `json:"area"`
		Source string `json:"source"`
	} `json:"over"`
}

// pageLoad is one page's measurement.
type pageLoad struct {
	Prose  int `json:"prose"`
	Code   int `json:"code"`
	Height int `json:"height"`
}

// TestLabPathFitsNinetyMinutes measures every page of the lab path
// (site.LabPath, extras left out) in the static report ($ESRKIT_REPORT_DIR)
// in Chromium at 1,400 px wide, prints words and heights per page, and
// holds the path to at most labMaxWords visible words, every page to at
// most labMaxHeightPx, and every page to its window's width: with its
// folded parts open, neither the page nor any cell's output is wider than
// the window lets it be (overflowJS).
func TestLabPathFitsNinetyMinutes(t *testing.T) {
	RequireChromium(t)
	dir := ReportDir()
	if dir == "" {
		if Strict() {
			t.Fatalf("%s is not set: make test builds the report before the browser tests", ReportDirEnv)
		}
		t.Skipf("%s is not set", ReportDirEnv)
	}
	b := NewT(t, context.Background())
	if err := b.SetViewport(labWidth, 1000); err != nil {
		t.Fatal(err)
	}
	var rows []string
	total, minutes := 0, 0
	for _, st := range site.LabPath {
		if st.Extra {
			continue
		}
		path := filepath.Join(dir, st.Notebook+".html")
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%s: no report page (%v)", st.Notebook, err)
			continue
		}
		u, err := FileURL(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Navigate(u); err != nil {
			t.Fatal(err)
		}
		l, err := Eval[pageLoad](b, visibleWordsJS)
		if err != nil {
			t.Fatal(err)
		}
		total += l.Prose
		minutes += st.Minutes
		rows = append(rows, fmt.Sprintf("%-20s %6d words %6d code words %7d px", st.Notebook, l.Prose, l.Code, l.Height))
		if l.Height > labMaxHeightPx {
			t.Errorf("%s is %d px tall at %d px wide; at most %d", st.Notebook, l.Height, labWidth, labMaxHeightPx)
		}
		if l.Prose == 0 {
			t.Errorf("%s shows no words: the measurement found no rendered text", st.Notebook)
		}
		w, err := Eval[pageOverflow](b, overflowJS)
		if err != nil {
			t.Fatal(err)
		}
		if w.Page > w.Window {
			t.Errorf("%s is %d px wide in a %d px window", st.Notebook, w.Page, w.Window)
		}
		for _, o := range w.Over {
			t.Errorf("%s: cell %d's output is %d px wide in its %d px area, so the whole output scrolls sideways (prose too); a wide part should scroll in a box of its own: %s",
				st.Notebook, o.Cell, o.Width, o.Area, o.Source)
		}
	}
	t.Logf("the lab path at %d px (folded parts, code and figures not counted as words):\n%s\n%-20s %6d words (at most %d) for %d minutes",
		labWidth, strings.Join(rows, "\n"), "total", total, labMaxWords, minutes)
	if total > labMaxWords {
		t.Errorf("the lab path shows %d words; at most %d", total, labMaxWords)
	}
}
