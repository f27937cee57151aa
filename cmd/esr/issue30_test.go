package main

import (
	"encoding/json"
	"fmt"
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

// renderMatchedRows evaluates the render-matched memories on bench with
// the oracle and a scripted reader into a new outcomes file.
func renderMatchedRows(t *testing.T, bench string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "rows.jsonl")
	mustCLI(t, "eval", "--bench", bench, "--memory", "graphrag-abstain,render-only,fine-ledger,coarse-retain,coarse-retain~render-only",
		"--reader", "oracle,scripted:status-reader", "--out", out)
	return out
}

// Item 5: conflicting duplicate rows were paired last-one-wins (esr judge
// term: fine-d 0.000 → +0.400 with one conflicting duplicate). They are an
// error naming both lines; identical duplicates collapse.
func TestConflictingDuplicateRows(t *testing.T) {
	b := smallBench(t)
	rows := renderMatchedRows(t, b)
	data, err := os.ReadFile(rows)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	// A fine-ledger snapshot row on a reverted revert, duplicated with the
	// other verdict.
	at := -1
	for i, l := range lines {
		if strings.Contains(l, `"memory":"fine-ledger"`) && strings.Contains(l, `"phenomenon":"reverted_revert"`) &&
			strings.Contains(l, `"query_type":"snapshot"`) && strings.Contains(l, `"reader":"scripted:status-reader"`) {
			at = i
			break
		}
	}
	if at < 0 {
		t.Fatal("no fine-ledger reverted-revert snapshot row")
	}
	// judge term rescores the stored answers, so the duplicate answers
	// something else.
	var row map[string]any
	if err := json.Unmarshal([]byte(lines[at]), &row); err != nil {
		t.Fatal(err)
	}
	row["answer"], row["raw_answer"], row["correct"] = "not the gold "+fmt.Sprint(row["gold"]), "not the gold", !row["correct"].(bool)
	fb, _ := json.Marshal(row)
	flip := string(fb) + "\n"
	same := filepath.Join(t.TempDir(), "same.jsonl")
	os.WriteFile(same, []byte(string(data)+lines[at]), 0o644)
	conflict := filepath.Join(t.TempDir(), "conflict.jsonl")
	os.WriteFile(conflict, []byte(string(data)+flip), 0o644)
	term := func(path string) (string, string, int) {
		return runCLI(t, "judge", "term", "--rows", path, "--bench", b, "--judge", "exact,exact-lenient", "--format", "csv")
	}
	want, errOut, code := term(rows)
	if code != 0 {
		t.Fatalf("judge term: %s", errOut)
	}
	if got, errOut, code := term(same); code != 0 || got != want {
		t.Errorf("an identical duplicate changed the judge term (exit %d, %s):\n%s\nwant\n%s", code, errOut, got, want)
	}
	got, errOut, code := term(conflict)
	if code == 0 {
		t.Fatalf("a conflicting duplicate was paired (exit 0):\n%s\nwithout it:\n%s", got, want)
	}
	for _, w := range []string{fmt.Sprintf("conflict.jsonl:%d", at+1), fmt.Sprintf("conflict.jsonl:%d", len(lines)+1)} {
		if !strings.Contains(errOut, w) {
			t.Errorf("the error does not name line %s: %s", w, errOut)
		}
	}
}
