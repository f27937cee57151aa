package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// These tests each cover one failure found by the second attack (issue 30);
// each failed before its fix.

// Item 10: NaN passed every probability check written as f < 0 || f > 1,
// and ran as 0 labelled NaN. Each way in is refused, naming the value.
func TestNaNIsNotAProbability(t *testing.T) {
	fig := figure1Dir(t)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"gen", []string{"gen", "--seed", "1", "--per-stratum", "1", "--paraphrase", "NaN", "--out", filepath.Join(t.TempDir(), "g")}, "paraphrase"},
		{"gen-inf", []string{"gen", "--seed", "1", "--per-stratum", "1", "--clutter", "+Inf", "--out", filepath.Join(t.TempDir(), "g")}, "clutter"},
		{"explore", []string{"explore", "--bench", fig, "--stratum", "all", "--noise", "NaN"}, "noise"},
		{"class", []string{"eval", "--bench", fig, "--memory", "graphiti@paraphrase=NaN", "--reader", "oracle", "--out", filepath.Join(t.TempDir(), "r.jsonl")}, "paraphrase"},
		{"ledger", []string{"ledger", "--atoms", filepath.Join(fig, "atoms.jsonl"), "--streams", filepath.Join(fig, "streams.jsonl"), "--relation-noise", "NaN"}, "relation-noise"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, c.args...)
			if code == 0 {
				t.Fatalf("esr %s exited 0 (stdout %q)", strings.Join(c.args, " "), firstLine(out))
			}
			if !strings.Contains(errOut, c.want) || !strings.Contains(strings.ToLower(errOut), "nan") && !strings.Contains(errOut, "Inf") {
				t.Errorf("the error does not name %s and its value: %s", c.want, errOut)
			}
		})
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

var _ = os.Stat
