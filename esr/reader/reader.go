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
	// Memory is the memory class name.
	Memory string
	// State and Query let the oracle read the structured state; text readers
	// must not use them.
	State memory.State
	Query esr.Query
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
}

// Reader answers one item. Implementations must be safe for concurrent use.
type Reader interface {
	// Name is the reader as outcome tables show it (e.g. "oracle",
	// "scripted:time-sorter", "llm:qwen2.5-7b").
	Name() string
	// Family is the answer family for paired statistics (usually the name).
	Family() string
	Read(ctx context.Context, in Input) (Output, error)
}
