package lab_test

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// `esr eval --relation-noise P` corrupts exactly what the noise suite
// corrupts at level P (same seed, same atom pairs): its fine-ledger and
// coarse-retain rows on reverted-revert snapshot questions are the
// suite's rows at that level, condition included.
func TestEvalRelationNoiseIsTheNoiseSuitesCorruption(t *testing.T) {
	b := benchtest.Subset(t, "synthetic", 60)
	s := lab.Setup{Bench: b, Readers: []reader.Reader{reader.Oracle{}}}
	sweep, err := lab.NoiseSweep(context.Background(), s, eval.RelationNoiseAxis, []float64{0.2}, eval.NoiseSeed)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := eval.UnderRelationNoise(eval.Config{Memories: memory.Specs(memory.FineLedger, memory.CoarseRetain), Readers: s.Readers,
		QueryTypes: []esr.QueryType{esr.Snapshot}, Phenomena: []esr.Phenomenon{esr.RevertedRevert}}, 0.2, eval.NoiseSeed)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := eval.Evaluate(context.Background(), b, cfg)
	if err != nil {
		t.Fatal(err)
	}
	clean, err := eval.Evaluate(context.Background(), b, eval.Config{Memories: cfg.Memories, Readers: cfg.Readers, QueryTypes: cfg.QueryTypes, Phenomena: cfg.Phenomena})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 || len(rows) != len(sweep) || len(rows) != len(clean) {
		t.Fatalf("%d rows, the sweep %d, clean %d", len(rows), len(sweep), len(clean))
	}
	changed := 0
	for i := range rows {
		if rows[i] != sweep[i] {
			t.Fatalf("row %d: eval %+v, noise suite %+v", i, rows[i], sweep[i])
		}
		if rows[i].Variant.String() != "relation-noise p=0.2" {
			t.Fatalf("row %d: condition %q", i, rows[i].Variant)
		}
		if rows[i].Answer != clean[i].Answer {
			changed++
		}
	}
	if changed == 0 {
		t.Error("no answer moved at relation noise 0.2")
	}
}

// A suite run under a run-wide relation noise records the level beside
// each row's own condition and in each table's notes; its rows are not
// the clean run's. A suite with relation sources of its own refuses it.
func TestSuiteUnderRelationNoiseSaysSo(t *testing.T) {
	b := benchtest.Subset(t, "synthetic", 60)
	clean := lab.Setup{Bench: b, Readers: []reader.Reader{reader.Oracle{}}, Stats: eval.StatOptions{B: 50}}
	noisy, err := clean.WithRelationNoise(0.2, eval.NoiseSeed)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := clean.WithRelationNoise(0.25, eval.NoiseSeed); err == nil {
		t.Error("level 0.25 accepted: a row's condition keeps one decimal")
	}
	for _, name := range []string{"formats", "strata"} {
		want, err := lab.SuiteID(name).Suite().Run(context.Background(), clean)
		if err != nil {
			t.Fatal(err)
		}
		got, err := lab.SuiteID(name).Suite().Run(context.Background(), noisy)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Rows) != len(want.Rows) || len(got.Tables) != len(want.Tables) || len(got.Tables) == 0 {
			t.Fatalf("%s: %d rows and %d tables under noise, %d and %d clean", name, len(got.Rows), len(got.Tables), len(want.Rows), len(want.Tables))
		}
		moved := 0
		for i := range got.Rows {
			g, w := got.Rows[i], want.Rows[i]
			if v, _ := w.Variant.Beside(eval.Noise{Kind: "relation-noise", P: 0.2}); !g.Variant.Equal(v) {
				t.Fatalf("%s row %d: condition %q, want %q", name, i, g.Variant, v)
			}
			if g.Answer != w.Answer {
				moved++
			}
		}
		if moved == 0 {
			t.Errorf("%s: no answer moved under relation noise 0.2", name)
		}
		for _, tb := range got.Tables {
			if !strings.Contains(strings.Join(tb.Notes, " "), `rows' condition says "relation-noise p=0.2"`) {
				t.Errorf("%s: table %s does not say it ran under relation noise: %q", name, tb.ID, tb.Notes)
			}
		}
	}
	for _, name := range []string{"noise", "boundary", "deployed"} {
		if _, err := lab.SuiteID(name).Suite().Run(context.Background(), noisy); err == nil || !strings.Contains(err.Error(), "relation sources of its own") {
			t.Errorf("%s under relation noise: %v", name, err)
		}
	}
}
