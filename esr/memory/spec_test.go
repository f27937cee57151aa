package memory_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
)

func TestParseSpec(t *testing.T) {
	kept := memory.Kept{Class: memory.Graphiti, Params: memory.Assumed{Paraphrase: memory.Some(0.3)}, Control: true}
	for _, tc := range []struct {
		name string
		want memory.Spec
		out  string // String(), when not name
	}{
		{name: "fine-ledger", want: memory.SpecOf(memory.FineLedger)},
		{name: "render-only", want: memory.SpecOf(memory.RenderOnly)},
		{name: "fine-ledger~render-only", want: memory.Spec{Class: memory.FineLedger, Control: true}},
		{name: "graphiti~render-only", want: memory.Spec{Class: memory.Graphiti, Control: true}},
		{name: "graphiti@paraphrase=0.3", want: memory.Spec{Class: memory.Graphiti, Params: memory.Params{Assumed: memory.Assumed{Paraphrase: memory.Some(0.3)}}}},
		{name: "graphiti@dup=0@paraphrase=0.30", out: "graphiti@paraphrase=0.3@dup=0",
			want: memory.Spec{Class: memory.Graphiti, Params: memory.Params{Assumed: memory.Assumed{Paraphrase: memory.Some(0.3), Dup: memory.Some(0.0)}}}},
		{name: "mem0-v3@paraphrase=0.3@dedup-k=all@created-at=event@skip=1@seed=7~render-only", want: memory.Spec{Class: memory.Mem0V3, Control: true,
			Params: memory.Params{Assumed: memory.Assumed{Paraphrase: memory.Some(0.3), DedupK: memory.Some(memory.DedupAll), CreatedAt: memory.Some(memory.CreatedAtEvent),
				Skip: memory.Some(1.0), Seed: memory.Some[uint64](7)}}}},
		{name: "graphrag-abstain@kept=graphiti@paraphrase=0.3~render-only", want: memory.Spec{Class: memory.GraphRAGAbstain, Params: memory.Params{Kept: kept}}},
		{name: "exec:/tmp/a@b=c~render-only", want: memory.Spec{Class: "exec:/tmp/a@b=c", Control: true}},
		{name: "my-class", want: memory.SpecOf("my-class")},
	} {
		got, err := memory.ParseSpec(tc.name)
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", tc.name, err)
			continue
		}
		if !got.Equal(tc.want) || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseSpec(%q) = %+v, want %+v", tc.name, got, tc.want)
		}
		out := tc.out
		if out == "" {
			out = tc.name
		}
		if got.String() != out {
			t.Errorf("ParseSpec(%q).String() = %q, want %q", tc.name, got.String(), out)
		}
		if err := got.Validate(); err != nil {
			t.Errorf("ParseSpec(%q) does not validate: %v", tc.name, err)
		}
	}
}

// An error names the part of the name that is wrong.
func TestParseSpecErrors(t *testing.T) {
	for name, mention := range map[string][]string{
		"":                                      {"no class name"},
		"~render-only":                          {"no class name"},
		"graphiti@paraphrase=1.5":               {"paraphrase=1.5", "[0, 1]"},
		"graphiti@paraphrase=NaN":               {"paraphrase=NaN", "probability"},
		"graphiti@dedup-k=3":                    {"dedup-k", "paraphrase, dup, seed"},
		"mem0-v3@created-at=now":                {"created-at=now", "event or ingestion"},
		"mem0-v3@dedup-k=-2":                    {"dedup-k=-2", "all"},
		"mem0-v3@seed=-1":                       {"seed=-1"},
		"mem0-v3@paraphrase=0.1@paraphrase=0.2": {"paraphrase", "twice"},
		"graphiti@paraphrase":                   {"paraphrase", "KEY=VALUE"},
		"graphiti@":                             {"empty parameter"},
		"fine-ledger@paraphrase=0.3":            {"fine-ledger", "takes no parameters", "paraphrase"},
		"graphiti~render-only@paraphrase=0.3":   {"before ~render-only"},
		"graphrag-abstain@kept=graphiti@dup=2":  {"kept", "dup=2", "[0, 1]"},
		"graphrag-abstain@kept=":                {"kept", "no class name"},
	} {
		_, err := memory.ParseSpec(name)
		if err == nil {
			t.Errorf("ParseSpec(%q) accepted", name)
			continue
		}
		for _, m := range mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("ParseSpec(%q): error %q does not mention %q", name, err, m)
			}
		}
	}
}

func TestSpecValidate(t *testing.T) {
	k := memory.Kept{Class: memory.Graphiti}
	for _, sp := range []memory.Spec{
		{},
		{Class: "a~render-only"},
		{Class: "a@b"},
		{Class: memory.FineLedger, Params: memory.Params{Assumed: memory.Assumed{Paraphrase: memory.Some(0.5)}}},
		{Class: memory.Graphiti, Params: memory.Params{Assumed: memory.Assumed{Paraphrase: memory.Some(2.0)}}},
		{Class: memory.Mem0V3, Params: memory.Params{Assumed: memory.Assumed{DedupK: memory.Some(-3)}}},
		{Class: memory.Mem0V3, Params: memory.Params{Assumed: memory.Assumed{CreatedAt: memory.Some("now")}}},
		{Class: memory.GraphRAGAbstain, Params: memory.Params{Kept: k}, Control: true},
		{Class: "exec:x", Params: memory.Params{Assumed: memory.Assumed{Seed: memory.Some[uint64](1)}}},
	} {
		if err := sp.Validate(); err == nil {
			t.Errorf("%+v validates (String %q)", sp, sp.String())
		}
		s, atoms := bench.Figure1()
		if _, err := memory.Build(sp, s, atoms, memory.Options{}); err == nil {
			t.Errorf("Build(%+v) accepted an invalid spec", sp)
		}
	}
}

