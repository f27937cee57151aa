package lab

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/report"
)

// Staircase are the memories of the render-matched staircase, in order: the
// d-blind control, the same layout without its mechanism, the layout with
// its mechanism; coarse-retain closes it as the other mechanism. Its first
// three are what Work reads a question through when given no memories.
var Staircase = memory.Specs(memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger, memory.CoarseRetain)

// WorkedAnswer is one reader's answer on one memory's render.
type WorkedAnswer struct {
	Given   esr.Answer // the reader's answer, typed
	Answer  string     // Given as tables print it
	Correct bool
	Reason  string // the reader's note (scripted) or raw text (LLM)
	// Decision is what in the render decided the answer, as the reader
	// says it (reader.Output.Decision; empty when it does not say).
	Decision string
}

// WorkedQuestion is one QA read along the staircase: each memory's render,
// and each reader's answer on it with the reader's reason and the judge's
// label. It is the worked example notebooks show before any table.
type WorkedQuestion struct {
	QA       esr.QA
	Memories []memory.Spec
	Renders  []string // parallel to Memories
	Readers  []string
	Answers  [][]WorkedAnswer // [reader][memory]
}

// PickWorked chooses the QA to work through: the QA of the stratum and
// query type on the shortest stream (ties: the smallest qid), so its
// renders fit on a screen, among those whose key's evidence the extraction
// kept (for every QA about the key, every gold-relevant event carries an
// atom and the current and earlier values share a key: bench.CoverageOf)
// and whose fine ledger's state answers it (the oracle reading the
// ledger's statuses, no render, is right), so that a lossy benchmark's
// worked example shows what the render and the mechanism do when the
// ledger's d is right, not what extraction or the rule scorer got wrong.
// When no QA's ledger is right it falls back to the first covered one.
// Over the whole stratum the ledger's state is right less often: the
// suites' tables count every question.
func PickWorked(b *bench.Bench, ph esr.Phenomenon, qt esr.QueryType) (esr.QA, error) {
	qas := workedCandidates(b, ph, qt)
	if len(qas) == 0 {
		return esr.QA{}, fmt.Errorf("no %s %s QA in %s", ph, qt, b.Name())
	}
	for _, q := range qas {
		if ledgerAnswers(b, q, memory.Options{}) {
			return *q, nil
		}
	}
	return *qas[0], nil
}

// ledgerAnswers reports whether q's fine ledger's state answers it: the
// oracle, which reads the ledger's statuses and no render, is right. It
// is not when the extraction or the rule scorer got the key's d wrong
// (a restored value the scorer calls UNRELATED to the one it restores).
func ledgerAnswers(b *bench.Bench, q *esr.QA, opt memory.Options) bool {
	w, err := Work(context.Background(), b, *q, []memory.Spec{memory.SpecOf(memory.FineLedger)}, []reader.Reader{reader.Oracle{}}, opt)
	return err == nil && len(w.Answers) == 1 && len(w.Answers[0]) == 1 && w.Answers[0][0].Correct
}

// workedCandidates are the QAs of the stratum and query type whose key's
// evidence the extraction kept (every QA about the key, of every query
// type, is covered: bench.CoverageOf), in the order PickWorked and
// PickRenderFlip try them: shortest stream first (ties: the smallest qid).
func workedCandidates(b *bench.Bench, ph esr.Phenomenon, qt esr.QueryType) []*esr.QA {
	type key struct{ stream, entity, attribute string }
	lost := map[key]bool{}
	evKeys := map[string]map[string]map[esr.Key]bool{}
	for i := range b.QAs {
		q := &b.QAs[i]
		ev, ok := evKeys[q.StreamID]
		if !ok {
			ev = bench.EventKeys(b.Atoms[q.StreamID])
			evKeys[q.StreamID] = ev
		}
		if c := bench.CoverageOf(ev, q); c.Extracted < c.Relevant || c.CoKeyEligible && !c.CoKeyShared {
			lost[key{q.StreamID, q.Entity, q.Attribute}] = true
		}
	}
	var qas []*esr.QA
	for i := range b.QAs {
		if q := &b.QAs[i]; q.Phenomenon == ph && q.Type() == qt && !lost[key{q.StreamID, q.Entity, q.Attribute}] {
			qas = append(qas, q)
		}
	}
	sort.Slice(qas, func(i, j int) bool {
		li, lj := len(b.Atoms[qas[i].StreamID]), len(b.Atoms[qas[j].StreamID])
		return li < lj || li == lj && qas[i].QID < qas[j].QID
	})
	return qas
}

