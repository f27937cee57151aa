package synth_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/internal/synth"
)

func small() synth.Config {
	c := synth.DefaultConfig()
	c.PerStratum = 12
	return c
}

func TestGenerateLoads(t *testing.T) {
	dir := t.TempDir()
	if _, err := synth.Write(dir, small()); err != nil {
		t.Fatal(err)
	}
	b, err := bench.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Streams) != 12*4*3 {
		t.Errorf("%d streams, want %d", len(b.Streams), 12*4*3)
	}
	for _, q := range b.QAs {
		if !strings.Contains(q.Question, q.Attribute) {
			t.Errorf("%s: question %q does not name the attribute %q", q.QID, q.Question, q.Attribute)
		}
		if !strings.HasPrefix(q.Source, "synthetic-") {
			t.Errorf("%s: source %q", q.QID, q.Source)
		}
	}
}

func TestDeterministic(t *testing.T) {
	d1, d2 := t.TempDir(), t.TempDir()
	cfg := small()
	cfg.EventRecall, cfg.CoKeyRecall = 0.86, 0.96
	for _, d := range []string{d1, d2} {
		if _, err := synth.Write(d, cfg); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"streams.jsonl", "atoms.jsonl", "qa.jsonl", "relations.jsonl", "MANIFEST.json"} {
		a, _ := os.ReadFile(filepath.Join(d1, name))
		b, _ := os.ReadFile(filepath.Join(d2, name))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs with the same seed (or is empty)", name)
		}
	}
	cfg.Seed++
	d3 := t.TempDir()
	synth.Write(d3, cfg)
	a, _ := os.ReadFile(filepath.Join(d1, "streams.jsonl"))
	b, _ := os.ReadFile(filepath.Join(d3, "streams.jsonl"))
	if bytes.Equal(a, b) {
		t.Error("a different seed gave the same streams")
	}
}

// accuracy answers every QA of the wanted type with the class's structured
// read-out (the oracle reader) and tallies correctness per stratum.
func accuracy(t *testing.T, b *bench.Bench, class string, rel esr.Relator, qt esr.QueryType) map[string][2]int {
	t.Helper()
	out := map[string][2]int{}
	states := map[string]memory.State{}
	for _, q := range b.QAs {
		if q.Type() != qt {
			continue
		}
		st := states[q.StreamID]
		if st == nil {
			var err error
			st, err = memory.Build(memory.MustParseSpec(class), b.Stream(q.StreamID), b.Atoms[q.StreamID], memory.Options{Relator: rel})
			if err != nil {
				t.Fatal(err)
			}
			states[q.StreamID] = st
		}
		k, ok := q.Locate(b.Atoms[q.StreamID])
		ans := esr.Abstain
		if ok {
			ans = st.Answer(q.Query(k))
		}
		ok = ans.Abstain == q.GoldAbstain() && (ans.Abstain || esr.NormalizeValue(ans.Value) == esr.NormalizeValue(q.GoldAnswer))
		for _, p := range []string{string(q.Phenomenon), "all"} {
			c := out[p]
			c[1]++
			if ok {
				c[0]++
			}
			out[p] = c
		}
	}
	return out
}

