package reader

import (
	"context"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/memory"
)

// Input is one item for a reader.
type Input struct {
	QID       string
	Question  string
	QueryType esr.QueryType
	// Context is the memory's render for this question.
	Context string
	// MayAbstain is false when the memory class tells its reader to always
	// give a value (graphrag-lite).
	MayAbstain bool
	// Memory is the memory the context was rendered by.
	Memory memory.Spec
	// State and Query let the oracle read the structured state; text readers
	// must not use them.
	State memory.State
	Query esr.Query
	// Stated is, for each event of the stream, the values that event
	// asserts for the asked key by the bench's extraction (StatedValues):
	// what a reader who understood the event's sentence would find in it.
	// Only the simulated prose skill reads it (SimProfile.ProseSkill), and
	// only for an event line the render shows; it is never a QA's gold.
	Stated map[string][]string
}

// StatedValues are the values each event asserts for key among atoms
// (positive atoms that assert their value, esr.Atom.Asserts: no hedge or
// recollection), by event id, in the atoms' order.
func StatedValues(atoms []esr.Atom, key esr.Key) map[string][]string {
	out := map[string][]string{}
	for i := range atoms {
		a := &atoms[i]
		if a.Key() != key || a.Polarity == esr.Negative || !a.Asserts() {
			continue
		}
		out[a.EventID] = append(out[a.EventID], a.Value)
	}
	return out
}

// Output is a reader's answer with its raw text and token counts.
type Output struct {
	Answer           esr.Answer
	Raw              string
	ContextTokens    int
	CompletionTokens int
	// Cached reports an answer served from the response cache (LLM readers).
	Cached bool
	// Note says how the answer was reached (scripted readers explain their
	// steps; empty otherwise). Outcome rows keep it as their reason.
	Note string
	// Decision is the last step of Note alone: what in the render decided
	// the answer (e.g. "key K: top of 3 rows listed newest first"), for a
	// sentence that says why a reader's answer changed between two
	// renders. Empty for readers that do not say (LLM readers, the oracle).
	Decision string
	// Unreadable reports that a simulated reader could not read the
	// render's layout: the render is raw event text (direct-context,
	// rag-topk) with no structured records, and the reader knows no value
	// pattern for the asked attribute and no value of it from elsewhere in
	// the render, so it cannot find a single candidate. The answer is then
	// ABSTAIN, but it measures the reader's parser, not the memory: outcome
	// rows carry the flag (eval.Outcome.Unreadable) and tables report such
	// rows as not measured.
	Unreadable bool
}

// Reader answers one item. Implementations must be safe for concurrent use.
type Reader interface {
	// Spec is the reader's identity, as outcome rows carry it and tables
	// show it (e.g. oracle, scripted:time-sorter, llm:qwen2.5-7b).
	Spec() Spec
	// Family is the answer family for paired statistics (usually the
	// reader's own spec).
	Family() Family
	Read(ctx context.Context, in Input) (Output, error)
}
