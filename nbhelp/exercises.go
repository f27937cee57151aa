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

// exercises are every notebook's "Try it" items, in notebook order.
var exercises = []Exercise{
	{"00-quickstart", 1, "Now the render step turns verdicts from right to wrong: on the shuffled d-blind control some readers cannot " +
		"settle the two sources' values and abstain, which is the gold on a cross-source conflict, while the ledger's newest-first layout " +
		"lets them commit to the newest value. The mechanism step turns others from wrong to right: the fine ledger's key says " +
		"`status: unresolved`, and a reader that reads it abstains. A layout can hurt as well as help."},
	{"41-render-confound", 1, "At the render step one verdict changes, and it falls: a reader that fails to sort the shuffled d-blind " +
		"control's two dated rows sees two values and abstains (the gold on a conflict, by chance), while render-only's declared " +
		"newest-first order hands it the newer value; every other reader answers both controls alike. At the mechanism step verdicts " +
		"change only from wrong to right: the ledger's key says `status: unresolved`, and a reader that reads the key's status abstains, " +
		"which is the gold on a cross-source conflict."},
	{"41-render-confound", 2, "All three widen when questions, not pairs, are resampled: the five families' rows on a question move together, " +
		"which the pair bootstrap counts as independent evidence."},
	{"41-render-confound", 3, "Only `OnConflict: sim.ConflictFirst` makes a render term, and only with `SortsByTime` off: a reader that " +
		"takes the first row reads render-only's newest-first row as the value in force but a shuffled row on the d-blind control, so the " +
		"render term is positive (its interval excludes 0); once it sorts the dates it reads both alike, and every other setting leaves the " +
		"render term at exactly 0. `UsesStatus` makes the mechanism term: without it the term is exactly 0, and it is largest with " +
		"`SortsByTime` off and `OnConflict: sim.ConflictAbstain`, a reader that cannot sort the dates and needs the status column to " +
		"settle a reverted revert."},
	{"41-render-confound", 4, "Without Table 2's targets the per-family tables are fitted about as well as with them, and the render " +
		"term barely moves: across starting points and prior weights, with or without Table 2, it stays within a few hundredths " +
		"(the priors and stage 1's frozen curves hold it). The coarse-d term turns negative without them: on this bench Table 2's " +
		"targets are what keep it positive."},
}

