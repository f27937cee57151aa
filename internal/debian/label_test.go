package debian_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/internal/debian"
)

func TestLabelSequence(t *testing.T) {
	// Cases from spec §8's rule (a value returns after a different one
	// held) and the paper's Figure 1 (30 s → 60 s → 30 s); current and
	// prior runs counted by hand.
	cases := []struct {
		seq          string
		phen         esr.Phenomenon
		kind         string
		cur, prior   string
		from, pfrom  int
		changes, nvs int
	}{
		{"A", esr.Monotonic, debian.KindPureMono, "A", "", 0, 0, 0, 1},
		{"A A A", esr.Monotonic, debian.KindPureMono, "A", "", 0, 0, 0, 1},
		{"A B", esr.Monotonic, debian.KindMonoDeprecated, "B", "A", 1, 0, 1, 2},
		{"A A B B C", esr.Monotonic, debian.KindMonoDeprecated, "C", "B", 4, 2, 2, 3},
		{"A B A", esr.RevertedRevert, debian.KindCurrentReturns, "A", "B", 2, 1, 2, 2},
		{"A B B A A", esr.RevertedRevert, debian.KindCurrentReturns, "A", "B", 3, 1, 2, 2},
		{"A B A C", esr.RevertedRevert, debian.KindEarlierReturn, "C", "A", 3, 2, 3, 3},
		{"A B C A", esr.RevertedRevert, debian.KindCurrentReturns, "A", "C", 3, 2, 3, 3},
		{"unstable experimental unstable", esr.RevertedRevert, debian.KindCurrentReturns, "unstable", "experimental", 2, 1, 2, 2},
	}
	for _, c := range cases {
		l := debian.LabelSequence(strings.Fields(c.seq))
		if l.Phenomenon != c.phen || l.Kind != c.kind || l.Current != c.cur || l.Prior != c.prior ||
			l.CurrentFrom != c.from || (l.HasPrior && l.PriorFrom != c.pfrom) || l.HasPrior != (c.prior != "") ||
			l.Changes != c.changes || l.Distinct != c.nvs {
			t.Errorf("LabelSequence(%s) = %+v", c.seq, l)
		}
	}
}

func ExampleLabelSequence() {
	l := debian.LabelSequence([]string{"Ana", "Ben", "Ben", "Ana"})
	fmt.Println(l.Phenomenon, l.Kind, l.Current, l.Prior)
	// Output: reverted_revert current-returns Ana Ben
}
