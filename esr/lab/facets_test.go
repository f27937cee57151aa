package lab_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// On the Debian benchmark, with the oracle reader (the class's own
// structured answer): wherever the latest upload went to another
// distribution with another version, the single-valued fine ledger answers
// that upload's version or abstains, never the asked distribution's, while
// the faceted ledger answers most of them. The latest upload is found here from the atoms
// directly, not with lab.Elsewhere.
func TestSingleValuedKeyAnswersTheLatestUpload(t *testing.T) {
	b := benchtest.Subset(t, "debian", 80)
	rows, err := lab.Rows(context.Background(), lab.Setup{Bench: b, Readers: []reader.Reader{reader.Oracle{}}})
	if err != nil {
		t.Fatal(err)
	}
	latest := map[string]esr.Atom{} // by qid: the stream's last upload for the QA's key, any distribution
	for _, q := range b.QAs {
		if q.Facet == "" || q.QueryType != esr.Snapshot {
			continue
		}
		var last *esr.Atom
		tie := false
		for i, a := range b.Atoms[q.StreamID] {
			if a.Entity != q.Entity || a.Attribute != q.Attribute {
				continue
			}
			switch {
			case last == nil || a.Timestamp.After(last.Timestamp.Time):
				last, tie = &b.Atoms[q.StreamID][i], false
			case a.Timestamp.Equal(last.Timestamp.Time):
				tie = true
			}
		}
		if last != nil && !tie && last.Facet != q.Facet && last.Value != q.GoldAnswer {
			latest[q.QID] = *last
		}
	}
	if len(latest) < 20 {
		t.Fatalf("only %d questions whose latest upload went elsewhere with another version", len(latest))
	}
	checked, answeredLatest, facetedCorrect := 0, 0, 0
	for _, o := range rows {
		a, ok := latest[o.QID]
		if !ok || !o.Memory.Is(memory.FineLedger) {
			continue
		}
		switch o.Variant {
		case eval.LabelVariant(eval.SingleValuedKey):
			checked++
			// The merged state holds the other distribution's upload last:
			// the ledger answers it, or abstains where the merged history
			// reads as a conflict; never the asked distribution's version.
			if o.Correct || !o.Abstained && o.Answer != a.Value {
				t.Errorf("%s single-valued: answered %q (correct %v), want the latest upload's %q (to %s) or an abstention", o.QID, o.Answer, o.Correct, a.Value, a.Facet)
			}
			if o.Answer == a.Value {
				answeredLatest++
			}
		case eval.Variant{}:
			if o.Correct {
				facetedCorrect++
			}
		}
	}
	if checked != len(latest) || answeredLatest == 0 {
		t.Errorf("checked %d single-valued rows (want %d), %d answered the latest upload's version", checked, len(latest), answeredLatest)
	}
	// The faceted ledger reads the asked distribution's own history (it may
	// still miss, as on any stream); most of these it answers.
	if 2*facetedCorrect <= len(latest) {
		t.Errorf("faceted fine ledger correct on %d of %d questions the single-valued key cannot answer", facetedCorrect, len(latest))
	}
	t.Logf("%d questions whose latest upload went elsewhere: single-valued answered that upload's version on %d, faceted correct on %d",
		len(latest), answeredLatest, facetedCorrect)
}

// FacetCosts pairs every class and query type, and the tables name each.
func TestCostsAndTables(t *testing.T) {
	b := benchtest.Subset(t, "debian", 40)
	s := lab.Setup{Bench: b, Readers: []reader.Reader{reader.Oracle{}}, Stats: eval.StatOptions{B: 200, Seed: 1}}
	rows, err := lab.Rows(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := lab.FacetCosts(rows, s.Stats)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(lab.FacetClasses) * len(lab.QueryTypes); len(cs) != want {
		t.Fatalf("%d comparisons, want %d", len(cs), want)
	}
	for _, c := range cs {
		if c.N == 0 || math.Abs(c.Delta-(c.AccA-c.AccB)) > 1e-9 {
			t.Errorf("%s %s: n %d, Δ %v vs %v − %v", c.Label, c.A, c.N, c.Delta, c.AccA, c.AccB)
		}
	}
	tb := lab.FacetTable(cs, rows, s.Stats)
	if len(tb.Rows) != len(cs) {
		t.Errorf("cost table has %d rows for %d comparisons", len(tb.Rows), len(cs))
	}
	w := lab.WhereTable(rows, lab.Elsewhere(b))
	if got, want := len(w.Rows), 2*2*len(lab.FacetClasses); got != want {
		t.Errorf("where table has %d rows, want %d", got, want)
	}
	for _, s := range lab.FacetSentences(cs) {
		if !strings.Contains(s, "single-valued") {
			t.Errorf("sentence %q", s)
		}
	}
	if _, err := lab.Bench(benchtest.Mini(3)); err == nil {
		t.Error("a benchmark without faceted questions should be an error")
	}
}
