package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
)

// The real logs of other frameworks (esr/runlog/testdata, PROVENANCE.md).
const (
	logsData      = "../../esr/runlog/testdata"
	inspectLog    = logsData + "/inspect/popularity.eval"
	promptfooLog  = logsData + "/promptfoo/output.json"
	lmevalLogFile = logsData + "/lm-eval/Qwen__Qwen3-8B/samples_negotiationtom_intention_2026-07-08T16-04-34.219874.jsonl"
)

// worseInspectLog copies the real .eval archive with the match score of
// samples ids turned from correct to incorrect ("C" to "I").
func worseInspectLog(t *testing.T, ids ...string) string {
	t.Helper()
	z, err := zip.OpenReader(inspectLog)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	want := map[string]bool{}
	for _, id := range ids {
		want["samples/"+id+"_epoch_1.json"] = true
	}
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, f := range z.File {
		r, _ := f.Open()
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		if want[f.Name] {
			var v map[string]any
			if err := json.Unmarshal(b, &v); err != nil {
				t.Fatal(err)
			}
			sc := v["scores"].(map[string]any)["match"].(map[string]any)
			if sc["value"] != "C" {
				t.Fatalf("%s is not correct in the real log", f.Name)
			}
			sc["value"] = "I"
			b, _ = json.Marshal(v)
		}
		fw, _ := w.Create(f.Name)
		fw.Write(b)
	}
	w.Close()
	out := filepath.Join(t.TempDir(), "worse.eval")
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFailOnRegressionExitsOnTheTwoSidesOfAPlantedRegression(t *testing.T) {
	worse := worseInspectLog(t, "1", "2", "4", "5", "6", "8") // six of the eight correct samples
	out, errOut, code := runCLI(t, "compare", inspectLog, worse, "--format", "json", "--fail-on-regression")
	if code != regressionExit {
		t.Fatalf("a planted regression: exit %d, want %d; stderr %s", code, regressionExit, errOut)
	}
	if !strings.Contains(errOut, "REGRESSION") || !strings.Contains(errOut, "B is worse than A") {
		t.Errorf("stderr does not say what failed: %s", errOut)
	}
	var c struct {
		Diffs []eval.Comparison `json:"diffs"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil || len(c.Diffs) != 1 {
		t.Fatalf("the JSON comparison: %v", err)
	}
	hi := c.Diffs[0].Hi
	margin := func(m float64) string { return strings.TrimRight(strings.TrimRight(fmtFloat(m), "0"), ".") }
	if _, errOut, code := runCLI(t, "compare", inspectLog, worse, "--fail-on-regression", "--margin", margin(-hi-0.01)); code != regressionExit {
		t.Errorf("margin inside the interval's bound (%v): exit %d, want %d; %s", -hi-0.01, code, regressionExit, errOut)
	}
	if _, errOut, code := runCLI(t, "compare", inspectLog, worse, "--fail-on-regression", "--margin", margin(-hi+0.01)); code != 0 {
		t.Errorf("margin beyond the interval's bound (%v): exit %d, want 0; %s", -hi+0.01, code, errOut)
	}
	if _, errOut, code := runCLI(t, "compare", worse, inspectLog, "--fail-on-regression"); code != 0 {
		t.Errorf("B better than A: exit %d, want 0; %s", code, errOut)
	}
	if _, _, code := runCLI(t, "compare", inspectLog, worse); code != 0 {
		t.Errorf("without --fail-on-regression a regression exits %d", code)
	}
}

func fmtFloat(x float64) string {
	b, _ := json.Marshal(x)
	return string(b)
}

func TestFailOnRegressionGatesEsrkitRunsToo(t *testing.T) {
	dir := t.TempDir()
	before, after := filepath.Join(dir, "before.jsonl"), filepath.Join(dir, "after.jsonl")
	evalRows(t, before, "graphiti@paraphrase=0@dup=0")
	rows, err := eval.ReadOutcomes(before)
	if err != nil {
		t.Fatal(err)
	}
	// The planted regression: the rows of the first eight questions that
	// were right are wrong after the change.
	var qids []string
	seen := map[string]bool{}
	for _, o := range rows {
		if o.Correct && !seen[o.QID] && len(qids) < 8 {
			seen[o.QID] = true
			qids = append(qids, o.QID)
		}
	}
	var b bytes.Buffer
	for _, o := range rows {
		if seen[o.QID] {
			o.Correct, o.Answer = false, "planted wrong answer"
		}
		line, _ := json.Marshal(o)
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(after, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, "compare", before, after, "--B", "2000", "--fail-on-regression"); code != regressionExit || !strings.Contains(errOut, "REGRESSION") {
		t.Errorf("the regressed run as B: exit %d, want %d; %s", code, regressionExit, errOut)
	}
	if _, errOut, code := runCLI(t, "compare", after, before, "--B", "2000", "--fail-on-regression"); code != 0 {
		t.Errorf("the regressed run as A: exit %d, want 0; %s", code, errOut)
	}
}

func TestMarkdownSummaryOfTwoLogsIsWhatACIStepPosts(t *testing.T) {
	worse := worseInspectLog(t, "1", "2", "4", "5", "6", "8")
	out, _, code := runCLI(t, "compare", inspectLog, worse, "--format", "md", "--fail-on-regression")
	if code != regressionExit {
		t.Fatalf("exit %d", code)
	}
	if !strings.HasPrefix(out, "### esr compare: ") {
		t.Errorf("the summary does not open with its heading:\n%s", out)
	}
	for _, want := range []string{"- match (openai/gpt-4o-mini → openai/gpt-4o-mini): B − A = -0.600", "REGRESSION",
		"| scorer | model A | model B | scope | kind | n |", "| match | 1 |", "| lost |"} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
}

// hostilePromptfoo is the real promptfoo output with its test now passing
// and hostile text in its answer and provider.
func hostilePromptfoo(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile(promptfooLog)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	json.Unmarshal(raw, &v)
	r := v["results"].(map[string]any)["results"].([]any)[0].(map[string]any)
	r["success"] = true
	r["response"].(map[string]any)["output"] = "<script>window.pwned=4</script> | cell|split \x1b]0;title\x07\x1b[31mred\nnew line"
	r["provider"].(map[string]any)["label"] = "<img src=x onerror=alert(1)>|\x1b[2J"
	b, _ := json.Marshal(v)
	p := filepath.Join(t.TempDir(), "hostile.json")
	os.WriteFile(p, b, 0o644)
	return p
}

func TestHostileTextInALogIsShownAsTextInEveryOutput(t *testing.T) {
	hostile := hostilePromptfoo(t)
	text, errOut, code := runCLI(t, "compare", promptfooLog, hostile, "--fail-on-regression")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.ContainsAny(text, "\x1b\x07") || strings.ContainsAny(errOut, "\x1b\x07") {
		t.Error("the terminal output carries an escape or a bell")
	}
	if !strings.Contains(errOut, `<img src=x onerror=alert(1)>|\x1b[2J`) {
		t.Errorf("the verdicts on stderr do not name the model as its characters: %s", errOut)
	}
	if !strings.Contains(text, `\x1b[31mred⏎new line`) || !strings.Contains(text, "<script>window.pwned=4</script>") {
		t.Errorf("the terminal output does not show the text as its characters:\n%s", text)
	}
	md, _, _ := runCLI(t, "compare", promptfooLog, hostile, "--format", "md")
	for _, bad := range []string{"<script>", "<img", "\x1b", "cell|split", "\nnew line"} {
		if strings.Contains(md, bad) {
			t.Errorf("the Markdown carries %q", bad)
		}
	}
	if !strings.Contains(md, `&lt;script&gt;window.pwned=4&lt;/script&gt; \| cell\|split`) {
		t.Errorf("the Markdown does not show the text literally:\n%s", md)
	}
	// Every row of the flips table has as many cells as its header: no
	// pipe from the log opened a cell.
	cells := func(l string) int { return strings.Count(strings.ReplaceAll(l, `\|`, ""), "|") }
	var header int
	for _, l := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(l, "| scorer | sample |"):
			header = cells(l)
		case header > 0 && strings.HasPrefix(l, "| pass |"):
			if cells(l) != header {
				t.Errorf("a flips row has %d cell borders, its header %d: %s", cells(l), header, l)
			}
		}
	}
	if header == 0 {
		t.Error("no flips table in the Markdown")
	}
	dir := filepath.Join(t.TempDir(), "page")
	if _, errOut, code := runCLI(t, "compare", promptfooLog, hostile, "--html", "--out", dir); code != 0 {
		t.Fatalf("--html: exit %d: %s", code, errOut)
	}
	page, err := os.ReadFile(filepath.Join(dir, comparePageName))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script>window", "<img"} {
		if bytes.Contains(page, []byte(bad)) {
			t.Errorf("the page carries %q", bad)
		}
	}
	if !bytes.Contains(page, []byte("&lt;script&gt;window.pwned=4&lt;/script&gt;")) {
		t.Error("the page does not show the text escaped")
	}
	for _, f := range []string{"differences.txt", "flips.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("--out holds no %s: %v", f, err)
		}
	}
}

func TestLogsAndEsrkitRowsAreNotCompared(t *testing.T) {
	if _, errOut, code := runCLI(t, "compare", inspectLog, "../../esr/eval/testdata/outcomes-runs.jsonl"); code != 1 || !strings.Contains(errOut, "A is an Inspect log and B esrkit rows") {
		t.Errorf("a log against rows: exit %d, %s", code, errOut)
	}
	if _, errOut, code := runCLI(t, "compare", inspectLog, inspectLog, "--controls"); code != 1 || !strings.Contains(errOut, "--controls applies to esrkit rows") {
		t.Errorf("--controls with logs: exit %d, %s", code, errOut)
	}
	if _, errOut, code := runCLI(t, "compare", lmevalLogFile, lmevalLogFile, "--from", "promptfoo"); code != 1 || !strings.Contains(errOut, "not a promptfoo output") {
		t.Errorf("a named format that does not fit: exit %d, %s", code, errOut)
	}
	if _, errOut, code := runCLI(t, "compare", lmevalLogFile, lmevalLogFile, "--from", "csv"); code != 1 || !strings.Contains(errOut, "want auto, inspect") {
		t.Errorf("an unknown format: exit %d, %s", code, errOut)
	}
}
