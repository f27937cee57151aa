package eval

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/judge"
)

// RejudgeOptions set a rescoring run: Done holds the keys of rows
// (Outcome.Key, Keys) already rescored, which are skipped (resume); Concurrency bounds the
// answers judged at once (default 1; LLM judges limit their own
// requests); Progress, when set, is called after each batch with (done,
// total).
type RejudgeOptions struct {
	Done        map[RowKey]bool
	Concurrency int
	Progress    func(done, total int)
	// Fingerprint, when set, identifies the rescoring (the judge's
	// configuration, the benchmark and the code); each rescored row's
	// Fingerprint is then rescoredFingerprint(Fingerprint, the stored row),
	// so a resume can tell rows of another rescoring apart
	// (FindStaleRescored).
	Fingerprint string
}

// rescoredFingerprint is the fingerprint of the row that rescoring o under
// the rescoring base (RejudgeOptions.Fingerprint) writes: base, o's own
// fingerprint and what the judge reads of o (its answer, raw answer and
// gold).
func rescoredFingerprint(base string, o Outcome) string {
	h := sha256.New()
	for _, s := range []string{"rescored", base, o.Fingerprint, o.Answer, o.RawAnswer, o.Gold} {
		fmt.Fprintf(h, "%d:%s\n", len(s), s)
	}
	return hex.EncodeToString(h.Sum(nil))[:20]
}

// FindStaleRescored returns the first row of prev (rescored rows read from
// file) that rescoring rows under base would write again with another
// fingerprint (another judge, benchmark, code or stored row), or nil. Rows
// of prev that rescore none of rows are left alone.
func FindStaleRescored(file string, prev, rows []Outcome, base string) *StaleRow {
	byKey := make(map[RowKey]*Outcome, len(rows))
	for i := range rows {
		byKey[rows[i].Key()] = &rows[i]
	}
	for i := range prev {
		o := byKey[prev[i].Key()]
		if o == nil {
			continue
		}
		if want := rescoredFingerprint(base, *o); prev[i].Fingerprint != want {
			return &StaleRow{File: file, Line: i + 1, Row: prev[i], Want: want}
		}
	}
	return nil
}

// rejudgeBatch is how many rows are judged before they are written: rows go
// to the sink in input order, a batch at a time.
const rejudgeBatch = 256

// Rejudge rescores stored outcome rows with judge j and puts the rescored
// rows into sink, without asking any reader: each row's stored answer is
// judged again against its question in b. A rescored row keeps every field
// of the stored one (answer, raw answer, reason, reader, memory) except
// Correct, Abstained, Label (judge.Classify with the key's prior values)
// and Judge (j's name), and Fingerprint when opt.Fingerprint is set. Rows
// go out in input order. A row whose question is
// not in b, or whose stored gold differs from the question's, is an error
// naming the row: the rows belong to another benchmark (or version).
func Rejudge(ctx context.Context, b *bench.Bench, rows []Outcome, j judge.Judge, sink Sink, opt RejudgeOptions) error {
	byQID := make(map[string]*esr.QA, len(b.QAs))
	for i := range b.QAs {
		byQID[b.QAs[i].QID] = &b.QAs[i]
	}
	var todo []int
	for i := range rows {
		o := &rows[i]
		qa := byQID[o.QID]
		if qa == nil {
			return fmt.Errorf("row %d (qid %s): not a question of bench %s", i+1, o.QID, b.Name())
		}
		if o.Gold != qa.GoldAnswer {
			return fmt.Errorf("row %d (qid %s): field gold %q differs from bench %s's gold %q", i+1, o.QID, o.Gold, b.Name(), qa.GoldAnswer)
		}
		if !opt.Done[o.Key()] {
			todo = append(todo, i)
		}
	}
	priors := map[string][]string{}
	for start := 0; start < len(todo); start += rejudgeBatch {
		batch := todo[start:min(start+rejudgeBatch, len(todo))]
		qas := make([]*esr.QA, len(batch))
		answers := make([]esr.Answer, len(batch))
		for k, i := range batch {
			qas[k], answers[k] = byQID[rows[i].QID], storedAnswer(rows[i])
		}
		vs, err := judge.JudgeAll(ctx, j, qas, answers, opt.Concurrency)
		if err != nil {
			return err
		}
		for k, i := range batch {
			qa := qas[k]
			prior, ok := priors[qa.QID]
			if !ok {
				prior = judge.PriorValues(qa, b.Atoms[qa.StreamID])
				priors[qa.QID] = prior
			}
			o := rows[i]
			if opt.Fingerprint != "" {
				o.Fingerprint = rescoredFingerprint(opt.Fingerprint, rows[i])
			}
			o.Correct, o.Abstained = vs[k].Correct, vs[k].Abstained
			o.Label = judge.Classify(vs[k], qa, prior, answers[k])
			o.Judge = j.Name()
			if err := sink.Put(o); err != nil {
				return err
			}
		}
		if opt.Progress != nil {
			opt.Progress(start+len(batch), len(todo))
		}
	}
	return nil
}

// RejudgeRows is Rejudge in memory (notebooks): the rescored rows, in the
// order of rows.
func RejudgeRows(ctx context.Context, b *bench.Bench, rows []Outcome, j judge.Judge) ([]Outcome, error) {
	var sink SliceSink
	if err := Rejudge(ctx, b, rows, j, &sink, RejudgeOptions{}); err != nil {
		return nil, err
	}
	return sink.Rows, nil
}

// storedAnswer is the answer a row stores, as the judge first saw it: an
// abstention when the row's answer is ABSTAIN (how eval writes every
// abstaining answer), else the value.
func storedAnswer(o Outcome) esr.Answer {
	if o.Answer == esr.AbstainText {
		return esr.Abstain
	}
	return esr.Says(o.Answer)
}

// LabelRows fills the Label of rows that have none (rows written before
// labels existed) from their stored verdicts, with the key's prior values
// from b; Correct and Abstained are kept. Rows whose question is not in b
// stay unlabelled.
func LabelRows(b *bench.Bench, rows []Outcome) []Outcome {
	byQID := make(map[string]*esr.QA, len(b.QAs))
	for i := range b.QAs {
		byQID[b.QAs[i].QID] = &b.QAs[i]
	}
	out := append([]Outcome(nil), rows...)
	for i := range out {
		o := &out[i]
		qa := byQID[o.QID]
		if o.Label != "" || qa == nil {
			continue
		}
		v := judge.Verdict{Correct: o.Correct, Abstained: o.Abstained}
		o.Label = judge.Classify(v, qa, judge.PriorValues(qa, b.Atoms[qa.StreamID]), storedAnswer(*o))
	}
	return out
}
