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

// pageLoad is one page's measurement.
type pageLoad struct {
	Prose  int `json:"prose"`
	Code   int `json:"code"`
	Height int `json:"height"`
}

// TestLabPathFitsNinetyMinutes measures every page of the lab path
// (site.LabPath, extras left out) in the static report ($ESRKIT_REPORT_DIR)
// in Chromium at 1,400 px wide, prints words and heights per page, and
// holds the path to at most labMaxWords visible words and every page to at
// most labMaxHeightPx.
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
	}
	t.Logf("the lab path at %d px (folded parts, code and figures not counted as words):\n%s\n%-20s %6d words (at most %d) for %d minutes",
		labWidth, strings.Join(rows, "\n"), "total", total, labMaxWords, minutes)
	if total > labMaxWords {
		t.Errorf("the lab path shows %d words; at most %d", total, labMaxWords)
	}
}
