package eval_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

var (
	synthOnce  sync.Once
	synthBench *bench.Bench
	synthErr   error
)

// synthetic is the bundled synthetic bench restricted to snapshot
// questions (fast enough for a test, large enough for intervals).
func synthetic(t *testing.T) *bench.Bench {
	t.Helper()
	synthOnce.Do(func() { synthBench, synthErr = bench.Load("../../data/synthetic") })
	if synthErr != nil {
		t.Fatal(synthErr)
	}
	return synthBench
}

func mustSpec(t *testing.T, s string) memory.Spec {
	t.Helper()
	m, err := memory.ParseSpec(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// evaluateTwo evaluates memories with two scripted readers on snapshot and
// provenance questions of the synthetic bench.
func evaluateTwo(t *testing.T, mems ...memory.Spec) []eval.Outcome {
	t.Helper()
	rows, err := eval.Evaluate(context.Background(), synthetic(t), eval.Config{Memories: mems, Readers: twoScripted(t),
		Phenomena: []esr.Phenomenon{esr.RevertedRevert}})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// twoScripted are the scripted readers time-sorter and status-reader.
func twoScripted(t *testing.T) []reader.Reader {
	t.Helper()
	var rs []reader.Reader
	for _, p := range []string{"time-sorter", "status-reader"} {
		r, err := sim.NewScripted(p)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return rs
}

func only(rows []eval.Outcome, m memory.Spec) []eval.Outcome {
	var out []eval.Outcome
	for _, o := range rows {
		if o.Memory == m {
			out = append(out, o)
		}
	}
	return out
}

var quick = eval.StatOptions{B: 500, Seed: 1, Level: 0.95}

func TestCompareRunsAgreesWithCompareInsideOneRun(t *testing.T) {
	ma, mb := mustSpec(t, "graphiti@paraphrase=0@dup=0"), mustSpec(t, "graphiti@paraphrase=1@dup=0")
	rows := evaluateTwo(t, ma, mb)
	rc, err := eval.CompareRuns(context.Background(), eval.StoredRunOf("a.jsonl", only(rows, ma)), eval.StoredRunOf("b.jsonl", only(rows, mb)), eval.RunCompareOptions{Stats: quick})
	if err != nil {
		t.Fatal(err)
	}
	if len(rc.Pairs) != 1 || rc.Pairs[0] != (eval.MemoryPair{A: ma, B: mb}) {
		t.Fatalf("pairs %v", rc.Pairs)
	}
	checked := 0
	err = eval.ByFamily(rows, nil, func(fam reader.Family, f eval.Filter) error {
		want, err := eval.Compare(rows, eval.Term{Label: "inside", A: mb, B: ma}, f, quick)
		if err != nil {
			return err
		}
		for _, d := range rc.Diffs {
			if d.Family != fam || d.Stratum != "" || d.QueryType != "" {
				continue
			}
			checked++
			if d.Delta != want.Delta || d.Lo != want.Lo || d.Hi != want.Hi || d.P != want.P || d.N != want.N ||
				d.AccA != want.AccA || d.AccB != want.AccB || d.N10 != want.N10 || d.N01 != want.N01 || !d.Of(want.Term) {
				t.Errorf("%s: across runs %+v, inside one run %+v", fam, d, want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked != 3 {
		t.Fatalf("checked %d family rows, want 3 (pooled and two families)", checked)
	}
}

func TestCompareRunsFlipsAreTheDiscordantPairs(t *testing.T) {
	ma, mb := mustSpec(t, "graphiti@paraphrase=0@dup=0"), mustSpec(t, "graphiti@paraphrase=1@dup=0")
	rows := evaluateTwo(t, ma, mb)
	rc, err := eval.CompareRuns(context.Background(), eval.StoredRunOf("a", only(rows, ma)), eval.StoredRunOf("b", only(rows, mb)), eval.RunCompareOptions{Stats: quick, Bench: synthetic(t)})
	if err != nil {
		t.Fatal(err)
	}
	gained, lost := 0, 0
	for _, f := range rc.Flips {
		switch f.Direction {
		case eval.Gained:
			gained++
		case eval.Lost:
			lost++
		}
		if f.RenderA == "" || f.RenderB == "" {
			t.Errorf("flip %s %s: renders not rebuilt", f.QID, f.Reader)
		}
	}
	if gained+lost == 0 {
		t.Fatal("no flips: the test measures nothing")
	}
	pooled := rc.Diffs[0]
	if pooled.Family != reader.Pooled || pooled.N10 != gained || pooled.N01 != lost {
		t.Errorf("pooled %+v: %d gained, %d lost flips", pooled, gained, lost)
	}
	// Every discordant pair is listed: the flips are exactly the rows
	// whose correctness differs.
	correct := map[string]bool{}
	for _, o := range rows {
		correct[o.QID+"|"+o.Reader.String()+"|"+o.Memory.String()] = o.Correct
	}
	want := 0
	for _, o := range only(rows, ma) {
		if correct[o.QID+"|"+o.Reader.String()+"|"+mb.String()] != o.Correct {
			want++
		}
	}
	if len(rc.Flips) != want {
		t.Errorf("%d flips, %d rows differ", len(rc.Flips), want)
	}
}

func TestCompareRunsPairsEachMemoryWithItself(t *testing.T) {
	m1, m2 := memory.SpecOf(memory.FineLedger), memory.SpecOf(memory.GraphRAGAbstain)
	rows := evaluateTwo(t, m1, m2)
	// B: the same memories, one answer changed.
	b := append([]eval.Outcome(nil), rows...)
	b[0].Correct, b[0].Answer = !b[0].Correct, "changed"
	rc, err := eval.CompareRuns(context.Background(), eval.StoredRunOf("a", rows), eval.StoredRunOf("b", b), eval.RunCompareOptions{Stats: quick})
	if err != nil {
		t.Fatal(err)
	}
	if len(rc.Pairs) != 2 || rc.Pairs[0].A != rc.Pairs[0].B || rc.Pairs[1].A != rc.Pairs[1].B {
		t.Fatalf("pairs %v", rc.Pairs)
	}
	if len(rc.Flips) != 1 || rc.Flips[0].QID != rows[0].QID || rc.Flips[0].AnswerB != "changed" {
		t.Fatalf("flips %+v", rc.Flips)
	}
}

func TestCompareRunsRefusesAnotherBenchmarkNamingTheQuestion(t *testing.T) {
	a := []eval.Outcome{{QID: "q1", Source: "s", Gold: "x", Memory: memory.SpecOf(memory.FineLedger), Reader: reader.Spec{Kind: reader.KindScripted, Name: "t"}, Family: reader.Family{Kind: reader.KindScripted, Name: "t"}}}
	b := append([]eval.Outcome(nil), a...)
	b[0].Gold = "y"
	_, err := eval.CompareRuns(context.Background(), eval.StoredRunOf("a", a), eval.StoredRunOf("b", b), eval.RunCompareOptions{Stats: quick})
	var me *eval.MismatchError
	if !errors.As(err, &me) || me.Field != "benchmark" || !strings.Contains(err.Error(), `qid q1: gold "x" in A, "y" in B`) {
		t.Fatalf("err = %v", err)
	}
	b[0].QID, b[0].Source = "other", "dyknow"
	_, err = eval.CompareRuns(context.Background(), eval.StoredRunOf("a", a), eval.StoredRunOf("b", b), eval.RunCompareOptions{Stats: quick})
	if !errors.As(err, &me) || !strings.Contains(err.Error(), "source s") || !strings.Contains(err.Error(), "source dyknow") {
		t.Fatalf("err = %v", err)
	}
}

func TestCompareRunsRefusesAnotherJudgeNamingBoth(t *testing.T) {
	a := []eval.Outcome{{QID: "q1", Gold: "x", Memory: memory.SpecOf(memory.FineLedger), Reader: reader.Spec{Kind: reader.KindScripted, Name: "t"}, Family: reader.Family{Kind: reader.KindScripted, Name: "t"}}}
	b := append([]eval.Outcome(nil), a...)
	b[0].Judge = "llm:judge-model"
	_, err := eval.CompareRuns(context.Background(), eval.StoredRunOf("a", a), eval.StoredRunOf("b", b), eval.RunCompareOptions{Stats: quick})
	var me *eval.MismatchError
	if !errors.As(err, &me) || me.Field != "judge" || !strings.Contains(err.Error(), "judge exact") || !strings.Contains(err.Error(), "judge llm:judge-model") {
		t.Fatalf("err = %v", err)
	}
}

func TestCompareRunsNamesRowsOnlyOneRunHolds(t *testing.T) {
	m := memory.SpecOf(memory.FineLedger)
	rows := evaluateTwo(t, m)
	a, b := rows[1:], rows[:len(rows)-1]
	rc, err := eval.CompareRuns(context.Background(), eval.StoredRunOf("a", a), eval.StoredRunOf("b", b), eval.RunCompareOptions{Stats: quick})
	if err != nil {
		t.Fatal(err)
	}
	first, last := rows[0], rows[len(rows)-1]
	if len(rc.OnlyA) != 1 || rc.OnlyA[0].QID != last.QID || rc.OnlyA[0].Reader != last.Reader || rc.OnlyA[0].Memory != m {
		t.Errorf("only in A: %+v, want %s %s", rc.OnlyA, last.QID, last.Reader)
	}
	if len(rc.OnlyB) != 1 || rc.OnlyB[0].QID != first.QID || rc.OnlyB[0].Reader != first.Reader {
		t.Errorf("only in B: %+v, want %s %s", rc.OnlyB, first.QID, first.Reader)
	}
	if rc.Diffs[0].N != len(rows)-2 {
		t.Errorf("n = %d, want the %d common pairs", rc.Diffs[0].N, len(rows)-2)
	}
}

func TestCompareRunsControlsSplitTheTotalExactly(t *testing.T) {
	ma, mb := mustSpec(t, "graphiti@paraphrase=0@dup=0"), mustSpec(t, "graphiti@paraphrase=1@dup=0")
	rows := evaluateTwo(t, ma, ma.RenderMatched(), mb, mb.RenderMatched())
	a := append(only(rows, ma), only(rows, ma.RenderMatched())...)
	b := append(only(rows, mb), only(rows, mb.RenderMatched())...)
	rc, err := eval.CompareRuns(context.Background(), eval.StoredRunOf("a", a), eval.StoredRunOf("b", b), eval.RunCompareOptions{Stats: quick, Controls: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rc.Pairs) != 1 || len(rc.Controls) != 3 {
		t.Fatalf("pairs %v, %d splits (want pooled and two families)", rc.Pairs, len(rc.Controls))
	}
	for _, s := range rc.Controls {
		if s.Render.Net+s.Mechanism.Net != s.Total.Net {
			t.Errorf("%s: render %d + mechanism %d ≠ total %d", s.Family, s.Render.Net, s.Mechanism.Net, s.Total.Net)
		}
		if d := s.Render.Delta + s.Mechanism.Delta - s.Total.Delta; d > 1e-12 || d < -1e-12 {
			t.Errorf("%s: render %v + mechanism %v ≠ total %v", s.Family, s.Render.Delta, s.Mechanism.Delta, s.Total.Delta)
		}
		if s.Total.Delta != float64(s.Total.Net)/float64(s.N) {
			t.Errorf("%s: total %v is not net %d over n %d", s.Family, s.Total.Delta, s.Total.Net, s.N)
		}
	}
	// The total over the pairs with controls is the pair's own difference
	// (every pair has its controls here).
	if rc.Controls[0].Total.Delta != rc.Diffs[0].Delta {
		t.Errorf("split total %v, difference %v", rc.Controls[0].Total.Delta, rc.Diffs[0].Delta)
	}
}
