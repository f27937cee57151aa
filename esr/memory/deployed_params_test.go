package memory_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
)

// factLines are the JSON object lines of a render (Graphiti's facts, Mem0's
// memories) that contain marker.
func factLines(render, marker string) []string {
	var out []string
	for _, l := range strings.Split(render, "\n") {
		if strings.Contains(l, marker) {
			out = append(out, strings.TrimSuffix(strings.TrimSpace(l), ","))
		}
	}
	return out
}

// On Figure 1 (30 s → 60 s → 30 s), the restored 30 s survives Graphiti's
// ingest only when its fact text differs from the first 30 s fact's (no
// fast path) and the LLM does not call it a duplicate of that closed edge
// (#1865); Mem0 v3 keeps it only when its text differs (or falls outside
// the dedup window) and the extraction does not skip it. Checked over 60
// seeds, against the texts the render shows.
func TestParaphraseDrivesRestore(t *testing.T) {
	s, atoms := bench.Figure1()
	qa := bench.Figure1QA()
	snap := qa.Query(bench.TimeoutKey)
	thirty := regexp.MustCompile(`"(?:fact|memory)":"service request_timeout ([a-z ]+) 30 s"`)
	collisions := 0
	const seeds = 60
	for seed := 0; seed < seeds; seed++ {
		build := func(name string) memory.State {
			return memory.MustBuild(memory.MustParseSpec(fmt.Sprintf("%s@seed=%d", name, seed)), s, atoms, memory.Options{})
		}
		// With dup=0 and every text paraphrased, the restore happens iff the
		// two 30 s texts differ; the closed edge then shows the first text.
		g := build(memory.Graphiti + "@paraphrase=1@dup=0")
		facts := factLines(g.Render(snap), `"fact"`)
		restored := g.Answer(snap).String() == "30 s"
		p3 := build(memory.Mem0V3 + "@paraphrase=1@created-at=event")
		mems := factLines(p3.Render(snap), `"memory"`)
		if restored != (len(facts) == 3) || restored != (len(mems) == 3) {
			t.Errorf("seed %d: graphiti restored=%v with facts %q; mem0-v3 memories %q", seed, restored, facts, mems)
		}
		if !restored {
			collisions++
			if len(facts) != 2 || len(thirty.FindAllString(g.Render(snap), -1)) != 1 {
				t.Errorf("seed %d: no restore but facts %q", seed, facts)
			}
		}
		// The LLM duplicate judgement reuses A's closed edge whatever the text.
		if got := build(memory.Graphiti + "@paraphrase=1@dup=1").Answer(snap).String(); got != "60 s" {
			t.Errorf("seed %d: graphiti@paraphrase=1@dup=1 answers %s, want 60 s (#1865)", seed, got)
		}
		// The template always fires the fast path and the hash dedup.
		if got := build(memory.Graphiti + "@paraphrase=0@dup=0").Answer(snap).String(); got != "60 s" {
			t.Errorf("seed %d: graphiti@paraphrase=0 answers %s, want 60 s", seed, got)
		}
		if n := len(factLines(build(memory.Mem0V3+"@paraphrase=0").Render(snap), `"memory"`)); n != 2 {
			t.Errorf("seed %d: mem0-v3@paraphrase=0 keeps %d memories, want 2", seed, n)
		}
		// No dedup window: every memory kept; an extraction that always skips
		// an equivalent fact drops it again.
		if n := len(factLines(build(memory.Mem0V3+"@paraphrase=0@dedup-k=0").Render(snap), `"memory"`)); n != 3 {
			t.Errorf("seed %d: mem0-v3@dedup-k=0 keeps %d memories, want 3", seed, n)
		}
		if n := len(factLines(build(memory.Mem0V3+"@paraphrase=1@skip=1").Render(snap), `"memory"`)); n != 2 {
			t.Errorf("seed %d: mem0-v3@skip=1 keeps %d memories, want 2", seed, n)
		}
	}
	// Two paraphrased texts coincide with probability 1/4 (four paraphrase
	// wordings): 15 of 60 expected; a binomial(60, 1/4) lies in [5, 27] with
	// probability > 0.999.
	if collisions < 5 || collisions > 27 {
		t.Errorf("%d of %d seeds collide, want about a quarter", collisions, seeds)
	}
}