// A spec builds a state that reports the spec's name as its class.
func TestBuildNamesTheState(t *testing.T) {
	s, atoms := bench.Figure1()
	for _, name := range []string{"fine-ledger", "render-only", "coarse-retain~render-only", "graphiti@paraphrase=1@dup=0",
		"mem0-v3@dedup-k=0~render-only", "graphrag-abstain@kept=mem0-v3~render-only"} {
		st, err := memory.Build(memory.MustParseSpec(name), s, atoms, memory.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if st.Class() != name {
			t.Errorf("%s: class %q", name, st.Class())
		}
	}
}

func TestSpecRenderContentMatched(t *testing.T) {
	for name, want := range map[string][2]string{
		"fine-ledger":    {"render-only", "graphrag-abstain@kept=render-only"},
		"graphiti@dup=0": {"graphiti@dup=0~render-only", "graphrag-abstain@kept=graphiti@dup=0~render-only"},
		"exec:./a":       {"exec:./a~render-only", "graphrag-abstain@kept=exec:./a~render-only"},
	} {
		sp := memory.MustParseSpec(name)
		if got := sp.RenderMatched().String(); got != want[0] || memory.MustParseSpec(name).RenderMatched() != memory.MustParseSpec(got) {
			t.Errorf("RenderMatched(%s) = %s, want %s", name, got, want[0])
		}
		if got := sp.ContentMatched().String(); got != want[1] || memory.MustParseSpec(name).ContentMatched() != memory.MustParseSpec(got) {
			t.Errorf("ContentMatched(%s) = %s, want %s", name, got, want[1])
		}
	}
}

// FuzzParseSpec: a name that parses prints as a name that parses to the
// same spec, and printing is a fixed point after one parse.
func FuzzParseSpec(f *testing.F) {
	for _, seed := range []string{"fine-ledger", "render-only", "graphiti@paraphrase=0.3~render-only",
		"mem0-v3@paraphrase=0.3@dedup-k=10@created-at=event", "mem0-update@dedup-k=all@skip=0.5@seed=3",
		"graphrag-abstain@kept=graphiti@paraphrase=0.3~render-only", "graphrag-abstain@kept=graphrag-abstain@kept=mem0-v3",
		"exec:/tmp/a@b=c~render-only", "graphiti@dup=1e-3@paraphrase=0x1p-2", "a~render-onlyb", "x~render-only~render-only",
		"graphiti@seed=18446744073709551615", "mem0-v3@dedup-k=+4", "graphiti@paraphrase=-0"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, name string) {
		sp, err := memory.ParseSpec(name)
		if err != nil {
			return
		}
		if err := sp.Validate(); err != nil {
			t.Fatalf("ParseSpec(%q) = %+v does not validate: %v", name, sp, err)
		}
		out := sp.String()
		again, err := memory.ParseSpec(out)
		if err != nil {
			t.Fatalf("ParseSpec(%q).String() = %q does not parse: %v", name, out, err)
		}
		if !again.Equal(sp) || !reflect.DeepEqual(again, sp) {
			t.Fatalf("ParseSpec(%q) = %+v; its String %q parses as %+v", name, sp, out, again)
		}
		if again.String() != out {
			t.Fatalf("String not a fixed point: %q → %q", out, again.String())
		}
	})
}

// FuzzSpecString: the String of any valid spec parses back to it.
func FuzzSpecString(f *testing.F) {
	f.Add("graphiti", 0.3, true, 0.0, false, 10, false, uint64(0), false, true)
	f.Add("mem0-v3", 0.5, false, 1.0, false, -1, true, uint64(9), true, false)
	f.Add("exec:./x", 0.0, false, 0.0, false, 0, false, uint64(0), false, true)
	f.Fuzz(func(t *testing.T, class string, p float64, pSet bool, q float64, qSet bool, k int, kSet bool, seed uint64, seedSet bool, control bool) {
		sp := memory.Spec{Class: memory.Class(class), Control: control}
		sp.Params.Paraphrase = memory.Opt[float64]{Value: p, Set: pSet}
		if class == memory.Graphiti || class == memory.GraphitiCurrent {
			sp.Params.Dup = memory.Opt[float64]{Value: q, Set: qSet}
		} else {
			sp.Params.Skip = memory.Opt[float64]{Value: q, Set: qSet}
			sp.Params.DedupK = memory.Opt[int]{Value: k, Set: kSet}
		}
		sp.Params.Seed = memory.Opt[uint64]{Value: seed, Set: seedSet}
		for _, s := range []memory.Spec{sp, {Class: memory.GraphRAGAbstain, Params: memory.Params{Kept: memory.Kept{Class: sp.Class, Params: sp.Params.Assumed, Control: sp.Control}}}} {
			if s.Validate() != nil {
				continue
			}
			got, err := memory.ParseSpec(s.String())
			if err != nil {
				t.Fatalf("valid %+v prints %q, which does not parse: %v", s, s.String(), err)
			}
			if !got.Equal(s) {
				t.Fatalf("valid %+v prints %q, which parses as %+v", s, s.String(), got)
			}
		}
	})
}

func atomsQuery(atoms []esr.Atom) esr.Query {
	return esr.Query{Type: esr.Snapshot, Key: atoms[0].Key(), Question: bench.Figure1Question}
}
