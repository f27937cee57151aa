package nbhelp

import (
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
)

// flipsShown caps the flips a notebook prints: a change of memory can flip
// hundreds of pairs, and the comparison Compare returns holds them all.
const flipsShown = 20

// Compare sets run b beside run a (eval.CompareRuns under opt) and shows
// the comparison's tables as esr compare prints them (the same builder,
// RunComparison.Tables), every cell Markdown-escaped; the flips table
// shows its first flips and says how many more there are. It returns the
// comparison for a closer look (its Flips, their renders).
func Compare(a, b *eval.StoredRun, opt eval.RunCompareOptions) *eval.RunComparison {
	rc := Must(eval.CompareRuns(Ctx, a, b, opt))
	Markdown(compareMarkdown(rc))
	return rc
}

// compareMarkdown is rc's tables as Markdown, the flips cut to flipsShown.
func compareMarkdown(rc *eval.RunComparison) string {
	var parts []string
	for _, t := range rc.Tables() {
		if len(t.Rows) == 0 && t.ID != eval.RunDifferences {
			continue
		}
		if t.ID == eval.RunFlips && len(t.Rows) > flipsShown {
			cut := *t
			cut.Rows = t.Rows[:flipsShown]
			cut.Notes = append([]string{"the first " + strconv.Itoa(flipsShown) + " of " + strconv.Itoa(len(t.Rows)) +
				" flips; the comparison Compare returns holds all (its Flips)"}, t.Notes...)
			t = &cut
		}
		parts = append(parts, t.LiteralMarkdown())
	}
	return strings.Join(parts, "\n")
}