// Work reads qa through memories (nil: the first three of Staircase) with
// every reader, judged exactly.
func Work(ctx context.Context, b *bench.Bench, qa esr.QA, memories []memory.Spec, readers []reader.Reader, opt memory.Options) (*WorkedQuestion, error) {
	s := b.Stream(qa.StreamID)
	if s == nil {
		return nil, fmt.Errorf("qa %s: no stream %s", qa.QID, qa.StreamID)
	}
	return workOn(ctx, s, b.Atoms[qa.StreamID], qa, memories, readers, opt)
}

// workOn is Work on one stream's atoms.
func workOn(ctx context.Context, s *esr.Stream, atoms []esr.Atom, qa esr.QA, memories []memory.Spec, readers []reader.Reader, opt memory.Options) (*WorkedQuestion, error) {
	if memories == nil {
		memories = Staircase[:3]
	}
	key, _ := qa.Locate(atoms)
	q := qa.Query(key)
	w := &WorkedQuestion{QA: qa, Memories: memories}
	states := make([]memory.State, len(memories))
	for i, m := range memories {
		st, err := memory.Build(m, s, atoms, opt)
		if err != nil {
			return nil, err
		}
		states[i] = st
		w.Renders = append(w.Renders, st.Render(q))
	}
	stated := reader.StatedValues(atoms, key)
	for _, r := range readers {
		w.Readers = append(w.Readers, r.Spec().String())
		row := make([]WorkedAnswer, len(memories))
		for i, st := range states {
			out, err := r.Read(ctx, reader.Input{QID: qa.QID, Question: qa.Question, QueryType: qa.Type(), Context: w.Renders[i],
				MayAbstain: st.MayAbstain(), Memory: memories[i], State: st, Query: q, Stated: stated})
			if err != nil {
				return nil, err
			}
			v, err := judge.Exact{}.Judge(ctx, &qa, out.Answer)
			if err != nil {
				return nil, err
			}
			reason := out.Note
			if reason == "" {
				reason = out.Raw
			}
			row[i] = WorkedAnswer{Given: out.Answer, Answer: out.Answer.String(), Correct: v.Correct, Reason: reason, Decision: out.Decision}
		}
		w.Answers = append(w.Answers, row)
	}
	return w, nil
}

// AnswersTable shows each reader's answer on each memory (✓ right, ✗
// wrong) and its reason on the last memory.
func (w *WorkedQuestion) AnswersTable() *eval.Table {
	t := &eval.Table{ID: eval.TableID("worked-" + w.QA.QID), Title: "“" + w.QA.Question + "” (gold: " + w.QA.GoldAnswer + ")",
		Columns: append(append([]string{"reader"}, memory.Strings(w.Memories)...), "what decided it, memory by memory")}
	for ri, r := range w.Readers {
		row := []any{r}
		var why []string
		for mi := range w.Memories {
			a := w.Answers[ri][mi]
			row = append(row, eval.VerdictCell(a.Answer, a.Correct))
			d := a.Decision
			if d == "" {
				d = strings.TrimPrefix(a.Reason, r+": ")
			}
			why = append(why, w.Memories[mi].String()+": "+d)
		}
		t.AddRow(append(row, strings.Join(why, " | "))...)
	}
	t.Notes = []string{"what decided it: the last step the reader reports (its whole account, every draw, is in ReasonsTable)"}
	return t
}

