package eval_test

import (
	"fmt"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// BenchmarkPairRows: pairing two memories' rows out of a suite's (6,731
// questions × 15 memories × 5 families, the deployed suite's shape on the
// bundled bench): what every term of a decomposition does before its
// bootstrap. Each row carries a reason of a simulated reader's length (its
// draws); the pairing keeps one stratum's snapshot rows, as Table 2's terms
// do. Uses Compare's pairing (pairedByQuestion, through export_test.go).
func BenchmarkPairRows(b *testing.B) {
	mems := make([]memory.Spec, 15)
	for i := range mems {
		mems[i] = memory.MustParseSpec(fmt.Sprintf("m%02d", i))
	}
	var rows []eval.Outcome
	for q := range 6731 {
		qid := fmt.Sprintf("syn-%05d-snap", q)
		for mi, m := range mems {
			for f := range 5 {
				fam := fmt.Sprintf("f%d", f)
				sp := reader.Spec{Kind: reader.KindSim, Name: "fit-" + fam}
				rows = append(rows, eval.Outcome{QID: qid, Memory: m, Family: reader.Family(sp), Reader: sp, Correct: (q+mi+f)%3 == 0,
					Phenomenon: esr.Phenomena[q%4], QueryType: esr.Snapshot,
					Reason: "sim:fit-" + fam + ": status read (p=0.81); key status not read (p=0.34); order read (p=0.77) at 4 rows → top row of the block: 30 s"})
			}
		}
	}
	for b.Loop() {
		xa, _, _ := eval.PairedByQuestion(rows, mems[1], mems[2], eval.SnapshotIn(esr.Phenomena[1]))
		if len(xa) != 1683*5 {
			b.Fatalf("%d pairs", len(xa))
		}
	}
}
