package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
)

// esr eval --relation-noise P records the level in every row's condition
// and in the rows' fingerprint: a run at another level (or none) on the
// same file is refused instead of resuming into it, a level the condition
// cannot keep is refused, and esr run takes the flag but not on a suite
// with relation sources of its own.
func TestRelationNoiseRunsNeverMix(t *testing.T) {
	dir := figure1Dir(t)
	rows := filepath.Join(t.TempDir(), "rows.jsonl")
	args := func(extra ...string) []string {
		return append([]string{"eval", "--bench", dir, "--memory", "fine-ledger,coarse-retain", "--out", rows}, extra...)
	}
	if _, errOut, code := runCLI(t, args("--relation-noise", "0.2")...); code != 0 {
		t.Fatalf("eval --relation-noise 0.2: %s", errOut)
	}
	got, err := eval.ReadOutcomes(rows)
	if err != nil || len(got) == 0 {
		t.Fatalf("rows: %v, %d", err, len(got))
	}
	for _, o := range got {
		if o.Variant.String() != "relation-noise p=0.2" {
			t.Fatalf("row %s: condition %q", o.QID, o.Variant)
		}
	}
	for _, other := range [][]string{{"--relation-noise", "0.3"}, {}, {"--relation-noise", "0.2", "--noise-seed", "9"}} {
		if _, errOut, code := runCLI(t, args(other...)...); code == 0 || !strings.Contains(errOut, "made by another configuration") {
			t.Errorf("eval %v on the rows of 0.2: exit %d, %s", other, code, errOut)
		}
	}
	if _, errOut, code := runCLI(t, args("--relation-noise", "0.2")...); code != 0 {
		t.Errorf("eval --relation-noise 0.2 again (resume): %s", errOut)
	}
	for _, bad := range []string{"0.25", "-0.1", "1.5", "NaN"} {
		if _, errOut, code := runCLI(t, args("--relation-noise", bad, "--fresh")...); code == 0 || !strings.Contains(errOut, "relation-noise") {
			t.Errorf("--relation-noise %s: exit %d, %s", bad, code, errOut)
		}
	}
	out := filepath.Join(t.TempDir(), "strata")
	if _, errOut, code := runCLI(t, "run", "strata", "--bench", dir, "--readers", "oracle", "--relation-noise", "0.2", "--out", out); code != 0 {
		t.Fatalf("run strata --relation-noise 0.2: %s", errOut)
	}
	if _, errOut, code := runCLI(t, "run", "noise", "--bench", dir, "--readers", "oracle", "--relation-noise", "0.2", "--out", filepath.Join(t.TempDir(), "n")); code == 0 || !strings.Contains(errOut, "relation sources of its own") {
		t.Errorf("run noise --relation-noise: exit %d, %s", code, errOut)
	}
}