func table(rows map[string]map[string][2]int) string {
	var b strings.Builder
	cols := []string{"reverted_revert", "monotonic", "cross_source_conflict", "refines", "all"}
	fmt.Fprintf(&b, "%-34s", "")
	for _, c := range cols {
		fmt.Fprintf(&b, " %22s", c)
	}
	b.WriteByte('\n')
	names := make([]string, 0, len(rows))
	for n := range rows {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "%-34s", n)
		for _, c := range cols {
			v := rows[n][c]
			if v[1] == 0 {
				fmt.Fprintf(&b, " %22s", "—")
				continue
			}
			fmt.Fprintf(&b, " %12.3f (n=%5d)", float64(v[0])/float64(v[1]), v[1])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestOracleSanity: on a noise-free extraction (the clean preset, and the
// paper's composition knobs with recalls 1) the fine ledger with gold
// relations answers every QA; the rule scorer is imperfect but far above
// chance. (The bundled bench's extraction is lossy by design: what the
// oracle misses there is what extraction lost, counted by esr coverage.)
func TestOracleSanity(t *testing.T) {
	clean := synth.DefaultConfig()
	if testing.Short() {
		clean = small()
	}
	for name, cfg := range map[string]synth.Config{"clean": clean, "paper knobs, recalls 1": smallPaper()} {
		t.Run(name, func(t *testing.T) { checkOracleSanity(t, cfg) })
	}
}

func checkOracleSanity(t *testing.T, cfg synth.Config) {
	b, err := synth.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]map[string][2]int{}
	for _, qt := range esr.QueryTypes {
		for _, rs := range []esr.Relator{relate.Oracle{Gold: b.Relations}, relate.Rule{}} {
			for _, class := range []memory.Class{memory.FineLedger, memory.CoarseRetain, memory.GraphRAGAbstain, memory.RenderOnly} {
				if rs.Name() == relate.RuleName && (class == memory.GraphRAGAbstain || class == memory.RenderOnly) {
					continue // these classes ignore the relation source
				}
				rows[fmt.Sprintf("%s %s/%s", qt, class, rs.Name())] = accuracy(t, b, string(class), rs, qt)
			}
		}
	}
	t.Logf("oracle-reader accuracy by stratum\n%s", table(rows))
	fine := rows["snapshot fine-ledger/oracle"]["all"]
	if acc := float64(fine[0]) / float64(fine[1]); acc < 0.99 {
		t.Errorf("fine-ledger with oracle relations: snapshot accuracy %.3f < 0.99", acc)
	}
	for _, k := range []string{"snapshot", "provenance", "relation-type"} {
		c := rows[k+" fine-ledger/oracle"]["all"]
		if c[0] != c[1] {
			t.Errorf("%s: fine-ledger/oracle %d/%d on a noise-free bench", k, c[0], c[1])
		}
	}
	rule := rows["snapshot fine-ledger/rule"]["all"]
	if acc := float64(rule[0]) / float64(rule[1]); acc < 0.6 || acc > 0.97 {
		t.Errorf("fine-ledger with the rule scorer: snapshot accuracy %.3f, want imperfect but well above chance", acc)
	}
}

// TestMiningRules: each key's assertions (modality "assert") follow the
// spec's reference mining rules for its stratum (§8): strict reverted-revert
// patterns only in reverted_revert, a never-returned-to refinement as the
// last change in refines, two actors' unresolved values in
// cross_source_conflict, neither pattern in monotonic.
func TestMiningRules(t *testing.T) {
	for name, cfg := range map[string]synth.Config{"clean": small(), "paper knobs": smallPaper()} {
		b, err := synth.Generate(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) { checkMiningRules(t, b) })
	}
}

func checkMiningRules(t *testing.T, b *bench.Bench) {
	for _, q := range b.QAs {
		if q.Type() != esr.Snapshot {
			continue
		}
		var as []esr.Atom
		for _, a := range b.Atoms[q.StreamID] {
			if a.Entity == q.Entity && a.Attribute == q.Attribute && a.Modality == "assert" {
				as = append(as, a)
			}
		}
		st := make([]string, len(as))
		for i := range as {
			st[i] = as[i].State()
		}
		rr := false
		for i := range st {
			for j := i + 1; j < len(st); j++ {
				for k := j + 1; k < len(st); k++ {
					if st[i] == st[k] && st[j] != st[i] {
						rr = true
					}
				}
			}
		}
		refine := false
		for i := range st {
			for j := i + 1; j < len(st); j++ {
				if len(st[j]) >= len(st[i])+4 && strings.Contains(st[j], st[i]) {
					refine = true
				}
			}
		}
		switch q.Phenomenon {
		case esr.RevertedRevert:
			if !rr {
				t.Errorf("%s: reverted_revert without a strict v_i, v_j, v_i pattern: %v", q.QID, st)
			}
		case esr.Monotonic:
			if rr || refine {
				t.Errorf("%s: monotonic with a revert (%v) or refinement (%v) pattern: %v", q.QID, rr, refine, st)
			}
		case esr.Refinement:
			// The last change narrows the value before it; only a qualifier
			// refinement is a superstring the §8 substring rule can see.
			var seq []string // the states without restatements
			for _, x := range st {
				if len(seq) == 0 || seq[len(seq)-1] != x {
					seq = append(seq, x)
				}
			}
			n := len(seq)
			kind := synth.RefinementKind(&q)
			sub := n >= 2 && len(seq[n-1]) >= len(seq[n-2])+4 && strings.Contains(seq[n-1], seq[n-2])
			if kind == "" || rr || sub != (kind == synth.RefineQualifier) {
				t.Errorf("%s: refines of kind %q (substring rule %v, returned to %v): %v", q.QID, kind, sub, rr, st)
			}
		case esr.CrossSourceConflict:
			last := as[len(as)-1]
			ok := false
			for _, a := range as[:len(as)-1] {
				if a.State() != last.State() && a.ActorName() != last.ActorName() {
					ok = true
				}
			}
			if !ok || !q.GoldAbstain() {
				t.Errorf("%s: conflict without two actors' differing values, or gold %q", q.QID, q.GoldAnswer)
			}
		}
	}
}

// TestBundledLoads: data/synthetic passes bench.Load's validation and holds
// what its MANIFEST says.
func TestBundledLoads(t *testing.T) {
	b, err := bench.Load("../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	var m synth.Manifest
	data, err := os.ReadFile("../../data/synthetic/MANIFEST.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	rels := 0
	for _, r := range b.Relations {
		rels += len(r)
	}
	if len(b.Streams) != m.Counts.Streams || len(b.QAs) != m.Counts.QAs || rels != m.Counts.Relations || m.Benchmark != "synthetic" {
		t.Errorf("loaded %d streams, %d QAs, %d relations; manifest %+v", len(b.Streams), len(b.QAs), rels, m.Counts)
	}
}

// TestRefinementKinds: the bundled benchmark's refinements come in every
// kind, each refines-stratum key records its kind in the rationale of all its
// QAs, and at most a third are superstrings of the value they refine (the
// only kind the spec's substring rule detects).
func TestRefinementKinds(t *testing.T) {
	b, err := bench.Load("../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	count := map[synth.RefineKind]int{}
	total := 0
	for i := range b.QAs {
		q := &b.QAs[i]
		kind := synth.RefinementKind(q)
		if (kind != "") != (q.Phenomenon == esr.Refinement) {
			t.Errorf("%s (%s): refinement kind %q", q.QID, q.Phenomenon, kind)
		}
		if kind == "" || q.Type() != esr.Snapshot {
			continue
		}
		if !slices.Contains(synth.RefineKinds, kind) {
			t.Errorf("%s: unknown refinement kind %q", q.QID, kind)
		}
		count[kind]++
		total++
	}
	for _, k := range synth.RefineKinds {
		if count[k] == 0 {
			t.Errorf("no refinement of kind %s", k)
		}
	}
	if total == 0 || 3*count[synth.RefineQualifier] > total {
		t.Errorf("%d of %d refinements are superstrings (qualifier), want at most a third", count[synth.RefineQualifier], total)
	}
	t.Logf("refinements by kind: %v (of %d)", count, total)
}

func TestRefinementKindParse(t *testing.T) {
	for r, want := range map[string]synth.RefineKind{
		"synthetic refines (main key): 30 s → 30.4 s (refines, precise-number)":     synth.RefinePreciseNumber,
		"synthetic refines (main key): a → b (restored) → b x (refines, qualifier)": synth.RefineQualifier,
		"synthetic pure-mono (side key): 30 s":                                      "",
		"synthetic refines (main key): a → b (refines":                              "",
	} {
		if got := synth.RefinementKind(&esr.QA{Rationale: r}); got != want {
			t.Errorf("RefinementKind(%q) = %q, want %q", r, got, want)
		}
	}
}