// created-at=ingestion stamps the replay clock (IngestionEpoch + the
// event's index in seconds); event stamps the event's time.
func TestMem0CreatedAt(t *testing.T) {
	s, atoms := bench.Figure1()
	qa := bench.Figure1QA()
	snap := qa.Query(bench.TimeoutKey)
	ing := memory.MustBuild(memory.MustParseSpec(memory.Mem0V3+"@paraphrase=0"), s, atoms, memory.Options{}).Render(snap)
	if !strings.Contains(ing, `"created_at":"2026-01-01T00:00:01+00:00"`) || strings.Contains(ing, "2024-") {
		t.Errorf("ingestion stamps:\n%s", ing)
	}
	ev := memory.MustBuild(memory.MustParseSpec(memory.Mem0V3+"@paraphrase=0@created-at=event"), s, atoms, memory.Options{}).Render(snap)
	if !strings.Contains(ev, `"created_at":"2024-02-01T00:00:00+00:00"`) {
		t.Errorf("event stamps:\n%s", ev)
	}
}

// The dedup window is the top-k memories retrieved for the episode: with
// k = 1 only the memory most similar to the episode's text is compared.
func TestMem0DedupWindow(t *testing.T) {
	s, atoms := bench.Build("window", esr.Key{Entity: "svc", Attribute: "region"}, []bench.Event{
		{ID: "e1", Date: "2024-01-01", Text: "Region is eu-west.", Value: "eu-west"},
		{ID: "e2", Date: "2024-02-01", Text: "Region moved to us-east.", Value: "us-east"},
		{ID: "e3", Date: "2024-03-01", Text: "Back on us-east after the outage review.", Value: "us-east"},
		{ID: "e4", Date: "2024-04-01", Text: "Reverted; the us-east outage is over.", Value: "eu-west"},
	})
	snap := esr.Query{Type: esr.Snapshot, Key: atoms[0].Key()}
	count := func(k string) int {
		name := memory.Mem0V3 + "@paraphrase=0@dedup-k=" + k
		return len(factLines(memory.MustBuild(memory.MustParseSpec(name), s, atoms, memory.Options{}).Render(snap), `"memory"`))
	}
	// all: both restatements are hash duplicates. k = 1: e3 retrieves
	// us-east's memory (BM25 on "us", "east") and is dropped; e4 also
	// retrieves us-east's, so eu-west's restatement is kept. k = 0: nothing
	// is compared.
	if a, one, zero := count("all"), count("1"), count("0"); a != 2 || one != 3 || zero != 4 {
		t.Errorf("memories kept: all %d, k=1 %d, k=0 %d; want 2, 3, 4", a, one, zero)
	}
}