// ReasonsTable is every reader's whole account of each answer (the
// reader's note: each draw and step), one row per reader and memory: the
// long form of AnswersTable's last column, for folding under it.
func (w *WorkedQuestion) ReasonsTable() *eval.Table {
	t := &eval.Table{ID: eval.TableID("worked-reasons-" + w.QA.QID), Title: "Every reader's whole account, “" + w.QA.Question + "”",
		Columns: []string{"reader", "memory", "answer", "reason"}}
	for ri, r := range w.Readers {
		for mi, m := range w.Memories {
			a := w.Answers[ri][mi]
			t.AddRow(r, m, a.Answer, strings.TrimPrefix(a.Reason, r+": "))
		}
	}
	return t
}

// Arithmetic spells out the steps on this one question: the share of
// readers right on each memory, and each step between consecutive memories
// as a difference of those shares, naming the readers that flip. On the
// staircase the first step is the render step and the second the
// mechanism step.
func (w *WorkedQuestion) Arithmetic() string {
	n := len(w.Readers)
	if n == 0 || len(w.Memories) < 2 {
		return ""
	}
	right := make([]int, len(w.Memories))
	for ri := range w.Readers {
		for mi := range w.Memories {
			if w.Answers[ri][mi].Correct {
				right[mi]++
			}
		}
	}
	flips := func(a, b int) string {
		var up, down []string
		for ri, r := range w.Readers {
			switch {
			case !w.Answers[ri][a].Correct && w.Answers[ri][b].Correct:
				up = append(up, r)
			case w.Answers[ri][a].Correct && !w.Answers[ri][b].Correct:
				down = append(down, r)
			}
		}
		s := ""
		if len(up) > 0 {
			s += " (turns right: " + strings.Join(up, ", ") + ")"
		}
		if len(down) > 0 {
			s += " (turns wrong: " + strings.Join(down, ", ") + ")"
		}
		if s == "" {
			s = " (no reader's verdict changes)"
		}
		return s
	}
	f := func(k int) string { return fmt.Sprintf("%d/%d", k, n) }
	var parts []string
	for mi, m := range w.Memories {
		parts = append(parts, f(right[mi])+" on "+m.String())
	}
	s := "On this question the readers right are " + strings.Join(parts, ", ") + "."
	staircase := len(w.Memories) >= 3 && w.Memories[0] == Staircase[0] && w.Memories[1] == Staircase[1] && w.Memories[2] == Staircase[2]
	for mi := 0; mi+1 < len(w.Memories); mi++ {
		name := "Step " + w.Memories[mi].String() + " → " + w.Memories[mi+1].String()
		if staircase && mi == 0 {
			name = "Render step (" + w.Memories[0].String() + " → " + w.Memories[1].String() + ")"
		}
		if staircase && mi == 1 {
			name = "Mechanism step (" + w.Memories[1].String() + " → " + w.Memories[2].String() + ")"
		}
		s += fmt.Sprintf(" %s: %s − %s = %s%s.", name, f(right[mi+1]), f(right[mi]),
			report.Signed(float64(right[mi+1]-right[mi])/float64(n)), flips(mi, mi+1))
	}
	if staircase {
		s += " Averaged over every question of the stratum, the render and mechanism steps are Table 2's render and fine-d mechanism terms."
	}
	return s
}

// Accuracies are the worked question's staircase as StaircaseAccuracy
// gives it for a stratum: per memory, the share of readers right (group
// reader.Pooled) and each reader's 0 or 1, so StaircasePlot draws one question.
func (w *WorkedQuestion) Accuracies() []eval.Accuracy {
	var out []eval.Accuracy
	for mi, m := range w.Memories {
		right := 0
		for ri := range w.Readers {
			if w.Answers[ri][mi].Correct {
				right++
			}
		}
		out = append(out, eval.Accuracy{Memory: m, Group: reader.Pooled.String(), N: len(w.Readers), Acc: float64(right) / float64(max(1, len(w.Readers)))})
	}
	for ri, r := range w.Readers {
		for mi, m := range w.Memories {
			out = append(out, eval.Accuracy{Memory: m, Group: r, N: 1, Acc: b2f(w.Answers[ri][mi].Correct)})
		}
	}
	return out
}

