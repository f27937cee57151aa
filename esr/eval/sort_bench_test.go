package eval

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// suiteRows are rows shaped as the deployed suite's on the bundled bench
// (6,731 questions × 15 memories × 5 families), in the order a run's
// streams finish: shuffled by stream.
func suiteRows() []Outcome {
	var rows []Outcome
	r := rand.New(rand.NewPCG(1, 2))
	for _, q := range r.Perm(6731) {
		qid := fmt.Sprintf("syn-gh-%04d-k%d-snap", q/5, q%5)
		for m := range 15 {
			spec := memory.MustParseSpec(fmt.Sprintf("m%02d", m))
			for f := range 5 {
				fam := reader.Spec{Kind: reader.KindSim, Name: fmt.Sprintf("fit-%d", f)}
				rows = append(rows, Outcome{QID: qid, Memory: spec, Family: reader.Family(fam), Reader: fam})
			}
		}
	}
	return rows
}

// BenchmarkSortedOutcomes: ordering a suite's rows as Evaluate returns
// them.
func BenchmarkSortedOutcomes(b *testing.B) {
	rows := suiteRows()
	for b.Loop() {
		sortedOutcomes(rows)
	}
}

// TestSortedOutcomesOrder: the rows come out ordered by the printed qid,
// memory, reader and condition, ties in input order.
func TestSortedOutcomesOrder(t *testing.T) {
	rows := suiteRows()[:20000]
	rows[5].Variant = Variant{Label: "b"}
	rows[7].Variant = Variant{Label: "a"}
	for i := range rows {
		rows[i].Answer = fmt.Sprint(i)
	}
	got := sortedOutcomes(rows)
	want := slices.Clone(rows)
	slices.SortStableFunc(want, func(a, b Outcome) int {
		for _, c := range [][2]string{{a.QID, b.QID}, {a.Memory.String(), b.Memory.String()}, {a.Reader.String(), b.Reader.String()}, {a.Variant.String(), b.Variant.String()}} {
			if c[0] != c[1] {
				if c[0] < c[1] {
					return -1
				}
				return 1
			}
		}
		return 0
	})
	for i := range want {
		if got[i].Answer != want[i].Answer {
			t.Fatalf("row %d: got input row %s, want %s", i, got[i].Answer, want[i].Answer)
		}
	}
}
