package eval_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/stats"
)

// mapMemo is an in-memory IntervalMemo that counts its calls.
type mapMemo struct {
	mu            sync.Mutex
	m             map[[32]byte]stats.BootstrapCI
	recalls, hits int
}

func (m *mapMemo) Recall(k [32]byte) (stats.BootstrapCI, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recalls++
	ci, ok := m.m[k]
	if ok {
		m.hits++
	}
	return ci, ok
}

func (m *mapMemo) Keep(k [32]byte, ci stats.BootstrapCI) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[k] = ci
}

// memoRows are two memories answering 60 questions, three families each.
func memoRows(flip int) []eval.Outcome {
	var rows []eval.Outcome
	for q := range 60 {
		for f := range 3 {
			fam := fmt.Sprintf("fam%d", f)
			qid := fmt.Sprintf("q%02d", q)
			rows = append(rows,
				eval.Outcome{QID: qid, Memory: memory.MustParseSpec("a"), Reader: reader.Spec{Kind: reader.KindSim, Name: fam}, Family: reader.Family{Kind: reader.KindSim, Name: fam}, Correct: (q+f)%3 != 0},
				eval.Outcome{QID: qid, Memory: memory.MustParseSpec("b"), Reader: reader.Spec{Kind: reader.KindSim, Name: fam}, Family: reader.Family{Kind: reader.KindSim, Name: fam}, Correct: (q+f+flip)%4 == 0})
		}
	}
	return rows
}

// With a memo, Compare returns exactly what it computes without one, keeps
// each interval once and recalls it for the same pairs and options; other
// pairs or options get an interval of their own.
func TestIntervalMemo(t *testing.T) {
	opt := eval.StatOptions{B: 500, Seed: 3, Level: 0.95, Interval: eval.IntervalCluster}
	rows := memoRows(0)
	want, err := eval.Compare(rows, eval.Term{Label: "a vs b", A: memory.MustParseSpec("a"), B: memory.MustParseSpec("b")}, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	m := &mapMemo{m: map[[32]byte]stats.BootstrapCI{}}
	eval.SetIntervalMemo(m)
	defer eval.SetIntervalMemo(nil)
	for i := range 2 {
		got, err := eval.Compare(rows, eval.Term{Label: "a vs b", A: memory.MustParseSpec("a"), B: memory.MustParseSpec("b")}, nil, opt)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("call %d with a memo: %+v\nwithout: %+v", i, got, want)
		}
	}
	if len(m.m) != 1 || m.hits != 1 {
		t.Fatalf("memo holds %d intervals after %d hits, want 1 and 1", len(m.m), m.hits)
	}
	// Anything the interval depends on makes a new key.
	pair := opt
	pair.Interval = eval.IntervalPair
	variants := []struct {
		rows []eval.Outcome
		opt  eval.StatOptions
	}{
		{memoRows(1), opt}, // other answers
		{rows, eval.StatOptions{B: 501, Seed: 3, Level: 0.95}}, // B
		{rows, eval.StatOptions{B: 500, Seed: 4, Level: 0.95}}, // seed
		{rows, eval.StatOptions{B: 500, Seed: 3, Level: 0.9}},  // level
		{rows, pair}, // resampling unit
	}
	for i, v := range variants {
		before := m.hits
		got, err := eval.Compare(v.rows, eval.Term{Label: "a vs b", A: memory.MustParseSpec("a"), B: memory.MustParseSpec("b")}, nil, v.opt)
		if err != nil {
			t.Fatal(err)
		}
		eval.SetIntervalMemo(nil)
		direct, _ := eval.Compare(v.rows, eval.Term{Label: "a vs b", A: memory.MustParseSpec("a"), B: memory.MustParseSpec("b")}, nil, v.opt)
		eval.SetIntervalMemo(m)
		if m.hits != before || got != direct {
			t.Errorf("variant %d: recalled another setting's interval (hits %d → %d)", i, before, m.hits)
		}
	}
	if len(m.m) != 1+len(variants) {
		t.Errorf("memo holds %d intervals, want %d", len(m.m), 1+len(variants))
	}
}
