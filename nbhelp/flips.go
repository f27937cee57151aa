package nbhelp

import (
	"strings"

	"github.com/esrkit/esrkit/esr/lab"
)

// Flips shows, as a Markdown list, every reader whose verdict changes
// between memories i and j of w (on the staircase, 0 → 1 is the render
// step) and what the reader says decided each answer (lab.FlipSentence),
// or says that no reader's verdict changes there. Answers and decisions
// come from data and are shown as text, never markup.
func Flips(w *lab.WorkedQuestion, i, j int) {
	Markdown(flipsMarkdown(w, i, j))
}

func flipsMarkdown(w *lab.WorkedQuestion, i, j int) string {
	fs := w.Flips(i, j)
	if len(fs) == 0 {
		return "No reader's verdict changes between " + MarkdownText(w.Memories[i].String()) + " and " + MarkdownText(w.Memories[j].String()) + " on this question."
	}
	var b strings.Builder
	b.WriteString("Why each verdict changes between " + MarkdownText(w.Memories[i].String()) + " and " + MarkdownText(w.Memories[j].String()) + ", as each reader reports what decided its answer:\n\n")
	for _, f := range fs {
		b.WriteString("- " + MarkdownText(lab.FlipSentence(f)) + "\n")
	}
	return b.String()
}
