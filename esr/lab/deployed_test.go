package lab

import (
	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/benchtest"

	"context"
	"math"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

func TestRevertedRevertTable(t *testing.T) {
	tb, err := RevertedRevertTable(context.Background(), DeployedClasses(""), []string{"status-reader"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range tb.Texts() {
		got[r[0]] = strings.Join(r[1:], " ")
	}
	// graphiti's default dup=1 reuses A's closed edge whatever the text;
	// the content-matched baseline lacks the restored 30 s.
	if got[memory.Graphiti] != "paraphrase=0.5, dup=1, seed=0 60 s 30 s 60 s" || got[memory.Mem0Update] != "paraphrase=0.5, dedup-k=10, created-at=ingestion, skip=0, seed=0 30 s ABSTAIN 30 s" ||
		!strings.HasPrefix(got[memory.MustParseSpec(memory.Graphiti).ContentMatched().String()], "atoms kept by graphiti~render-only, paraphrase=0.5, dup=1, seed=0 ABSTAIN") {
		t.Errorf("rows %v", got)
	}
}

func TestDeployedDecompositionSentences(t *testing.T) {
	b := bench.Figure1Bench()
	r, _ := sim.NewScripted("status-reader")
	classes := []memory.Class{memory.Graphiti, memory.Mem0Update}
	rows, err := evaluateDeployed(context.Background(), b, memory.Specs(classes...), []reader.Reader{r, reader.Oracle{}})
	if err != nil {
		t.Fatal(err)
	}
	tb, sentences, err := decompositionTable(rows, "figure1", memory.Specs(classes...), eval.StatOptions{B: 200, Seed: 1})
	if err != nil || len(tb.Rows) == 0 || len(sentences) != len(tb.Rows) {
		t.Fatalf("%v %v %v", tb, sentences, err)
	}
	for _, w := range []string{"graphiti (paraphrase=0.5, dup=1, seed=0) against graphrag-abstain", "content (", "render (", "mechanism ("} {
		if !strings.Contains(sentences[0], w) {
			t.Errorf("sentence %q lacks %q", sentences[0], w)
		}
	}
}

// The deployed decomposition's terms add up: content + render + mechanism =
// total over the same pairs, in every scope; a class that keeps every atom
// has a content term of exactly 0 (no pair differs), and the template's
// fast path and hash dedup give a nonzero one.
func TestDeployedTermsAddUp(t *testing.T) {
	b := benchtest.Subset(t, "synthetic", 60)
	keepsAll := memory.MustParseSpec(memory.Mem0V3 + "@dedup-k=0")
	template := memory.MustParseSpec(memory.Graphiti + "@paraphrase=0")
	classes := []memory.Spec{memory.SpecOf(memory.Graphiti), memory.SpecOf(memory.Mem0V3), memory.MustParseSpec(memory.Mem0Update + "@paraphrase=0.3"), keepsAll, template}
	var rs []reader.Reader
	for _, p := range []string{"status-reader", "time-sorter"} {
		r, err := sim.NewScripted(p)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	rows, err := evaluateDeployed(context.Background(), b, classes, append(rs, reader.Oracle{}))
	if err != nil {
		t.Fatal(err)
	}
	opt := eval.StatOptions{B: 200, Seed: 1}
	for _, c := range classes {
		for _, sc := range deployedScopes {
			d, err := deployedTermsOf(rows, c, sc, opt)
			if err != nil {
				t.Fatalf("%s %s: %v", c, scopeName(sc), err)
			}
			if !d.HasContent || d.Content.N != d.Total.N || d.Render.N != d.Total.N || d.Mechanism.N != d.Total.N {
				t.Fatalf("%s %s: pairs total %d content %d render %d mechanism %d", c, scopeName(sc), d.Total.N, d.Content.N, d.Render.N, d.Mechanism.N)
			}
			if sum := d.Content.Delta + d.Render.Delta + d.Mechanism.Delta; math.Abs(sum-d.Total.Delta) > 1e-12 {
				t.Errorf("%s %s: content %+.4f + render %+.4f + mechanism %+.4f = %+.4f, total %+.4f",
					c, scopeName(sc), d.Content.Delta, d.Render.Delta, d.Mechanism.Delta, sum, d.Total.Delta)
			}
			discordant := d.Content.N10 + d.Content.N01
			switch {
			case c == keepsAll && (d.Content.Delta != 0 || discordant != 0):
				t.Errorf("%s keeps every atom, content term %+.4f with %d discordant pairs", c, d.Content.Delta, discordant)
			case c == template && sc.Stratum == esr.RevertedRevert && discordant == 0:
				t.Errorf("%s: the fast path drops restored facts, yet no reverted-revert pair moves", c)
			}
		}
	}
}

func TestDriftTable(t *testing.T) {
	old, err := bench.Load("../../data/dyknow")
	if err != nil {
		t.Fatal(err)
	}
	nw, err := bench.Load("../../data/vdyknow")
	if err != nil {
		t.Fatal(err)
	}
	a, b := DriftTable(old, nw, "DyKnow", "V-DyKnow"), DriftTable(old, nw, "DyKnow", "V-DyKnow")
	if a.Markdown() != b.Markdown() || len(a.Rows) == 0 {
		t.Fatalf("drift table empty or not deterministic")
	}
	if !strings.Contains(a.Markdown(), "| United States of America | President of the United States | Joe Biden | Donald Trump | returned to a value DyKnow already had |") {
		t.Errorf("drift table lacks the US presidency:\n%s", a.Markdown())
	}
}

// The closing clause names the largest term that is distinguishable from
// zero, and says when the terms offset each other.
func TestDecompositionSentenceNamesTheLargestTerm(t *testing.T) {
	c := func(d, lo, hi float64) eval.Comparison {
		return eval.Comparison{Term: eval.Term{B: paper.DeployedBaseline}, N: 100, Delta: d, Lo: lo, Hi: hi}
	}
	for want, d := range map[string]deployedTerms{
		"The largest term is content (-0.600): what separates it from the baseline is mostly lost content.": {Class: memory.SpecOf(memory.Graphiti), Assumptions: "dup=1", HasContent: true,
			Total: c(-0.6, -0.7, -0.5), Content: c(-0.6, -0.7, -0.5), Render: c(0, -0.01, 0.01), Mechanism: c(0, -0.01, 0.01)},
		"The terms offset each other: the largest is mechanism (+0.200), yet the total is not distinguishable from zero.": {Class: memory.SpecOf(memory.Graphiti), HasContent: true,
			Total: c(0.02, -0.1, 0.1), Content: c(-0.1, -0.2, -0.05), Render: c(-0.08, -0.1, -0.05), Mechanism: c(0.2, 0.1, 0.3)},
		"No term is distinguishable from zero.": {Class: memory.MustParseSpec("exec:x"),
			Total: c(0, -0.1, 0.1), Render: c(0, -0.1, 0.1), Mechanism: c(0, -0.1, 0.1)},
	} {
		s := decompositionSentence("b", d)
		if !strings.HasSuffix(s, want) {
			t.Errorf("%q does not end %q", s, want)
		}
		if d.HasContent != strings.Contains(s, "content (") {
			t.Errorf("%q: content term named %v, want %v", s, !d.HasContent, d.HasContent)
		}
	}
}