// Flip is one reader whose verdict changes between two memories of a
// worked question: its answer and what decided it on each.
type Flip struct {
	Reader        string
	From, To      memory.Spec // the memories, in the order read
	Before, After WorkedAnswer
}

// TurnsRight reports whether the reader is wrong on From and right on To.
func (f Flip) TurnsRight() bool { return !f.Before.Correct && f.After.Correct }

// Flips lists the readers whose verdict changes between memories i and j
// of w (indices into w.Memories), in reader order. On the staircase,
// Flips(0, 1) are the render step's flips and Flips(1, 2) the mechanism
// step's.
func (w *WorkedQuestion) Flips(i, j int) []Flip {
	if i < 0 || j < 0 || i >= len(w.Memories) || j >= len(w.Memories) {
		panic(fmt.Sprintf("eval: Flips(%d, %d) of %d memories", i, j, len(w.Memories)))
	}
	var out []Flip
	for ri, r := range w.Readers {
		a, b := w.Answers[ri][i], w.Answers[ri][j]
		if a.Correct != b.Correct {
			out = append(out, Flip{Reader: r, From: w.Memories[i], To: w.Memories[j], Before: a, After: b})
		}
	}
	return out
}

// PickRenderFlip chooses a QA of the stratum and query type on which at
// least one of readers changes its verdict between the d-blind control and
// the render-matched control (Staircase[0] → Staircase[1]): the render
// step a student can see on one question. It tries the QAs shortest
// stream first (ties: the smallest qid), as PickWorked orders them, and
// returns the first with a flip whose fine ledger's state answers it (as
// PickWorked requires: the oracle reading the ledger's statuses is right),
// so the question's mechanism step shows the ledger doing its job, not the
// rule scorer's mistake; when no QA with a flip has a right ledger, the
// first with a flip; an error when none has one.
func PickRenderFlip(ctx context.Context, b *bench.Bench, ph esr.Phenomenon, qt esr.QueryType, readers []reader.Reader, opt memory.Options) (esr.QA, error) {
	var first *esr.QA
	for _, q := range workedCandidates(b, ph, qt) {
		right := ledgerAnswers(b, q, opt)
		if first != nil && !right {
			continue // a fallback is found: only a right ledger can do better
		}
		w, err := Work(ctx, b, *q, Staircase[:2], readers, opt)
		if err != nil {
			return esr.QA{}, err
		}
		if len(w.Flips(0, 1)) == 0 {
			continue
		}
		if right {
			return *q, nil
		}
		first = q
	}
	if first != nil {
		return *first, nil
	}
	return esr.QA{}, fmt.Errorf("no %s %s QA of %s on which a reader's verdict changes between %s and %s", ph, qt, b.Name(), Staircase[0], Staircase[1])
}

// FlipSentence says why one reader's verdict changed between two renders,
// from what the reader itself reports decided each answer
// (WorkedAnswer.Decision): e.g. "the simulated reader fit-qwen3-8b (a
// model of Qwen3-8B) turns right from graphrag-abstain to render-only:
// ABSTAIN (3 candidates disagree) on graphrag-abstain, 30 s (top of 3 rows
// listed newest first) on render-only". The reader is named by readerWords.
// Answers and decisions are data: the caller escapes them for its medium.
func FlipSentence(f Flip) string {
	turn := "turns wrong"
	if f.TurnsRight() {
		turn = "turns right"
	}
	why := func(a WorkedAnswer) string {
		if a.Decision == "" {
			return a.Answer
		}
		return a.Answer + " (" + a.Decision + ")"
	}
	return fmt.Sprintf("%s %s from %s to %s: %s on %s, %s on %s", flipReaderWords(f.Reader), turn, f.From, f.To, why(f.Before), f.From, why(f.After), f.To)
}

// flipReaderWords names a flip's reader (its printed family) as readerWords
// does.
func flipReaderWords(r string) string {
	if f, ok := groupFamily(r); ok {
		return readerWords(f)
	}
	return r
}
