package lab

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// armed is a reader that counts its calls and fails the test once armed.
type armed struct {
	reader.Reader
	t     *testing.T
	on    atomic.Bool
	calls atomic.Int64
}

func (a *armed) Read(ctx context.Context, in reader.Input) (reader.Output, error) {
	a.calls.Add(1)
	if a.on.Load() {
		a.t.Errorf("reader %s asked about %s after the run", a.Spec(), in.QID)
	}
	return a.Reader.Read(ctx, in)
}

// simRows evaluates the render-confound memories on b's reverted-revert
// snapshot QAs with a sim reader that states both values or hedges.
func simRows(t *testing.T, spec string) ([]eval.Outcome, *armed) {
	t.Helper()
	b := benchtest.Data(t, "synthetic")
	r, err := sim.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	a := &armed{Reader: r, t: t}
	rows, err := eval.Evaluate(context.Background(), b, eval.Config{Memories: paper.RenderConfoundMemories, Readers: []reader.Reader{a},
		QueryTypes: []esr.QueryType{esr.Snapshot}, Phenomena: []esr.Phenomenon{esr.RevertedRevert}})
	if err != nil {
		t.Fatal(err)
	}
	a.on.Store(true)
	return rows, a
}

func TestRejudge(t *testing.T) {
	ctx := context.Background()
	b := benchtest.Data(t, "synthetic")
	rows, rd := simRows(t, "careful@both=0.3@hedge=0.2")
	calls := rd.calls.Load()
	// The run's own judge again: every verdict and label is reproduced.
	same, err := eval.RejudgeRows(ctx, b, rows, judge.Exact{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		o, n := rows[i], same[i]
		if n.Judge != "exact" {
			t.Fatalf("rescored row names judge %q", n.Judge)
		}
		n.Judge = ""
		if o != n {
			t.Fatalf("rejudging with the run's judge changed row %d:\n%+v\n%+v", i, o, n)
		}
	}
	// Another judge: identical answers, new verdicts.
	lenient, err := eval.RejudgeRows(ctx, b, rows, judge.ExactLenient{})
	if err != nil {
		t.Fatal(err)
	}
	changed, both := 0, 0
	for i := range rows {
		o, n := rows[i], lenient[i]
		if o.Answer != n.Answer || o.RawAnswer != n.RawAnswer || o.Reason != n.Reason || o.QID != n.QID || o.Memory != n.Memory || o.Reader != n.Reader {
			t.Fatalf("row %d: stored answer changed: %+v → %+v", i, o, n)
		}
		if strings.HasPrefix(o.Answer, "was ") {
			both++
			if o.Correct || !n.Correct && strings.HasSuffix(o.Answer, ", now "+o.Gold) {
				t.Errorf("%q (gold %q): exact %v, lenient %v", o.Answer, o.Gold, o.Correct, n.Correct)
			}
		}
		if o.Correct != n.Correct {
			changed++
			if o.Correct {
				t.Errorf("lenient rejects what exact accepts: %q", o.Answer)
			}
		}
	}
	if both == 0 || changed == 0 {
		t.Errorf("%d both-value answers, %d verdicts changed", both, changed)
	}
	if rd.calls.Load() != calls {
		t.Errorf("rejudging asked the reader %d times", rd.calls.Load()-calls)
	}
	// Resumable: rows already rescored are skipped; a file sink appends.
	out := filepath.Join(t.TempDir(), "rejudged.jsonl")
	sink, err := eval.OpenRescoredSink(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := eval.Rejudge(ctx, b, rows[:10], judge.ExactLenient{}, sink, eval.RejudgeOptions{}); err != nil {
		t.Fatal(err)
	}
	sink.Close()
	prev, _ := eval.ReadOutcomes(out)
	done := eval.Keys(prev)
	if sink, err = eval.OpenRescoredSink(out); err != nil {
		t.Fatal(err)
	}
	if err := eval.Rejudge(ctx, b, rows, judge.ExactLenient{}, sink, eval.RejudgeOptions{Done: done, Concurrency: 3}); err != nil {
		t.Fatal(err)
	}
	sink.Close()
	all, _ := eval.ReadOutcomes(out)
	if len(all) != len(rows) {
		t.Fatalf("%d rows after resume, want %d", len(all), len(rows))
	}
	for i := range all {
		if all[i] != lenient[i] {
			t.Fatalf("resumed row %d differs from the one-shot rescoring", i)
		}
	}
	// Rows of another bench are refused, naming the row.
	bad := append([]eval.Outcome(nil), rows[:3]...)
	bad[2].QID = "nope"
	if _, err := eval.RejudgeRows(ctx, b, bad, judge.Exact{}); err == nil || !strings.Contains(err.Error(), "row 3 (qid nope)") {
		t.Errorf("unknown qid: %v", err)
	}
	bad[2] = rows[2]
	bad[1].Gold = "something else"
	if _, err := eval.RejudgeRows(ctx, b, bad, judge.Exact{}); err == nil || !strings.Contains(err.Error(), "row 2") || !strings.Contains(err.Error(), "gold") {
		t.Errorf("gold mismatch: %v", err)
	}
}

func TestLabelRowsAndStaleMetric(t *testing.T) {
	b := benchtest.Data(t, "synthetic")
	rows, _ := simRows(t, "date-sorter")
	// Rows written before labels existed get the same labels back.
	bare := append([]eval.Outcome(nil), rows...)
	for i := range bare {
		bare[i].Label = ""
	}
	if _, err := OnMetric(bare, MetricStale); err == nil {
		t.Error("stale metric on unlabelled rows")
	}
	labelled := eval.LabelRows(b, bare)
	for i := range rows {
		if labelled[i] != rows[i] {
			t.Fatalf("LabelRows: %+v, eval wrote %+v", labelled[i], rows[i])
		}
	}
	rs, err := StaleRates(rows, nil)
	if err != nil {
		t.Fatal(err)
	}
	stale := 0
	for _, r := range rs {
		if r.Correct+r.Outdated+r.Abstained+r.Wrong != r.N {
			t.Errorf("%s: labels do not sum to %d", r.Memory, r.N)
		}
		stale += r.Outdated
	}
	if stale == 0 {
		t.Fatal("no outdated answer from a date-sorter that fails its sorts")
	}
	// The decomposition on stale rate is the decomposition of the 0/1
	// outdated indicator.
	cs, err := CompareTermsOn(MetricStale, rows, eval.RenderMatched, nil, eval.StatOptions{B: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	staleRate := func(m memory.Spec) float64 {
		var k, n float64
		for _, o := range rows {
			if o.Memory == m {
				n++
				k += b2f(o.Label == judge.LabelOutdated)
			}
		}
		return k / n
	}
	for _, c := range cs {
		// Every memory answered every question, so the paired Δ is the
		// difference of the two stale rates.
		if d := c.Delta - (staleRate(c.A) - staleRate(c.B)); d > 1e-12 || d < -1e-12 {
			t.Errorf("%s: Δ stale %v, rates %v − %v", c.Label, c.Delta, staleRate(c.A), staleRate(c.B))
		}
	}
	if _, err := OnMetric(rows, "precision"); err == nil {
		t.Error("unknown metric accepted")
	}
	if s := StaleSummary(rs, cs); !strings.Contains(s, "answers an outdated value most often") {
		t.Errorf("summary %q", s)
	}
}

func TestJudgeTerms(t *testing.T) {
	ctx := context.Background()
	b := benchtest.Data(t, "synthetic")
	rows, _ := simRows(t, "careful@both=0.3@hedge=0.2")
	lenient, err := eval.RejudgeRows(ctx, b, rows, judge.ExactLenient{})
	if err != nil {
		t.Fatal(err)
	}
	opt := eval.StatOptions{B: 500, Seed: 1}
	jts, err := JudgeTerms([]JudgedRows{{"exact", rows}, {"exact-lenient", lenient}}, eval.RenderMatched, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for _, jt := range jts {
		s := jt.Shift[0]
		// Every pair is scored by both judges, so the judge term is the
		// difference of the two terms.
		if d := s.Delta - (jt.Under[1].Delta - jt.Under[0].Delta); d > 1e-12 || d < -1e-12 || s.N != jt.Under[0].N {
			t.Errorf("%s: judge term %v, terms %v and %v", jt.Term.Label, s.Delta, jt.Under[1].Delta, jt.Under[0].Delta)
		}
		if s.ChangedAnswers > 0 {
			moved++
		}
	}
	if moved == 0 {
		t.Error("exact-lenient rescored no pair differently")
	}
	// The same rows under two names: no judge term.
	zero, err := JudgeTerms([]JudgedRows{{"exact", rows}, {"exact again", rows}}, eval.RenderMatched, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, jt := range zero {
		if s := jt.Shift[0]; s.Delta != 0 || s.Lo != 0 || s.Hi != 0 || s.ChangedAnswers != 0 {
			t.Errorf("%s: judge term %+v between identical rows", jt.Term.Label, s)
		}
	}
	tab := JudgeTermTable(jts, "reverted-revert", rows)
	if len(tab.Rows) != len(eval.RenderMatched) || !strings.Contains(tab.Rows[0][len(tab.Rows[0])-1].Text, "+0.159 → +0.164") {
		t.Errorf("table: %v", tab.Rows)
	}
	if s := JudgeTermSummary(jts); !strings.Contains(s, "\n- render: under exact-lenient ") || !strings.Contains(s, " judge terms (") {
		t.Errorf("summary %q", s)
	}
	if _, err := JudgeTerms([]JudgedRows{{"exact", rows}}, eval.RenderMatched, nil, opt); err == nil {
		t.Error("one judge accepted")
	}
}
