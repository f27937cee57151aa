package eval_test

import (
	"context"
	"errors"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
)

// Two runs scored by different judges are refused; with Rejudge both are
// rescored first, and the comparison is the one of two runs scored alike.
func TestCompareRunsRejudgeRescoresBothRunsFirst(t *testing.T) {
	ma, mb := mustSpec(t, "graphiti@paraphrase=0@dup=0"), mustSpec(t, "graphiti@paraphrase=1@dup=0")
	rows := evaluateTwo(t, ma, mb)
	lenient := judge.ExactLenient{}
	b, err := eval.RejudgeRows(context.Background(), synthetic(t), only(rows, mb), lenient)
	if err != nil {
		t.Fatal(err)
	}
	a := only(rows, ma)
	_, err = eval.CompareRuns(context.Background(), eval.StoredRunOf("a", a), eval.StoredRunOf("b", b), eval.RunCompareOptions{Stats: quick})
	var me *eval.MismatchError
	if !errors.As(err, &me) || me.Field != "judge" {
		t.Fatalf("runs under exact and %s: err = %v, want a judge mismatch", lenient.Name(), err)
	}
	got, err := eval.CompareRuns(context.Background(), eval.StoredRunOf("a", a), eval.StoredRunOf("b", b),
		eval.RunCompareOptions{Stats: quick, Bench: synthetic(t), Rejudge: lenient})
	if err != nil {
		t.Fatal(err)
	}
	// The same comparison from rows both rescored beforehand.
	ra, err := eval.RejudgeRows(context.Background(), synthetic(t), a, lenient)
	if err != nil {
		t.Fatal(err)
	}
	want, err := eval.CompareRuns(context.Background(), eval.StoredRunOf("a", ra), eval.StoredRunOf("b", b), eval.RunCompareOptions{Stats: quick})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Diffs) == 0 || len(got.Diffs) != len(want.Diffs) {
		t.Fatalf("%d differences, want %d", len(got.Diffs), len(want.Diffs))
	}
	for i := range want.Diffs {
		g, w := got.Diffs[i], want.Diffs[i]
		if g.AccA != w.AccA || g.AccB != w.AccB || g.Lo != w.Lo || g.Hi != w.Hi || g.P != w.P {
			t.Errorf("difference %d: %+v, want %+v", i, g, w)
		}
	}
}

// Runs that hold no control rows get them evaluated, over the benchmark
// by the rows' own readers, and the split still adds up to the total.
func TestCompareRunsEvaluatesMissingControls(t *testing.T) {
	ma, mb := mustSpec(t, "graphiti@paraphrase=0@dup=0"), mustSpec(t, "graphiti@paraphrase=1@dup=0")
	rows := evaluateTwo(t, ma, mb)
	rc, err := eval.CompareRuns(context.Background(), eval.StoredRunOf("a", only(rows, ma)), eval.StoredRunOf("b", only(rows, mb)),
		eval.RunCompareOptions{Stats: quick, Controls: true, Bench: synthetic(t), Readers: twoScripted(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rc.Controls) == 0 {
		t.Fatalf("no split; notes: %v", rc.Notes)
	}
	// The controls evaluated here are the ones evaluating all four at once gives.
	both := evaluateTwo(t, ma, ma.RenderMatched(), mb, mb.RenderMatched())
	a := append(only(both, ma), only(both, ma.RenderMatched())...)
	b := append(only(both, mb), only(both, mb.RenderMatched())...)
	want, err := eval.CompareRuns(context.Background(), eval.StoredRunOf("a", a), eval.StoredRunOf("b", b), eval.RunCompareOptions{Stats: quick, Controls: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Controls) != len(rc.Controls) {
		t.Fatalf("%d splits, want %d", len(rc.Controls), len(want.Controls))
	}
	for i, s := range rc.Controls {
		if !s.Ran {
			t.Errorf("%s: split not marked as run here", s.Family)
		}
		if s.Render.Net+s.Mechanism.Net != s.Total.Net {
			t.Errorf("%s: render %d + mechanism %d ≠ total %d", s.Family, s.Render.Net, s.Mechanism.Net, s.Total.Net)
		}
		w := want.Controls[i]
		if s.Render.Net != w.Render.Net || s.Mechanism.Net != w.Mechanism.Net || s.N != w.N {
			t.Errorf("%s: render %d, mechanism %d over %d; evaluated together: %d, %d over %d",
				s.Family, s.Render.Net, s.Mechanism.Net, s.N, w.Render.Net, w.Mechanism.Net, w.N)
		}
	}
}
