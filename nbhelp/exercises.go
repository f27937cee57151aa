package nbhelp

import (
	"fmt"
	"html"
	"strings"
)

// Exercise is one "Try it" item of a notebook: its number in the
// notebook's list and the outcome a student should find, stated as a
// finding without typed numbers. TestExercises runs each exercise's change
// on the bundled data and checks that the outcome holds, so an expected
// outcome cannot go stale while the notebook still claims it.
type Exercise struct {
	Notebook string
	N        int
	Expect   string
}

// Exercises are every notebook's "Try it" items, in notebook order.
var Exercises = []Exercise{
	{"41-render-confound", 1, "No reader's verdict changes at the render step. At the mechanism step verdicts change only from wrong to right: " +
		"the ledger's key says `status: unresolved`, and a reader that reads the status column abstains, which is the gold on a cross-source conflict."},
	{"41-render-confound", 2, "The paper's three headline comparisons all get wider intervals when questions are resampled: the five families " +
		"answer the same questions, so their rows move together and the pair bootstrap counts them as independent evidence. " +
		"(The rows the kit adds for Graphiti's own control need not: where families differ systematically within a question, " +
		"a question-level resample holds that pattern fixed.)"},
	{"41-render-confound", 3, "Neither switch moves the render term for this scripted reader: it reads render-only and graphrag-abstain alike. " +
		"`UsesStatus` alone moves the mechanism term (from exactly 0 to positive), and most when `SortsByTime` is off, " +
		"because a reader that cannot sort the dates needs the status column to settle a reverted revert."},
}

// Answers shows the expected outcome of every exercise of a notebook,
// folded so a student opens it after trying.
func Answers(notebook string) {
	out.HTML(AnswersHTML(notebook))
}

// AnswersHTML is Answers' HTML: one folded block listing each exercise's
// expected outcome.
func AnswersHTML(notebook string) string {
	var b strings.Builder
	for _, e := range Exercises {
		if e.Notebook == notebook {
			fmt.Fprintf(&b, "<li value=\"%d\">%s</li>", e.N, strings.TrimPrefix(strings.TrimSuffix(markdownToHTML(e.Expect), "</p>"), "<p>"))
		}
	}
	if b.Len() == 0 {
		return "<p>No exercises for " + html.EscapeString(notebook) + ".</p>"
	}
	return "<details><summary>Expected outcomes (open after trying; checked on the bundled data by the kit's tests)</summary><ol>" + b.String() + "</ol></details>"
}