// A class and its render-matched control (the same name with ~render-only)
// are built from the same atoms with the same paraphrase draws: on every
// synthetic stream, the control's render differs from the class's only where
// the mechanism acts. Graphiti: the same layout and entities, and every atom
// both keep has the same fact line but for invalid_at (same text, same
// paraphrase draw, same valid_at); the facts only one side shows are the
// atoms only it kept (the class's relation judgement drops an UNRELATED
// hedge, which can leave a later restatement to open the edge instead);
// graphiti-current shows the open ones; Mem0 v3 has no mechanism, so the
// renders are equal.
func TestControlDiffersOnlyInMechanism(t *testing.T) {
	b, err := bench.Load("../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	invalid := regexp.MustCompile(`"invalid_at":"[^"]*"`)
	mask := func(ls []string) []string {
		out := make([]string, len(ls))
		for i, l := range ls {
			out[i] = invalid.ReplaceAllString(l, `"invalid_at":_`)
		}
		return out
	}
	section := func(r, from, to string) string {
		i, j := strings.Index(r, from), strings.Index(r, to)
		if i < 0 || j < i {
			return ""
		}
		return r[i:j]
	}
	sameKept, differs := 0, 0
	for _, s := range b.Streams {
		atoms := b.Atoms[s.ID]
		if len(atoms) == 0 {
			continue
		}
		q := esr.Query{Type: esr.Snapshot, Key: atoms[0].Key()}
		{
			c := memory.Graphiti + "@paraphrase=0.3"
			cls := memory.MustBuild(memory.MustParseSpec(c), s, atoms, memory.Options{RenderSeed: 5})
			ctl := memory.MustBuild(memory.MustParseSpec(c).RenderMatched(), s, atoms, memory.Options{RenderSeed: 5})
			rc, rk := cls.Render(q), ctl.Render(q)
			if section(rc, "<ENTITIES>", "</ENTITIES>") != section(rk, "<ENTITIES>", "</ENTITIES>") {
				t.Fatalf("%s %s: entities differ", s.ID, c)
			}
			fc, fk := mask(factLines(rc, `"fact"`)), mask(factLines(rk, `"fact"`))
			kc, kk := cls.(memory.KeptAtoms).KeptAtomIDs(), ctl.(memory.KeptAtoms).KeptAtomIDs()
			if slices.Equal(kc, kk) {
				sameKept++
			} else {
				differs++
			}
			// Every fact line (text, valid_at) of an atom both keep is the
			// same: the lines only one side has are the atoms only it kept.
			onlyC, onlyK := minus(fc, fk), minus(fk, fc)
			if len(onlyC) != len(minus(kc, kk)) || len(onlyK) != len(minus(kk, kc)) {
				t.Fatalf("%s %s: facts only in the class %q, only in the control %q; atoms kept only by the class %v, only by the control %v",
					s.ID, c, onlyC, onlyK, minus(kc, kk), minus(kk, kc))
			}
			strip := func(r string) string { // the layout around facts and episodes
				return strings.Join(slices.DeleteFunc(strings.Split(r, "\n"), func(l string) bool {
					return strings.Contains(l, `"fact"`) || strings.Contains(l, `"source_description"`)
				}), "\n")
			}
			if strip(rc) != strip(rk) {
				t.Fatalf("%s %s: layouts differ", s.ID, c)
			}
			// graphiti-current is the same graph read through the current-only
			// filter: with the mechanism off nothing is closed, so it shows
			// what graphiti's control shows.
			cur := memory.GraphitiCurrent + "@paraphrase=0.3"
			rcur := memory.MustBuild(memory.MustParseSpec(cur), s, atoms, memory.Options{RenderSeed: 5}).Render(q)
			if memory.MustBuild(memory.MustParseSpec(cur).RenderMatched(), s, atoms, memory.Options{RenderSeed: 5}).Render(q) != rk {
				t.Fatalf("%s: graphiti-current's control differs from graphiti's", s.ID)
			}
			open := slices.DeleteFunc(factLines(rc, `"fact"`), func(l string) bool { return !strings.Contains(l, `"Present"`) })
			if !slices.Equal(factLines(rcur, `"fact"`), open) {
				t.Fatalf("%s: graphiti-current's facts are not graphiti's open facts", s.ID)
			}
		}
		v3 := memory.Mem0V3 + "@paraphrase=0.3"
		if a, b := memory.MustBuild(memory.MustParseSpec(v3), s, atoms, memory.Options{}).Render(q), memory.MustBuild(memory.MustParseSpec(v3).RenderMatched(), s, atoms, memory.Options{}).Render(q); a != b {
			t.Fatalf("%s: mem0-v3 and its control differ", s.ID)
		}
	}
	if sameKept == 0 || differs == 0 {
		t.Errorf("streams: %d with the same atoms kept, %d with fewer: want both kinds", sameKept, differs)
	}
}

// minus is the multiset difference a − b.
func minus(a, b []string) []string {
	left := slices.Clone(b)
	var out []string
	for _, x := range a {
		if i := slices.Index(left, x); i >= 0 {
			left = slices.Delete(left, i, i+1)
		} else {
			out = append(out, x)
		}
	}
	return out
}

// graphrag-abstain@kept=X is graphrag-abstain over the atoms X kept: the same
// rows without the dropped ones, and the same render when X keeps every
// atom.
func TestContentMatched(t *testing.T) {
	s, atoms := bench.Figure1()
	qa := bench.Figure1QA()
	snap := qa.Query(bench.TimeoutKey)
	full := memory.MustBuild(memory.SpecOf(memory.GraphRAGAbstain), s, atoms, memory.Options{RenderSeed: 2}).Render(snap)
	all := memory.MustBuild(memory.MustParseSpec("graphrag-abstain@kept=mem0-v3@dedup-k=0~render-only"), s, atoms, memory.Options{RenderSeed: 2})
	if all.Render(snap) != full || all.Class() != "graphrag-abstain@kept=mem0-v3@dedup-k=0~render-only" {
		t.Errorf("every atom kept, render differs:\n%s\n---\n%s", all.Render(snap), full)
	}
	cm := memory.MustBuild(memory.MustParseSpec(memory.Graphiti+gTemplate).ContentMatched(), s, atoms, memory.Options{RenderSeed: 2})
	want := strings.Replace(full, "a3|service|request_timeout|30 s|2024-03-01\n", "", 1)
	if want == full || cm.Render(snap) != want {
		t.Errorf("kept by the template's fast path: want the a3 row dropped:\n%s", cm.Render(snap))
	}
	if got := cm.Answer(snap).String(); got != "ABSTAIN" {
		t.Errorf("content-matched read-out %s, want ABSTAIN (30 s and 60 s both shown)", got)
	}
	if _, err := memory.Build(memory.MustParseSpec("graphrag-abstain@kept=fine-ledger"), s, atoms, memory.Options{}); err == nil || !strings.Contains(err.Error(), "KeptAtoms") {
		t.Errorf("kept=fine-ledger: %v", err)
	}
}
