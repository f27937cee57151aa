package eval

import (
	"context"
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// RenderedQA is one question's reader inputs on a list of memories, built
// once and read by many readers (the phase diagram's cells, the explorer's
// redraws, the calibration fit): renders do not depend on the reader.
type RenderedQA struct {
	QA     *esr.QA
	Inputs []reader.Input // parallel to the memories
}

// RenderQAs builds the memories once per stream and renders them once per
// question that keep accepts, in benchmark order.
func RenderQAs(b *bench.Bench, memories []memory.Spec, keep func(*esr.QA) bool, opt memory.Options) ([]RenderedQA, error) {
	var items []RenderedQA
	states := map[string][]memory.State{}
	for i := range b.QAs {
		qa := &b.QAs[i]
		if !keep(qa) {
			continue
		}
		sts, ok := states[qa.StreamID]
		if !ok {
			s := b.Stream(qa.StreamID)
			for _, m := range memories {
				st, err := memory.Build(m, s, append([]esr.Atom(nil), b.Atoms[qa.StreamID]...), opt)
				if err != nil {
					return nil, err
				}
				sts = append(sts, st)
			}
			states[qa.StreamID] = sts
		}
		key, _ := qa.Locate(b.Atoms[qa.StreamID])
		q := qa.Query(key)
		it := RenderedQA{QA: qa, Inputs: make([]reader.Input, len(sts))}
		stated := reader.StatedValues(b.Atoms[qa.StreamID], key)
		for mi, st := range sts {
			it.Inputs[mi] = reader.Input{QID: qa.QID, Question: qa.Question, QueryType: qa.Type(), Context: st.Render(q),
				MayAbstain: st.MayAbstain(), Memory: memories[mi], State: st, Query: q, Stated: stated}
			if err := memory.Err(st); err != nil {
				return nil, fmt.Errorf("qid %s, memory %s: %w", qa.QID, memories[mi], err)
			}
		}
		items = append(items, it)
	}
	return items, nil
}

// Read has r answer the question on memory mi, judged exactly, as one
// outcome row.
func (it RenderedQA) Read(ctx context.Context, r reader.Reader, mi int) (Outcome, error) {
	out, err := r.Read(ctx, it.Inputs[mi])
	if err != nil {
		return Outcome{}, err
	}
	v, err := judge.Exact{}.Judge(ctx, it.QA, out.Answer)
	if err != nil {
		return Outcome{}, err
	}
	return Outcome{QID: it.QA.QID, StreamID: it.QA.StreamID, Phenomenon: it.QA.Phenomenon,
		QueryType: it.QA.Type(), Memory: it.Inputs[mi].Memory, Reader: r.Spec(), Family: r.Family(),
		Answer: out.Answer.String(), Correct: v.Correct, Unreadable: out.Unreadable}, nil
}
