package paper

import (
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/report"
)

// Key names one published cell: the table it belongs to ("t2", "rr", "f3",
// "t5", …) and the term within it ("render", "reverted_revert/fine-ledger",
// …). Its published 95% interval, where the paper gives one, is at Lo and
// Hi.
type Key struct {
	Table string
	Term  string
}

// ParseKey splits "TABLE/TERM" at its first slash (the printed form).
func ParseKey(s string) Key {
	t, term, _ := strings.Cut(s, "/")
	return Key{Table: t, Term: term}
}

// String is the printed form "TABLE/TERM".
func (k Key) String() string { return k.Table + "/" + k.Term }

// Lo is the key of the lower bound of k's published 95% interval.
func (k Key) Lo() Key { return Key{Table: k.Table, Term: k.Term + "-lo"} }

// Hi is the key of the upper bound of k's published 95% interval.
func (k Key) Hi() Key { return Key{Table: k.Table, Term: k.Term + "-hi"} }

// Lookup returns the paper's number for k, and whether it has one.
func Lookup(k Key) (float64, bool) {
	v, ok := numbers[k.String()]
	return v, ok
}

// Number returns the paper's number for k (0 when it has none).
func Number(k Key) float64 { return numbers[k.String()] }

// Interval returns the paper's published 95% interval for k, and whether it
// gives one.
func Interval(k Key) (lo, hi float64, ok bool) {
	lo, ok1 := Lookup(k.Lo())
	hi, ok2 := Lookup(k.Hi())
	return lo, hi, ok1 && ok2
}

// Cell formats the paper's number for k (signed, or as a proportion), or
// "—" when the paper has none.
func Cell(k Key, signed bool) string {
	v, ok := Lookup(k)
	if !ok {
		return "—"
	}
	if signed {
		return report.Signed(v)
	}
	return eval.PropCell(v)
}

// PValues are the paper's Table 20 permutation p-values per family
// (auxiliary high-noise split).
var PValues = Table20
