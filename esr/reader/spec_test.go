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

// Every reader's name is its spec's string form, and the spec builds it.
func TestSpecOf(t *testing.T) {
	for _, name := range []string{"oracle", "scripted:naive", "sim:careful@seed=3"} {
		r, err := reader.Parse(name, llm.Setup{}, sim.Readers)
		if err != nil {
			t.Fatal(err)
		}
		sp := reader.SpecOf(r)
		if sp.String() != r.Name() {
			t.Errorf("%s: spec %+v prints %q", r.Name(), sp, sp.String())
		}
		again, err := reader.New(sp, llm.Setup{}, sim.Readers)
		if err != nil || again.Name() != r.Name() {
			t.Errorf("New(%+v) = %v, %v", sp, again, err)
		}
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
