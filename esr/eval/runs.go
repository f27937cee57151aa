package eval

import (
	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// A user who changes a memory and reruns needs the two stored runs side by
// side, question by question. CompareRuns pairs the rows of two runs and
// computes every difference with the functions eval.Compare uses (the same
// pair order, bootstrap and seed), so a difference measured across two runs
// equals, to the digit, the one measured inside a single run that holds
// both memories.

// DefaultRunJudge is the judge of rows that name none (Outcome.Judge empty:
// the run's own judge) when the run does not say otherwise: `esr eval`'s
// default --judge, which it does not record in its rows.
const DefaultRunJudge = "exact"

// StoredRun is one stored run: its rows and where they were read from.
type StoredRun struct {
	// Name is the path the run was loaded from (a file or a folder).
	Name string
	// Files are the row files read, in order; Rows holds their rows in the
	// same order and At[i] where Rows[i] was read.
	Files []string
	Rows  []Outcome
	At    []RowAt
	// Judge is the run's own judge: the judge of rows whose Judge is
	// empty. LoadRun sets DefaultRunJudge; set it when the run was made
	// with another --judge.
	Judge string
}

// RowAt is where a row was read: its file and 1-based line.
type RowAt struct {
	File string
	Line int
}

// StoredRunOf wraps rows held in memory as a run named name (notebooks, tests).
func StoredRunOf(name string, rows []Outcome) *StoredRun {
	at := make([]RowAt, len(rows))
	for i := range at {
		at[i] = RowAt{File: name, Line: i + 1}
	}
	return &StoredRun{Name: name, Files: []string{name}, Rows: rows, At: at, Judge: DefaultRunJudge}
}

// RunCompareOptions set CompareRuns.
type RunCompareOptions struct {
	// Stats are the bootstrap's options (zero fields: DefaultStats).
	Stats StatOptions
	// Bench, when set, is the benchmark both runs answer: it rebuilds the
	// renders of flipped questions (Flip.RenderA/B), rescoring (Rejudge)
	// and running missing controls need it. Its questions must carry the
	// rows' golds.
	Bench *bench.Bench
	// MemoryOptions are the build options of rebuilt renders and controls
	// run here (the zero value: the defaults `esr eval` uses).
	MemoryOptions memory.Options
	// Rejudge, when set, rescores both runs' rows with this judge first
	// (Rejudge; needs Bench); the runs' own judges may then differ.
	Rejudge judge.Judge
	// Controls asks for the render/mechanism split of every memory pair
	// whose memories differ (RunComparison.Controls).
	Controls bool
	// Readers, with Bench, answer the controls a run does not hold (its
	// memory's ~render-only rows), under ControlJudge (default: Rejudge,
	// else judge.Exact). A reader answers only the pairs of its own spec.
	Readers      []reader.Reader
	ControlJudge judge.Judge
	// Adapters are the exec: adapters that may run here, to rebuild
	// renders and answer controls: the ones whoever runs the comparison
	// named. Rows are data, never code: a memory the rows name whose build
	// would start any other adapter (memory.Spec.Adapter) is not built, and
	// a note says which renders or controls are left out for it.
	Adapters []memory.Class
}

// MemoryPair is one memory of run A and the memory of run B it is
// compared with (B − A).
type MemoryPair struct {
	A memory.Spec `json:"a"`
	B memory.Spec `json:"b"`
}

// RowKey names one row of a run (Outcome.Key): what a resume skips
// (Config.Done) and what pairs rows across runs, and the rows only one
// run holds.
type RowKey struct {
	QID     string        `json:"qid"`
	Reader  reader.Spec   `json:"reader"`
	Family  reader.Family `json:"family"`
	Variant Variant       `json:"condition,omitzero"`
	Memory  memory.Spec   `json:"memory"`
}

// RunSide summarises one run of a comparison.
type RunSide struct {
	Name     string        `json:"name"`
	Files    []string      `json:"files"`
	Rows     int           `json:"rows"`
	Memories []memory.Spec `json:"memories"`
	Readers  []reader.Spec `json:"readers"`
	// Judges are the judges of the rows compared (a row's Judge, else the
	// run's own).
	Judges []string `json:"judges"`
	// Sources are the benchmark sources of the rows (Outcome.Source).
	Sources []string `json:"sources"`
}

// FlipDirection says which run answered a flipped pair right.
type FlipDirection string

// Directions of a flip.
const (
	Gained FlipDirection = "gained" // right in B, wrong in A
	Lost   FlipDirection = "lost"   // right in A, wrong in B
)

// Flip is one (question, reader, condition) whose correctness differs
// between the runs, with what each run's reader answered and said.
type Flip struct {
	Pair MemoryPair `json:"pair"`
	QID  string     `json:"qid"`
	// Question is the question's text, from RunCompareOptions.Bench
	// (rows do not carry it; empty without it).
	Question  string         `json:"question,omitempty"`
	Stratum   esr.Phenomenon `json:"stratum"`
	QueryType esr.QueryType  `json:"query_type"`
	Reader    reader.Spec    `json:"reader"`
	Family    reader.Family  `json:"family"`
	Variant   Variant        `json:"condition,omitzero"`
	Gold      string         `json:"gold"`
	AnswerA   string         `json:"answer_a"`
	AnswerB   string         `json:"answer_b"`
	LabelA    judge.Label    `json:"label_a,omitempty"`
	LabelB    judge.Label    `json:"label_b,omitempty"`
	// DecisionA and DecisionB are the reader's stated reasoning in each
	// run: the row's Reason, else its RawAnswer.
	DecisionA string        `json:"decision_a"`
	DecisionB string        `json:"decision_b"`
	Direction FlipDirection `json:"direction"`
	// RenderA and RenderB are the memories' renders of the question,
	// rebuilt from RunCompareOptions.Bench (empty without it, or when the
	// renders of the pair are the same memory's). RenderChanged lists B's
	// lines that are not in A's render (textdiff), "" when unchanged.
	RenderA       string   `json:"render_a,omitempty"`
	RenderB       string   `json:"render_b,omitempty"`
	RenderChanged []string `json:"render_changed,omitempty"`
}

// ControlTerm is one term of a ControlSplit: its paired difference and
// its numerator, the net count of pairs it gains (Delta = Net / N).
type ControlTerm struct {
	Label string  `json:"label"`
	Net   int     `json:"net"`
	Delta float64 `json:"delta"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	// P is the exact paired p-value of the render term and the total
	// (binary pairs); the mechanism term, a difference of differences, has
	// a bootstrap interval only (P = -1).
	P float64 `json:"p"`
}

// ControlSplit splits a memory pair's difference B − A into a render part
// and a mechanism part with each memory's render-matched control
// (memory.Spec.RenderMatched; C_a from run A, C_b from run B):
//
//	render    = C_b − C_a                 (what the render change alone does)
//	mechanism = (M_b − C_b) − (M_a − C_a) (what changes in the mechanism's own effect)
//	total     = M_b − M_a = render + mechanism, pair by pair
//
// When A is a memory without a mechanism (its own control: C_a = M_a, as
// graphrag-abstain in Table 2), render = C_b − M_a and mechanism =
// M_b − C_b: Table 2's terms (MechanismTerms). Only the pairs on which all
// four rows exist are used, so Total may differ from the pair's
// difference (RunComparison.Diffs) over all its pairs.
type ControlSplit struct {
	Pair     MemoryPair    `json:"pair"`
	ControlA memory.Spec   `json:"control_a"`
	ControlB memory.Spec   `json:"control_b"`
	Family   reader.Family `json:"family"`
	N        int           `json:"n"`
	// Ran says the controls were answered here (not read from the runs).
	Ran       bool        `json:"ran,omitempty"`
	Total     ControlTerm `json:"total"`
	Render    ControlTerm `json:"render"`
	Mechanism ControlTerm `json:"mechanism"`
}

// RunComparison is CompareRuns's result.
type RunComparison struct {
	A RunSide `json:"a"`
	B RunSide `json:"b"`
	// Pairs are the memory pairs compared, in A's memory order.
	Pairs []MemoryPair `json:"pairs"`
	// Diffs are every pair's differences B − A: pooled and per family (as
	// ByFamily: one family alone gives one row), then per stratum and per
	// query type over all readers pooled, in that order. Each is the
	// Comparison eval.Compare returns for B − A: its term's A is run B's
	// memory and its B run A's, so AccA is run B's accuracy, N10 the pairs
	// gained (right in B only) and N01 those lost (right in A only).
	Diffs []Comparison `json:"diffs"`
	// Flips are the discordant pairs of every memory pair, by (pair, qid,
	// reader, condition).
	Flips []Flip `json:"flips"`
	// OnlyA and OnlyB are the rows of a compared memory that the other
	// run has no counterpart for; they are left out of every number.
	OnlyA []RowKey `json:"only_a"`
	OnlyB []RowKey `json:"only_b"`
	// Controls are the render/mechanism splits (RunCompareOptions.Controls).
	Controls []ControlSplit `json:"controls,omitempty"`
	// Notes say what was left out or assumed (renders not rebuilt, a
	// control missing, the judge assumed for rows that name none).
	Notes []string `json:"notes,omitempty"`
	// Interval describes the intervals (StatOptions.IntervalNote).
	Interval string `json:"interval"`
}

// mismatchError refuses a comparison of runs that do not measure the same
// thing: another benchmark or another judge. Field names what differs,
// A and B what each run has.
type mismatchError struct {
	Field string // "benchmark" or "judge"
	A, B  string
	// Detail names the evidence (a qid whose gold differs).
	Detail string
}

func (e *mismatchError) Error() string {
	s := "runs on different " + e.Field + "s: A has " + e.A + ", B has " + e.B
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

// CompareRuns sets run b beside run a, question by question.
//
// Pairing: rows pair by (question id, reader spec, condition). When each
// run holds exactly one memory, that memory of A pairs with that of B
// (what changed between the runs may be the memory itself). Otherwise both
// runs must hold the same set of memories, and each memory pairs with
// itself across the runs (B − A per memory); other sets are an error.
//
// Refusals (*mismatchError): runs whose shared questions differ in gold,
// stratum or query type, or that share no question, are on different
// benchmarks; runs whose rows were scored by different judges (a row's
// Judge, else its run's Judge) are refused unless opt.Rejudge rescores
// both first. Rows only one run holds are listed (OnlyA, OnlyB) and left
// out.
//
// Every difference is B − A, computed as eval.Compare computes it (pairs
// sorted by qid, family, condition; the same bootstrap, seed and exact
// test), so it equals Compare(rows, label, memB, memA, …) on one run that
// holds both memories' rows.
