package reader_test

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

func TestParseSpec(t *testing.T) {
	for s, want := range map[string]reader.Spec{
		"oracle":                 {Kind: reader.KindOracle},
		"scripted:careful":       {Kind: reader.KindScripted, Name: "careful"},
		"sim:careful@status=0.2": {Kind: reader.KindSim, Name: "careful@status=0.2"},
		"sim:fit-gpt":            {Kind: reader.KindSim, Name: "fit-gpt"},
		"llm:gpt-4o":             {Kind: reader.KindLLM, Name: "gpt-4o"},
		"llm":                    {Kind: reader.KindLLM},
		"sim":                    {Kind: reader.KindSim},
	} {
		got, err := reader.ParseSpec(s)
		if err != nil || got != want || got.String() != s {
			t.Errorf("ParseSpec(%q) = %+v (%q), %v; want %+v", s, got, got.String(), err, want)
		}
	}
	for s, mention := range map[string]string{"oracle:x": "oracle takes no name", "llm:": "empty model name",
		"sim: ": "empty profile name", "gpt:4": `unknown reader "gpt:4"`} {
		if _, err := reader.ParseSpec(s); err == nil || !strings.Contains(err.Error(), mention) {
			t.Errorf("ParseSpec(%q): %v, want an error mentioning %q", s, err, mention)
		}
	}
	if sp := mustSpec(t, "sim:fit-gpt"); !sp.Calibrated() || !sp.Simulated() {
		t.Error("sim:fit-gpt is a calibrated simulated reader")
	}
	if sp := mustSpec(t, "llm:x"); sp.Calibrated() || sp.Simulated() {
		t.Error("llm:x is simulated")
	}
}

// Every reader's spec prints as the name it was parsed from, and builds
// the same reader again.
func TestReaderSpecBuildsTheReader(t *testing.T) {
	for _, name := range []string{"oracle", "scripted:naive", "sim:careful@seed=3"} {
		r, err := reader.Parse(name, llm.Setup{}, sim.Readers)
		if err != nil {
			t.Fatal(err)
		}
		if sp := r.Spec(); sp.String() != name || reader.Family(sp) != r.Family() {
			t.Errorf("%s: spec %+v prints %q, family %s", name, sp, sp.String(), r.Family())
		}
		again, err := reader.New(r.Spec(), llm.Setup{}, sim.Readers)
		if err != nil || again.Spec() != r.Spec() {
			t.Errorf("New(%+v) = %v, %v", r.Spec(), again, err)
		}
	}
}

// A spec and a family read and write their text strictly: what is written
// reads back as itself, and a name outside the grammar is an error on
// either side, never a spec with an empty kind.
func TestSpecAndFamilyTextAreStrict(t *testing.T) {
	for _, name := range []string{"oracle", "llm:qwen3-8b", "sim:fit-qwen3-8b@seed=2", "scripted:time-sorter"} {
		var sp reader.Spec
		var f reader.Family
		if err := sp.UnmarshalText([]byte(name)); err != nil || sp.String() != name {
			t.Errorf("spec %q: %+v, %v", name, sp, err)
		}
		if err := f.UnmarshalText([]byte(name)); err != nil || f != reader.Family(sp) {
			t.Errorf("family %q: %+v, %v", name, f, err)
		}
		if b, err := f.MarshalText(); err != nil || string(b) != name {
			t.Errorf("family %+v writes %q, %v", f, b, err)
		}
	}
	for _, bad := range []string{"last-line", "gpt:4", "oracle:x", "llm:"} {
		var sp reader.Spec
		if err := sp.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("spec %q read as %+v", bad, sp)
		}
		var f reader.Family
		if err := f.UnmarshalText([]byte(bad)); err == nil || !strings.Contains(err.Error(), "family") {
			t.Errorf("family %q read as %+v (%v)", bad, f, err)
		}
	}
	for _, bad := range []reader.Spec{{Name: "last-line"}, {Kind: "gpt", Name: "4"}, {Kind: reader.KindOracle, Name: "x"}, {Kind: reader.KindLLM, Name: " m"}} {
		if b, err := bad.MarshalText(); err == nil {
			t.Errorf("spec %+v written as %q", bad, b)
		}
		if b, err := reader.Family(bad).MarshalText(); err == nil {
			t.Errorf("family %+v written as %q", bad, b)
		}
	}
	// The two families that name no reader: the pool and none.
	for _, f := range []reader.Family{reader.Pooled, {}} {
		b, err := f.MarshalText()
		var back reader.Family
		if err != nil || back.UnmarshalText(b) != nil || back != f {
			t.Errorf("family %+v writes %q (%v), reads back %+v", f, b, err, back)
		}
	}
	if reader.Pooled.String() != "pooled" || reader.Pooled.Simulated() {
		t.Errorf("Pooled is %q, simulated %v", reader.Pooled, reader.Pooled.Simulated())
	}
}

// Whether a family is simulated is its kind, not a prefix of its text.
func TestFamilySimulatedByKind(t *testing.T) {
	for f, want := range map[reader.Family]bool{
		{Kind: reader.KindSim, Name: "fit-qwen3-8b"}:     true,
		{Kind: reader.KindScripted, Name: "time-sorter"}: true,
		{Kind: reader.KindLLM, Name: "sim:fit-x"}:        false,
		{Kind: reader.KindOracle}:                        false,
		reader.Pooled:                                    false,
	} {
		if f.Simulated() != want {
			t.Errorf("%+v: simulated %v, want %v", f, f.Simulated(), want)
		}
	}
	if f := (reader.Family{Kind: reader.KindSim, Name: "fit-qwen3-8b"}); !f.Calibrated() {
		t.Errorf("%s is calibrated", f)
	}
}

func FuzzParseReaderSpec(f *testing.F) {
	for _, s := range []string{"oracle", "sim:careful@seed=3", "llm: x ", "llm", "scripted:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := reader.ParseSpec(s)
		if err != nil {
			return
		}
		again, err := reader.ParseSpec(sp.String())
		if err != nil || again != sp {
			t.Fatalf("ParseSpec(%q) = %+v prints %q, which parses as %+v, %v", s, sp, sp.String(), again, err)
		}
	})
}

func mustSpec(t *testing.T, s string) reader.Spec {
	t.Helper()
	sp, err := reader.ParseSpec(s)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}
