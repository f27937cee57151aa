package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// esr render takes the layout flags: the dated d-blind control and its
// dateless variant, the render seed, and the mechanism-off switch.
func TestRenderLayoutFlags(t *testing.T) {
	dir := figure1Dir(t)
	atoms, streams := filepath.Join(dir, "atoms.jsonl"), filepath.Join(dir, "streams.jsonl")
	render := func(args ...string) string {
		t.Helper()
		out, errOut, code := runCLI(t, append([]string{"render", "--atoms", atoms, "--streams", streams, "--stream", "figure1"}, args...)...)
		if code != 0 {
			t.Fatalf("esr render %v: exit %d: %s", args, code, errOut)
		}
		return out
	}
	dated := render("--memory", "graphrag-abstain")
	if !strings.Contains(dated, "id|entity|attribute|value|time") || !strings.Contains(dated, "|2024-03-01") {
		t.Errorf("graphrag-abstain shows no dates:\n%s", dated)
	}
	if dateless := render("--memory", "graphrag-abstain", "--fact-format", "dateless"); strings.Contains(dateless, "2024-") {
		t.Errorf("dateless variant shows a date:\n%s", dateless)
	}
	seeds := map[string]bool{}
	for _, s := range []string{"1", "2", "3", "4", "5", "6"} {
		seeds[render("--memory", "graphrag-abstain", "--render-seed", s)] = true
	}
	if len(seeds) < 2 {
		t.Errorf("six render seeds gave one row order")
	}
	off := render("--memory", "fine-ledger", "--mechanism-off")
	if want := render("--memory", "render-only"); off != want {
		t.Errorf("fine-ledger --mechanism-off:\n%s\nwant render-only's render:\n%s", off, want)
	}
	_, errOut, code := runCLI(t, "render", "--atoms", atoms, "--stream", "figure1", "--memory", "graphrag-abstain", "--fact-format", "sorted")
	if code == 0 || !strings.Contains(errOut, `--fact-format "sorted"`) {
		t.Errorf("bad --fact-format: exit %d, %q", code, errOut)
	}
}