func init() {
	exercises = append(exercises,
		Exercise{"02-esr", 1, "The first two atoms are deprecated, each by the atom right after it; the last atom stays live and is the snapshot answer: " +
			"a revision over time on one key, the tier that needs a deprecation marker."},
		Exercise{"02-esr", 2, "Its status is `neutral` and nothing is deprecated: all three atoms stay in M. Its read-out abstains, because 30 s and 60 s " +
			"are both live: the control is d-blind, as the render-matched protocol requires."},
		Exercise{"03-bench", 1, "The measured event recall lands within a few points of the knob: the generator drops each event independently, " +
			"so coverage follows the setting."},
		Exercise{"03-bench", 2, "Every source and stratum of Table 1 is still there, each with fewer questions than the bundled bench."},
		Exercise{"40-explorer", 1, "Neither term carries much: the render term shrinks until it is no longer distinguishable from 0 (this reader " +
			"sorts the dates the d-blind control shows too), and the mechanism term stays small with no interval that excludes 0, because " +
			"this reader rarely reads the status column that carries it."},
		Exercise{"40-explorer", 2, "The render term does not move at all: render-only and graphrag-abstain read no relation labels. The mechanism " +
			"term moves: mislabelled relations change what the ledger marks DEPRECATED."},
		Exercise{"40-explorer", 3, "Within the stratum's first questions a reader's verdict flips between render-only and fine-ledger, and the only " +
			"words marked in fine-ledger's column are status words (the key's status and the rows' LIVE / DEPRECATED): the mechanism step changes nothing else."},
		Exercise{"40-explorer", 4, "The render term dominates only where date sorting is weak: at full date skill it is exactly 0 at every " +
			"status skill for this exercise's reader, because a reader that sorts the dates reads the shuffled d-blind control as well as the ledger " +
			"(the page's default reader, which still pays a little for the control's longer render, stays near 0 there without reaching it)."},
		Exercise{"42-noise", 1, "Both arms lose accuracy as atoms go missing, by nearly the same amount, so fine − coarse barely moves: dropout " +
			"takes the same atoms from both arms, and the readers lose the current value with them."},
		Exercise{"42-noise", 2, "Only the sweep: at every level it keeps the same questions, judge and readers and corrupts both arms identically " +
			"(its n does not change with p), while the stream-length bins hold different questions with different relation mixes."},
		Exercise{"43-provenance", 1, "coarse-discard has no prior value to show, so every reader misses it; coarse-retain keeps the coarser value " +
			"in its history and every reader finds it there. fine-ledger keeps it too, yet no reader does better on it than on coarse-retain: " +
			"retention answers this question, typing adds nothing."},
		Exercise{"43-provenance", 2, "coarse-discard gains the most from the raw events: it had no earlier value to show, and a reader that reads " +
			"the appended prose finds it there. The other classes barely move, because their own renders already show what the raw events add."},
		Exercise{"44-boundary", 1, "For these readers, as in the paper, the strict decode adds the most: told to abstain on an unresolved key, " +
			"a reader reads the key's status far more often. The pair-oracle stage adds too: with gold relations the rule scorer no longer " +
			"resolves a cross-source conflict as a supersession, so the ledger keeps it unresolved. The row-oracle stage adds the least, and " +
			"almost only where the extraction lost one side of the conflict: the ledger then has no conflict to keep unresolved until the " +
			"key's status is forced to the gold's."},
		Exercise{"44-boundary", 2, "cross_source_conflict: the learned scorer loses accuracy there against the rule scorer. That stratum depends on " +
			"CONTRADICTS, and the learned scorer recovers fewer CONTRADICTS pairs than the rule scorer (its recall is lower in the per-class table)."},
		Exercise{"45-deployed", 1, "Its curve starts where `graphiti` starts at paraphrase 0 (the exact-text fast path fires whatever `dup` says) " +
			"and lies between the `graphiti` and `graphiti@dup=0` curves at every rate."},
		Exercise{"45-deployed", 2, "With no dedup window Mem0 keeps every restatement, and its default readers score higher than on `mem0-v3`, " +
			"about as high as on the d-blind control (the restored value's own dated row is back in the render), while its read-out " +
			"stays at the d-blind value (it never settles two live values)."},
		Exercise{"45-deployed", 3, "Its render-matched control `exec:PATH~render-only` is built for free (the same adapter told the mechanism is off); " +
			"it gets no content term, because the adapter protocol does not report which atoms it kept."},
		Exercise{"45-deployed", 4, "graphiti: its fast path (or its duplicate judgement) reuses the first value's closed edge, so its render shows the " +
			"superseded value as Present and the restored one closed; its content-matched baseline lacks the restored atom."},
		Exercise{"A-theory", 1, "The fine ledger's oracle abstains on the unresolved key (the gold), while coarse-retain's answers the newer value: " +
			"its binary alphabet closes the older edge on a contradiction, so β is positive."},
		Exercise{"A-theory", 2, "The floor falls: the learned scorer's labels carry more information about the gold relation than the rule scorer's."},
		Exercise{"D-external", 1, "Yes: on the 2025 snapshot coarse-discard still cannot answer provenance at all, the d-blind control answers a " +
			"few, and the classes that retain closed edges (coarse-retain, fine-ledger) answer the most."},
		Exercise{"D-debian", 1, "Yes: on monotonic snapshot questions, as on reverted reverts, every family's render term is larger on Debian " +
			"than on the synthetic bench (each family's difference excludes 0), and so is the pooled term."},
		Exercise{"E-checks", 1, "Llama keeps its one rejection; Mistral drops from three rejections to two, because its third p-value no longer " +
			"clears Holm's threshold."},
		Exercise{"E-checks", 2, "It answers: it abstains on under a quarter of the d-blind control's questions, and its abstentions fall on the " +
			"questions whose gold is ABSTAIN no more often than chance (κ near 0), so its agreement comes from answering the many " +
			"questions that have a value."},
	)
}

// answersHTML is one folded block listing the expected outcome of each of
// a notebook's exercises. The kit's notebooks carry it at the end of their
// "Try it" cell, so showing it costs no cell of its own (GoNB builds every
// code cell); TestExercisesMatchNotebooks fails when a notebook's copy
// differs from this text, and prints the text to paste.
func answersHTML(notebook string) string {
	var b strings.Builder
	for _, e := range exercises {
		if e.Notebook == notebook {
			fmt.Fprintf(&b, "<li value=\"%d\">%s</li>", e.N, strings.TrimPrefix(strings.TrimSuffix(markdownToHTML(e.Expect), "</p>"), "<p>"))
		}
	}
	if b.Len() == 0 {
		return "<p>No exercises for " + html.EscapeString(notebook) + ".</p>"
	}
	return "<details><summary>Expected outcomes (open after trying; checked on the bundled data by the kit's tests)</summary><ol>" + b.String() + "</ol></details>"
}
