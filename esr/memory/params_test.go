package memory_test

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
)

// ParseNames accepts every documented parameter and rejects a bad one with
// an error that names it.
func TestParseNamesParams(t *testing.T) {
	ok := "graphiti@paraphrase=0.3,graphiti-current@paraphrase=1@dup=0@seed=7~render-only," +
		"mem0-v3@paraphrase=0.3@dedup-k=10@created-at=event,mem0-update@dedup-k=all@skip=0.5," +
		"graphrag-abstain@kept=graphiti@paraphrase=0.3~render-only"
	if names, err := memory.ParseNames(ok); err != nil || len(names) != 5 {
		t.Fatalf("ParseNames(%q) = %v, %v", ok, names, err)
	}
	for name, mention := range map[string][]string{
		"graphiti@paraphrase=1.5":               {"paraphrase", "[0, 1]"},
		"graphiti@paraphrase=x":                 {"paraphrase", "probability"},
		"graphiti@dedup-k=3":                    {"dedup-k", "paraphrase, dup, seed"},
		"mem0-v3@created-at=now":                {"created-at", "event or ingestion"},
		"mem0-v3@dedup-k=-2":                    {"dedup-k", "all"},
		"mem0-v3@seed=-1":                       {"seed"},
		"mem0-v3@paraphrase=0.1@paraphrase=0.2": {"paraphrase", "twice"},
		"graphiti@paraphrase":                   {"paraphrase", "KEY=VALUE"},
		"graphiti@paraphrase=":                  {"paraphrase", "no value"},
		"fine-ledger@paraphrase=0.3":            {"fine-ledger", "takes no parameters", "paraphrase"},
		"graphiti~render-only@paraphrase=0.3":   {"before ~render-only"},
		"graphrag-abstain@kept=nope":            {"kept", "nope"},
		"graphrag-abstain@kept=fine-ledger":     {"kept", "fine-ledger", "KeptAtoms"},
		"graphrag-abstain@kept=graphiti@dup=2":  {"dup", "[0, 1]"},
	} {
		_, err := memory.ParseNames(name)
		if err == nil {
			t.Errorf("%s accepted", name)
			continue
		}
		for _, m := range mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s: error %q does not mention %q", name, err, m)
			}
		}
		sp, perr := memory.ParseSpec(name)
		if perr != nil {
			continue // a name that does not parse has no spec to build
		}
		s, atoms := bench.Figure1()
		if _, berr := memory.Build(sp, s, atoms, memory.Options{}); berr == nil {
			t.Errorf("Build(%s) accepted what ParseNames rejects", name)
		}
	}
}

func TestAssumptionsAndWith(t *testing.T) {
	for name, want := range map[string]string{
		"graphiti":                                  "paraphrase=0.5, dup=1, seed=3",
		"graphiti@dup=0@seed=9~render-only":         "paraphrase=0.5, dup=0, seed=9",
		"mem0-v3@created-at=event":                  "paraphrase=0.5, dedup-k=10, created-at=event, skip=0, seed=3",
		"graphrag-abstain@kept=mem0-v3@dedup-k=all": "atoms kept by mem0-v3@dedup-k=all, paraphrase=0.5, dedup-k=all, created-at=ingestion, skip=0, seed=3",
		"fine-ledger":                               "",
	} {
		if got := memory.MustParseSpec(name).Assumptions(memory.Options{RenderSeed: 3}); got != want {
			t.Errorf("Assumptions(%s) = %q; want %q", name, got, want)
		}
	}
	got, err := memory.MustParseSpec("graphiti@paraphrase=0.1@dup=0~render-only").With("paraphrase", "0.9")
	if err != nil || got.String() != "graphiti@paraphrase=0.9@dup=0~render-only" {
		t.Errorf("With = %q, %v", got, err)
	}
	if _, err := memory.SpecOf(memory.Graphiti).With("paraphrase", "2"); err == nil {
		t.Error("With accepted paraphrase=2")
	}
	if memory.MustParseSpec("graphiti@dup=0").ContentMatched().String() != "graphrag-abstain@kept=graphiti@dup=0~render-only" {
		t.Error(memory.MustParseSpec("graphiti@dup=0").ContentMatched())
	}
}
