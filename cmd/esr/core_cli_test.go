package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run drives the whole CLI in-process.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runMain(args, &out, &errb)
	return out.String(), errb.String(), code
}

func figure1Dir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if _, errOut, code := runCLI(t, "example", "--out", dir); code != 0 {
		t.Fatalf("esr example: %s", errOut)
	}
	return dir
}

func TestLedgerCommand(t *testing.T) {
	dir := figure1Dir(t)
	out, errOut, code := runCLI(t, "ledger", "--atoms", filepath.Join(dir, "atoms.jsonl"),
		"--streams", filepath.Join(dir, "streams.jsonl"), "--memory", "fine-ledger")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var row struct {
		StreamID, Entity, Attribute, Status string
		Current                             []string
		ValidSince                          string `json:"valid_since"`
		Support, Deprecated                 []string
		History                             []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &row); err != nil {
		t.Fatalf("%v in %q", err, out)
	}
	if row.Status != "ok" || len(row.Current) != 1 || row.Current[0] != "30 s" ||
		strings.Join(row.Deprecated, ",") != "a1,a2" || len(row.History) != 3 || row.ValidSince != "2024-03-01T00:00:00Z" {
		t.Errorf("unexpected row %+v", row)
	}
	// The render-matched control keeps no history of deprecations and
	// shows no status (mechanism off); its two current values are why its
	// d-blind read-out abstains.
	out, _, _ = runCLI(t, "ledger", "--atoms", filepath.Join(dir, "atoms.jsonl"), "--memory", "render-only")
	if !strings.Contains(out, `"status":"neutral"`) || !strings.Contains(out, `"deprecated":[]`) || !strings.Contains(out, `"current":["30 s","60 s"]`) {
		t.Errorf("render-only row: %s", out)
	}
	// Relation noise at p=1 changes every label; the command still runs.
	if _, errOut, code := runCLI(t, "ledger", "--atoms", filepath.Join(dir, "atoms.jsonl"), "--relation-noise", "1", "--seed", "3"); code != 0 {
		t.Errorf("noisy ledger: %s", errOut)
	}
}

func TestRenderCommand(t *testing.T) {
	dir := figure1Dir(t)
	args := []string{"render", "--atoms", filepath.Join(dir, "atoms.jsonl"), "--streams", filepath.Join(dir, "streams.jsonl"), "--stream", "figure1"}
	fine, _, _ := runCLI(t, append(args, "--memory", "fine-ledger")...)
	ctrl, _, _ := runCLI(t, append(args, "--memory", "render-only")...)
	if !strings.Contains(fine, "| DEPRECATED") || !strings.Contains(ctrl, "| neutral") || strings.Contains(ctrl, "DEPRECATED") {
		t.Errorf("renders:\n%s\n%s", fine, ctrl)
	}
	dep, _, _ := runCLI(t, append(args, "--memory", "coarse-retain", "--deployed")...)
	if !strings.Contains(dep, "raw events") {
		t.Errorf("deployed render lacks raw events:\n%s", dep)
	}
	_, errOut, code := runCLI(t, append(args[:len(args)-1], "nope")...)
	if code == 0 || !strings.Contains(errOut, `stream "nope"`) {
		t.Errorf("unknown stream: exit %d, %q", code, errOut)
	}
}

func TestEvalCommandResumes(t *testing.T) {
	dir := figure1Dir(t)
	out := filepath.Join(t.TempDir(), "outcomes.jsonl")
	args := []string{"eval", "--bench", dir, "--memory", "all", "--reader", "oracle", "--out", out}
	if _, errOut, code := runCLI(t, args...); code != 0 {
		t.Fatalf("eval: %s", errOut)
	}
	b, _ := os.ReadFile(out)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2*9 {
		t.Fatalf("%d outcome rows, want 18 (2 QAs × 9 memories)", len(lines))
	}
	var o map[string]any
	json.Unmarshal([]byte(lines[0]), &o)
	for _, k := range []string{"qid", "stream_id", "source", "phenomenon", "query_type", "memory", "reader", "answer", "gold", "correct", "abstained", "gold_abstain"} {
		if _, ok := o[k]; !ok {
			t.Errorf("outcome row lacks %q: %s", k, lines[0])
		}
	}
	// Kill midway: keep 5 rows and half of the sixth; the rerun completes
	// the file without repeating a row.
	partial := strings.Join(lines[:5], "\n") + "\n" + lines[5][:len(lines[5])/2]
	os.WriteFile(out, []byte(partial), 0o644)
	if _, errOut, code := runCLI(t, args...); code != 0 {
		t.Fatalf("resume: %s", errOut)
	}
	b, _ = os.ReadFile(out)
	again := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(again) != 18 {
		t.Fatalf("after resume %d rows, want 18", len(again))
	}
	seen := map[string]bool{}
	for _, l := range again {
		var r struct{ QID, Memory, Reader string }
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("bad row after resume: %q", l)
		}
		id := r.QID + r.Memory + r.Reader
		if seen[id] {
			t.Fatalf("row repeated after resume: %s", l)
		}
		seen[id] = true
	}
}

func TestCommandErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"ledger"}, "--atoms is required"},
		{[]string{"ledger", "--atoms", "/nonexistent/atoms.jsonl"}, "no such file"},
		{[]string{"ledger", "--atoms", "x", "--memory", "zep"}, `unknown memory class "zep"`},
		{[]string{"ledger", "--atoms", "x", "--relation-noise", "2"}, "must be in [0, 1]"},
		{[]string{"eval", "--bench", "x"}, "--out is required"},
		{[]string{"nope"}, `unknown command "nope"`},
	}
	for _, c := range cases {
		_, errOut, code := runCLI(t, c.args...)
		if code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("esr %v: exit %d, stderr %q, want it to contain %q", c.args, code, errOut, c.want)
		}
	}
	if _, _, code := runCLI(t, "ledger", "--help"); code != 0 {
		t.Errorf("--help exits %d", code)
	}
}

func TestRunCommand(t *testing.T) {
	out := t.TempDir()
	stdout, errOut, code := runCLI(t, "run", "render-confound", "--bench", "../../data/synthetic", "--readers", "oracle,scripted:time-sorter", "--B", "300", "--out", out)
	if code != 0 {
		t.Fatalf("esr run: %s", errOut)
	}
	if !strings.Contains(stdout, "Table 2: render-matched decomposition") || !strings.Contains(stdout, "SIMULATED") {
		t.Errorf("output lacks Table 2 or the simulation label:\n%s", stdout)
	}
	for _, f := range []string{"table2-render-decomposition.csv", "table2-render-decomposition.tex", "table2-decomposition.png", "render-confound-outcomes.jsonl"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	if _, errOut, code := runCLI(t, "run", "nope", "--bench", "x", "--out", out); code == 0 || !strings.Contains(errOut, "unknown experiment") {
		t.Errorf("unknown experiment: %d %q", code, errOut)
	}
}
