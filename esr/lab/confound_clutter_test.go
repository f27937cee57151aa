package lab

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// clutterRows builds n reverted-revert questions of one benchmark whose
// streams have length events: graphrag-abstain is right on the first
// baseRight, render-only and fine-ledger on the first ctrlRight; the
// d-blind render is tokens long.
func clutterRows(bench string, n, length, tokens, baseRight, ctrlRight int) ([]eval.Outcome, map[string]int) {
	var rows []eval.Outcome
	lengths := map[string]int{}
	for i := range n {
		qid := fmt.Sprintf("%s-%d-q%d", bench, length, i)
		lengths[qid] = length
		for _, m := range []memory.Class{memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger} {
			right := i < ctrlRight
			tok := tokens / 2
			if m == memory.GraphRAGAbstain {
				right, tok = i < baseRight, tokens
			}
			rows = append(rows, eval.Outcome{QID: qid, StreamID: qid, Phenomenon: "reverted_revert", QueryType: "snapshot",
				Memory: memory.SpecOf(m), Reader: reader.Spec{Kind: reader.KindSim, Name: "r"}, Family: reader.Family{Kind: reader.KindSim, Name: "r"}, Correct: right, ContextTokens: tok})
		}
	}
	return rows, lengths
}

func TestClutterTermsAndSentences(t *testing.T) {
	opt := eval.DefaultStats
	opt.B = 2000
	// Synthetic-like: short renders, render term 0.2 at every length.
	syn, synLen := clutterRows("short", 100, 4, 300, 40, 60)
	// Debian-like: long renders, render term 0.2 on short streams and 0.6
	// on long ones.
	deb, debLen := clutterRows("long", 100, 4, 2000, 40, 60)
	more, moreLen := clutterRows("long", 100, 40, 8000, 20, 80)
	deb = append(deb, more...)
	for k, v := range moreLen {
		debLen[k] = v
	}
	cs, err := ClutterTerms("short", syn, synLen, eval.RevertedRevertSnapshot, opt)
	if err != nil {
		t.Fatal(err)
	}
	cd, err := ClutterTerms("long", deb, debLen, eval.RevertedRevertSnapshot, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || len(cd) != 3 {
		t.Fatalf("cells: %d and %d, want 2 (all, one bin) and 3 (all, two bins)", len(cs), len(cd))
	}
	if c := cd[0]; c.Bin != clutterAll || c.Tokens != 5000 || math.Abs(c.Render.Delta-0.4) > 1e-9 || c.Mechanism.Delta != 0 {
		t.Errorf("long, all lengths: %+v, want 5000 tokens, render +0.4, mechanism 0", c)
	}
	if c := cd[2]; eval.LengthBin(40) != c.Bin || math.Abs(c.Render.Delta-0.6) > 1e-9 {
		t.Errorf("long, 40-event bin: %s render %+.3f, want %s +0.6", c.Bin, c.Render.Delta, eval.LengthBin(40))
	}
	ss := ClutterSentences(cs, cd)
	if len(ss) != 2 {
		t.Fatalf("sentences %q, want one between benchmarks and one within long", ss)
	}
	if !strings.Contains(ss[0], "on long (d-blind render 5000 tokens) is +0.400") || !strings.Contains(ss[0], "a difference of +0.200") ||
		!strings.HasSuffix(ss[0], "so it is larger where the render is longer.") {
		t.Errorf("between benchmarks: %q", ss[0])
	}
	if !strings.Contains(ss[1], "a difference of +0.400") || !strings.HasSuffix(ss[1], "larger where the render is longer.") {
		t.Errorf("within long: %q", ss[1])
	}
	// Equal terms: the difference's interval includes 0, and the sentence
	// says no difference is shown.
	same, sameLen := clutterRows("same", 100, 4, 2000, 40, 60)
	c2, err := ClutterTerms("same", same, sameLen, eval.RevertedRevertSnapshot, opt)
	if err != nil {
		t.Fatal(err)
	}
	if s := ClutterSentences(cs, c2)[0]; !strings.HasSuffix(s, "which does not rule out 0: no difference shown.") {
		t.Errorf("equal terms: %q", s)
	}
	tab := ClutterTable("reverted-revert", cs, cd)
	if len(tab.Rows) != 5 || tab.Rows[0][8].Text == "—" || tab.Rows[1][8].Text != "—" {
		t.Errorf("table rows %q: want 5, the paper's cell only on the all-lengths rows", tab.Rows)
	}
}

// TestClutterDifference checks the normal approximation against numbers
// worked by hand: intervals [0.1, 0.3] and [0.0, 0.2] at 95% have standard
// errors 0.1/1.96 each; the difference 0.1 has standard error
// sqrt(2)·0.1/1.96 = 0.0721, so its interval is 0.1 ± 0.1414.
func TestClutterDifference(t *testing.T) {
	a := eval.Comparison{N: 10, Delta: 0.2, Lo: 0.1, Hi: 0.3, Level: 0.95}
	b := eval.Comparison{N: 10, Delta: 0.1, Lo: 0.0, Hi: 0.2, Level: 0.95}
	d, lo, hi, ok := clutterDifference(a, b)
	if !ok || math.Abs(d-0.1) > 1e-12 || math.Abs(lo-(0.1-0.1*math.Sqrt2)) > 1e-9 || math.Abs(hi-(0.1+0.1*math.Sqrt2)) > 1e-9 {
		t.Errorf("difference %v [%v, %v] %v, want 0.1 ± 0.1414", d, lo, hi, ok)
	}
	if z := zOf(0.95); math.Abs(z-1.959963984540054) > 1e-12 { // scipy.stats.norm.ppf(0.975)
		t.Errorf("zOf(0.95) = %v", z)
	}
	b.TooFew = true
	if _, _, _, ok := clutterDifference(a, b); ok {
		t.Error("a term with too few questions compared")
	}
}

// TestClutterByFamilyOpposite: family "up" gains render on B, family
// "down" loses as much, so the pooled difference shows nothing and the
// sentence says the families offset each other.
func TestClutterByFamilyOpposite(t *testing.T) {
	opt := eval.DefaultStats
	opt.B = 2000
	fam := func(rows []eval.Outcome, f string) []eval.Outcome {
		for i := range rows {
			rows[i].Reader = reader.Spec{Kind: reader.KindSim, Name: f}
			rows[i].Family = reader.Family(rows[i].Reader)
		}
		return rows
	}
	a1, _ := clutterRows("a", 150, 4, 300, 40, 80) // render +0.267
	a2, _ := clutterRows("a", 150, 4, 300, 40, 80)
	b1, _ := clutterRows("b", 150, 40, 3000, 20, 100) // render +0.533
	b2, _ := clutterRows("b", 150, 40, 3000, 60, 60)  // render 0
	rowsA := append(fam(a1, "up"), fam(a2, "down")...)
	rowsB := append(fam(b1, "up"), fam(b2, "down")...)
	fcs, err := ClutterByFamily(rowsA, rowsB, eval.RevertedRevertSnapshot, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(fcs) != 3 || fcs[0].Family != reader.Pooled || fcs[1].Family.Name != "down" || fcs[2].Family.Name != "up" {
		t.Fatalf("families %+v, want pooled, down, up", fcs)
	}
	if !(fcs[2].Lo > 0) || !(fcs[1].Hi < 0) || !(fcs[0].Lo <= 0 && fcs[0].Hi >= 0) {
		t.Errorf("differences: pooled [%.3f, %.3f], down [%.3f, %.3f], up [%.3f, %.3f]; want up > 0, down < 0, pooled covering 0",
			fcs[0].Lo, fcs[0].Hi, fcs[1].Lo, fcs[1].Hi, fcs[2].Lo, fcs[2].Hi)
	}
	s := ClutterFamilySentence(fcs, "a", "b")
	for _, want := range []string{"larger on b: sim:up (+0.267", "smaller on b: sim:down (-0.267", "(no difference shown): families that move in opposite directions offset each other"} {
		if !strings.Contains(s, want) {
			t.Errorf("sentence %q lacks %q", s, want)
		}
	}
	if tab := ClutterFamilyTable(fcs, "a", "b", "rr"); len(tab.Rows) != 3 || tab.Rows[2][7].Text != "larger on b" {
		t.Errorf("table rows %q", tab.Rows)
	}
}
