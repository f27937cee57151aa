package sim

import (
	"flag"
	"math"
	"os"
	"strings"
	"testing"
)

// TestTable5CompositionShare: the share is (clean − ours) / clean over the
// Table 5 cells both benches have, other tables and unmatched cells left
// out; the sentence states the measured numbers, and a bench missed by more
// says composition adds to the miss.
func TestTable5CompositionShare(t *testing.T) {
	clean := []ValidationCell{
		{Table: "Table 5", Cell: "monotonic fine-ledger", Ours: 0.9, Paper: 0.6},       // |e| 0.3
		{Table: "Table 5", Cell: "refines fine-ledger", Ours: 0.5, Paper: 0.6},         // |e| 0.1
		{Table: "Table 5", Cell: "only-clean graphrag-abstain", Ours: 0.9, Paper: 0.1}, // no partner
		{Table: "Table 2", Cell: "render", Ours: 0.3, Paper: 0.159, Interval: true},
	}
	ours := []ValidationCell{
		{Table: "Table 5", Cell: "monotonic fine-ledger", Ours: 0.7, Paper: 0.6}, // |e| 0.1
		{Table: "Table 5", Cell: "refines fine-ledger", Ours: 0.6, Paper: 0.6},   // |e| 0
		{Table: "Table 2", Cell: "render", Ours: 0.16, Paper: 0.159, Interval: true},
	}
	s, ok := table5CompositionShare(clean, ours)
	// clean mean (0.3 + 0.1) / 2 = 0.2; ours (0.1 + 0) / 2 = 0.05; share 0.75
	if !ok || s.N != 2 || math.Abs(s.Clean-0.2) > 1e-12 || math.Abs(s.Ours-0.05) > 1e-12 || math.Abs(s.Share-0.75) > 1e-12 {
		t.Fatalf("share %+v (%v), want clean 0.2, ours 0.05, share 0.75 over 2 cells", s, ok)
	}
	sent := CompositionSentence(clean, ours, "b")
	for _, want := range []string{"2 cells", "0.200 on the clean bench", "0.050 on b", "removes 75%"} {
		if !strings.Contains(sent, want) {
			t.Errorf("sentence lacks %q: %s", want, sent)
		}
	}
	if sent := CompositionSentence(ours, clean, "b"); !strings.Contains(sent, "adds 300%") {
		t.Errorf("a bench missed by more: %s", sent)
	}
	if _, ok := table5CompositionShare(nil, ours); ok {
		t.Error("a share without clean cells")
	}
	tab := CompositionTable(clean, ours, "b", func(c ValidationCell) bool { return c.Table == "Table 2" }).Text()
	for _, want := range []string{"(fitted)", "mean |error| over 2 cells", "0.200", "0.050", "SIMULATED"} {
		if !strings.Contains(tab, want) {
			t.Errorf("table lacks %q:\n%s", want, tab)
		}
	}
	if strings.Contains(tab, "only-clean") {
		t.Errorf("a cell the bundled bench lacks is listed:\n%s", tab)
	}
}

// TestTable5MissCause: the miss's cause follows the measured share: the
// bench's composition above half, the reader model otherwise, and the
// reader model (said to be by default) when the clean bench was not
// measured.
func TestTable5MissCause(t *testing.T) {
	clean := []ValidationCell{{Table: "Table 5", Cell: "monotonic fine-ledger", Ours: 0.9, Paper: 0.5}}
	for _, c := range []struct {
		ours  float64
		cause string
	}{{0.6, causeBench}, {0.8, causeReaders}} {
		ours := []ValidationCell{{Table: "Table 5", Cell: "monotonic fine-ledger", Ours: c.ours, Paper: 0.5}}
		cause, s := table5Miss(ours, nil, clean)
		if cause != c.cause || !strings.Contains(s, "(cause: "+c.cause+")") {
			t.Errorf("ours %.1f: cause %q, want %q: %s", c.ours, cause, c.cause, s)
		}
	}
	cause, s := table5Miss(clean, nil, nil)
	if cause != causeReaders || !strings.Contains(s, "not measured") {
		t.Errorf("no clean cells: cause %q: %s", cause, s)
	}
}

// TestDifferencesShowsComposition: docs/differences.md carries the shipped
// validation's composition comparison as compositionMarkdown writes it,
// between its markers (regenerate: `esr calibrate --validate`, then copy
// compositionMarkdown's output there; this test prints it).
var updateDifferences = flag.Bool("update-differences", false, "rewrite docs/differences.md's composition block from the shipped validation")

func TestDifferencesShowsComposition(t *testing.T) {
	v := ShippedValidation()
	if len(v.CleanBench) == 0 {
		t.Fatal("the shipped validation has no clean-bench cells: rerun esr calibrate --validate")
	}
	want := compositionMarkdown(v, Calibrated(), Calibrated().Bench)
	doc, err := os.ReadFile("../../../docs/differences.md")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- composition: begin -->\n", "<!-- composition: end -->"
	_, rest, ok := strings.Cut(string(doc), begin)
	got, _, ok2 := strings.Cut(rest, end)
	if !ok || !ok2 {
		t.Fatalf("docs/differences.md has no %q … %q block", begin, end)
	}
	if *updateDifferences {
		head, _, _ := strings.Cut(string(doc), begin)
		if err := os.WriteFile("../../../docs/differences.md", []byte(head+begin+strings.TrimSpace(want)+"\n"+end+strings.SplitN(rest, end, 2)[1]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if strings.TrimSpace(got) != strings.TrimSpace(want) {
		t.Errorf("docs/differences.md's composition block is out of date (go test ./esr/reader/sim -run TestDifferencesShowsComposition -update-differences); it should read:\n%s", want)
	}
}
