package runlog_test

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/runlog"
	"github.com/esrkit/esrkit/stats"
)

// The real logs under testdata (PROVENANCE.md): an Inspect .eval archive
// of ten samples, an lm-eval --log_samples file (twenty documents, one
// binary metric and two corpus-level ones), an lm-eval file of graded
// metrics, and a promptfoo output.
const (
	inspectEval   = "testdata/inspect/popularity.eval"
	inspectJSON   = "testdata/inspect/popularity-cancelled.json"
	unscoredEval  = "testdata/inspect/popularity-unscored.eval"
	lmevalDir     = "testdata/lm-eval/Qwen__Qwen3-8B"
	lmevalSamples = lmevalDir + "/samples_negotiationtom_intention_2026-07-08T16-04-34.219874.jsonl"
	lmevalResults = lmevalDir + "/results_2026-07-08T16-04-34.219874.json"
	lmevalGraded  = "testdata/lm-eval/results/samples_truthfulqa_gen_2025-05-31T14-30-51.983293.jsonl"
	promptfooOut  = "testdata/promptfoo/output.json"
)

// testStats are the comparisons' options: fewer resamples than the
// default, the same seed.
var testStats = eval.StatOptions{B: 2000, Seed: 1, Level: 0.95}

func read(t *testing.T, path string) *runlog.Log {
	t.Helper()
	l, err := runlog.Read(path, "", runlog.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func compare(t *testing.T, a, b *runlog.Log, opt runlog.Options) *runlog.Comparison {
	t.Helper()
	if opt.Stats.B == 0 {
		opt.Stats = testStats
	}
	c, err := runlog.Compare(a, b, opt)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// diffOf is c's difference of scorer over every task.
func diffOf(t *testing.T, c *runlog.Comparison, scorer string) runlog.Diff {
	t.Helper()
	for _, d := range c.Diffs {
		if d.Scorer == scorer && d.Task == "" {
			return d
		}
	}
	t.Fatalf("no difference of scorer %s", scorer)
	return runlog.Diff{}
}

// flipsOf are c's flipped samples of scorer by direction.
func flipsOf(c *runlog.Comparison, scorer string) map[eval.FlipDirection][]string {
	out := map[eval.FlipDirection][]string{}
	for _, f := range c.Flips {
		if f.Scorer == scorer {
			out[f.Direction] = append(out[f.Direction], f.Sample)
		}
	}
	for _, v := range out {
		sort.Strings(v)
	}
	return out
}

func sameSet(got, want []string) bool {
	got, want = slices.Clone(got), slices.Clone(want)
	sort.Strings(got)
	sort.Strings(want)
	return slices.Equal(got, want)
}

// sameAsOutcomeRows checks that d, a binary scorer's difference, is what
// eval.Compare computes when the same scores are esrkit outcome rows of one
// run holding two memories (one per log; the sample id is the qid, a score
// of 1 a correct answer), and returns that comparison.
func sameAsOutcomeRows(t *testing.T, a, b *runlog.Log, d runlog.Diff) eval.Comparison {
	t.Helper()
	ma, mb := memory.SpecOf("log-a"), memory.SpecOf("log-b")
	var rows []eval.Outcome
	for _, s := range []struct {
		log *runlog.Log
		mem memory.Spec
	}{{a, ma}, {b, mb}} {
		for _, sc := range s.log.Scores {
			if sc.Scorer != d.Scorer {
				continue
			}
			if sc.Value != 0 && sc.Value != 1 {
				t.Fatalf("%s: score %v is not binary", sc.At, sc.Value)
			}
			rows = append(rows, eval.Outcome{QID: sc.Sample, Memory: s.mem, Family: reader.Family{Kind: reader.KindSim, Name: "one"}, Correct: sc.Value == 1})
		}
	}
	want, err := eval.Compare(rows, eval.Term{Label: "rows", A: mb, B: ma}, nil, testStats)
	if err != nil {
		t.Fatal(err)
	}
	if d.N != want.N || d.AccA != want.AccA || d.AccB != want.AccB || d.Delta != want.Delta || d.Lo != want.Lo || d.Hi != want.Hi ||
		d.P != want.P || d.N10 != want.N10 || d.N01 != want.N01 || d.TooFew != want.TooFew || d.Clusters != want.Clusters {
		t.Errorf("scorer %s: the logs give n %d, acc %v/%v, Δ %v [%v, %v], p %v, %d/%d, too few %v, clusters %d;\nthe same scores as outcome rows give n %d, acc %v/%v, Δ %v [%v, %v], p %v, %d/%d, too few %v, clusters %d",
			d.Scorer, d.N, d.AccA, d.AccB, d.Delta, d.Lo, d.Hi, d.P, d.N10, d.N01, d.TooFew, d.Clusters,
			want.N, want.AccA, want.AccB, want.Delta, want.Lo, want.Hi, want.P, want.N10, want.N01, want.TooFew, want.Clusters)
	}
	return want
}

// inspectAccuracy is the accuracy Inspect itself wrote into the archive's
// header.json (results.scores[0].metrics.accuracy.value).
func inspectAccuracy(t *testing.T, path string) float64 {
	t.Helper()
	z, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	for _, f := range z.File {
		if f.Name != "header.json" {
			continue
		}
		r, _ := f.Open()
		b, _ := io.ReadAll(r)
		r.Close()
		var h struct {
			Results struct {
				Scores []struct {
					Metrics map[string]struct {
						Value float64 `json:"value"`
					} `json:"metrics"`
				} `json:"scores"`
			} `json:"results"`
		}
		if err := json.Unmarshal(b, &h); err != nil {
			t.Fatal(err)
		}
		return h.Results.Scores[0].Metrics["accuracy"].Value
	}
	t.Fatal("no header.json")
	return 0
}

func TestInspectArchiveAgainstACopyWithChangedScores(t *testing.T) {
	changed := filepath.Join(t.TempDir(), "changed.eval")
	// Samples 1, 2 and 5 are correct in the real log, 3 is not.
	changedEval(t, inspectEval, changed, "1", "2", "5", "3")
	a, b := read(t, inspectEval), read(t, changed)
	if a.Format != runlog.Inspect || b.Format != runlog.Inspect {
		t.Fatalf("formats %s, %s", a.Format, b.Format)
	}
	c := compare(t, a, b, runlog.Options{})
	d := diffOf(t, c, "match")
	if want := inspectAccuracy(t, inspectEval); d.AccB != want {
		t.Errorf("A's mean %v, Inspect's own accuracy in the log %v", d.AccB, want)
	}
	f := flipsOf(c, "match")
	if !sameSet(f[eval.Lost], []string{"1", "2", "5"}) || !sameSet(f[eval.Gained], []string{"3"}) || len(c.Flips) != 4 {
		t.Errorf("flips %v, want 1, 2, 5 lost and 3 gained", f)
	}
	if d.N != 10 || d.N10 != 1 || d.N01 != 3 || math.Abs(d.Delta-(-0.2)) > 1e-12 {
		t.Errorf("n %d, B higher %d, A higher %d, Δ %v; want 10, 1, 3, -0.2", d.N, d.N10, d.N01, d.Delta)
	}
	sameAsOutcomeRows(t, a, b, d)
	for _, fl := range c.Flips {
		if fl.Input == "" || fl.Target == "" || fl.AnswerA == "" {
			t.Errorf("flip %s carries no input, target or answer: %+v", fl.Sample, fl)
		}
	}
}

func TestPlantedRegressionOfSixSamplesIsBelowZeroAndExactTestAgrees(t *testing.T) {
	changed := filepath.Join(t.TempDir(), "worse.eval")
	changedEval(t, inspectEval, changed, "1", "2", "4", "5", "6", "8") // six of the eight correct samples
	a, b := read(t, inspectEval), read(t, changed)
	c := compare(t, a, b, runlog.Options{})
	d := diffOf(t, c, "match")
	// scipy.stats.binomtest(0, 6, 0.5).pvalue = 0.03125: six discordant
	// pairs, all lost.
	if d.N01 != 6 || d.N10 != 0 || math.Abs(d.P-0.03125) > 1e-12 {
		t.Errorf("lost %d, gained %d, p %v; want 6, 0, 0.03125", d.N01, d.N10, d.P)
	}
	if d.TooFew || d.Hi >= 0 {
		t.Fatalf("interval [%v, %v] (too few %v): a regression of six in ten samples should lie below 0", d.Lo, d.Hi, d.TooFew)
	}
	sameAsOutcomeRows(t, a, b, d)
	if r := c.Regressions(0); len(r) != 1 {
		t.Errorf("%d regressions at margin 0, want 1", len(r))
	}
	if r := c.Regressions(-d.Hi - 0.01); len(r) != 1 {
		t.Errorf("margin just inside the interval's bound: %d regressions, want 1", len(r))
	}
	if r := c.Regressions(-d.Hi + 0.01); len(r) != 0 {
		t.Errorf("margin just beyond the interval's bound: %d regressions, want 0", len(r))
	}
	// The reverse direction is an improvement: no regression.
	if r := compare(t, b, a, runlog.Options{}).Regressions(0); len(r) != 0 {
		t.Errorf("an improvement reads as %d regressions", len(r))
	}
}

// lmevalCopy copies the run of lmevalDir into a folder with its results
// file and the samples edited by edit on the docs ids.
func lmevalCopy(t *testing.T, ids map[int]bool, edit func(v map[string]any)) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "Qwen__Qwen3-8B")
	copyFile(t, lmevalResults, filepath.Join(dir, filepath.Base(lmevalResults)))
	changedLines(t, lmevalSamples, filepath.Join(dir, filepath.Base(lmevalSamples)), ids, edit)
	return dir
}

func TestLMEvalSamplesAgainstACopyWithChangedScores(t *testing.T) {
	// Documents 0, 1, 2 and 14 score 0 in the real log, 10 and 11 score 1.
	flip := map[int]bool{0: true, 1: true, 2: true, 14: true, 10: true, 11: true}
	dir := lmevalCopy(t, flip, func(v map[string]any) {
		set(t, v, 1-number(t, v["exact_match"]), "exact_match")
	})
	a, b := read(t, lmevalSamples), read(t, dir)
	if b.Format != runlog.LMEval {
		t.Fatalf("the copy's folder reads as %s", b.Format)
	}
	c := compare(t, a, b, runlog.Options{})
	if len(c.Diffs) != 1 {
		t.Fatalf("%d differences; the log's one per-sample metric is exact_match (micro_f1 and macro_f1 are corpus-level)", len(c.Diffs))
	}
	d := diffOf(t, c, "exact_match,none")
	var res struct {
		Results map[string]map[string]any `json:"results"`
	}
	raw, _ := os.ReadFile(lmevalResults)
	json.Unmarshal(raw, &res)
	if want := res.Results["negotiationtom_intention"]["exact_match,none"].(float64); d.AccB != want {
		t.Errorf("A's mean %v, lm-eval's own exact_match in results.json %v", d.AccB, want)
	}
	f := flipsOf(c, "exact_match,none")
	id := func(n ...string) []string {
		for i := range n {
			n[i] = "negotiationtom_intention/" + n[i]
		}
		return n
	}
	if !sameSet(f[eval.Gained], id("0", "1", "2", "14")) || !sameSet(f[eval.Lost], id("10", "11")) {
		t.Errorf("flips %v, want 0, 1, 2, 14 gained and 10, 11 lost", f)
	}
	sameAsOutcomeRows(t, a, b, d)
	if !slices.ContainsFunc(c.Notes, func(n string) bool { return strings.Contains(n, "micro_f1,none: no per-sample score") }) {
		t.Errorf("no note says micro_f1 has no per-sample score: %q", c.Notes)
	}
}

func TestLMEvalGradedMetricTakesTheSignFlipTestAndTheClusterBootstrap(t *testing.T) {
	bump := map[int]bool{0: true, 5: true, 7: true}
	changed := filepath.Join(t.TempDir(), "results", filepath.Base(lmevalGraded))
	changedLines(t, lmevalGraded, changed, bump, func(v map[string]any) {
		set(t, v, number(t, v["bleu_max"])+10, "bleu_max")
	})
	a, b := read(t, lmevalGraded), read(t, changed)
	c := compare(t, a, b, runlog.Options{Scorers: []string{"bleu_max,none", "bleu_acc,none"}})
	d := diffOf(t, c, "bleu_max,none")
	if !d.Graded {
		t.Fatal("bleu_max is not graded")
	}
	if f := flipsOf(c, "bleu_max,none"); !sameSet(f[eval.Gained], []string{"truthfulqa_gen/0", "truthfulqa_gen/5", "truthfulqa_gen/7"}) || len(f[eval.Lost]) != 0 {
		t.Errorf("flips %v, want docs 0, 5 and 7 gained", f)
	}
	var xa, xb []float64
	var groups []string
	for _, s := range a.Scores {
		if s.Scorer == "bleu_max,none" {
			groups = append(groups, s.Sample)
		}
	}
	sort.Strings(groups) // the pairs' order: by sample id
	values := func(l *runlog.Log) map[string]float64 {
		m := map[string]float64{}
		for _, s := range l.Scores {
			if s.Scorer == "bleu_max,none" {
				m[s.Sample] = s.Value
			}
		}
		return m
	}
	va, vb := values(a), values(b)
	for _, g := range groups {
		xa, xb = append(xa, va[g]), append(xb, vb[g])
	}
	ci, err := stats.PairedClusterBootstrap(xb, xa, groups, testStats.B, testStats.Level, testStats.Seed)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := stats.PairedPermutation(xb, xa, testStats.B, testStats.Seed)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(d.Delta-30.0/20) > 1e-9 || d.Lo != ci.Lo || d.Hi != ci.Hi || d.P != pt.P || d.N10 != 3 || d.N01 != 0 {
		t.Errorf("Δ %v [%v, %v] p %v (%d/%d); want 1.5 [%v, %v] p %v (3/0)", d.Delta, d.Lo, d.Hi, d.P, d.N10, d.N01, ci.Lo, ci.Hi, pt.P)
	}
	// bleu_acc is unchanged and binary: no flip, the exact test's p = 1.
	if e := diffOf(t, c, "bleu_acc,none"); e.Graded || e.P != 1 || len(flipsOf(c, "bleu_acc,none")) != 0 {
		t.Errorf("bleu_acc: graded %v, p %v, flips %v", e.Graded, e.P, flipsOf(c, "bleu_acc,none"))
	}
}

func TestPromptfooOutputAgainstACopyWithChangedScores(t *testing.T) {
	raw, err := os.ReadFile(promptfooOut)
	if err != nil {
		t.Fatal(err)
	}
	// The test fails (success false, latency over its threshold); in the
	// copy it passes and so does the latency assertion.
	changed := filepath.Join(t.TempDir(), "output.json")
	if err := os.WriteFile(changed, editJSON(t, raw, func(v map[string]any) {
		r := at(t, v, "results", "results", 0)
		set(t, r, true, "success")
		set(t, r, true, "gradingResult", "componentResults", 5, "pass")
	}), 0o644); err != nil {
		t.Fatal(err)
	}
	a, b := read(t, promptfooOut), read(t, changed)
	c := compare(t, a, b, runlog.Options{})
	var got []string
	for _, f := range c.Flips {
		got = append(got, f.Scorer+" "+string(f.Direction))
	}
	if !sameSet(got, []string{"pass gained", "assert latency gained"}) {
		t.Errorf("flips %v, want pass and assert latency gained", got)
	}
	var doc struct {
		Results struct {
			Prompts []struct {
				Metrics struct {
					Score float64 `json:"score"`
				} `json:"metrics"`
			} `json:"prompts"`
		} `json:"results"`
	}
	json.Unmarshal(raw, &doc)
	if d := diffOf(t, c, "score"); d.AccB != doc.Results.Prompts[0].Metrics.Score || !d.Graded {
		t.Errorf("A's score %v (graded %v), promptfoo's own %v", d.AccB, d.Graded, doc.Results.Prompts[0].Metrics.Score)
	}
	for _, sc := range []string{"pass", "assert latency", "assert contains (Correctness)"} {
		sameAsOutcomeRows(t, a, b, diffOf(t, c, sc))
	}
	if d := diffOf(t, c, "pass"); !d.TooFew {
		t.Error("one test case gives an interval; it should say too few samples")
	}
}

func TestLogsOfDifferentSampleSetsAreRefusedNamingTheIDs(t *testing.T) {
	a, b := read(t, inspectJSON), read(t, inspectEval)
	_, err := runlog.Compare(a, b, runlog.Options{Stats: testStats})
	if err == nil || !strings.Contains(err.Error(), "only B has 7 (10 epoch 1, 4 epoch 1") || !strings.Contains(err.Error(), "--partial") {
		t.Fatalf("error %v, want the seven samples only B holds named", err)
	}
	c := compare(t, a, b, runlog.Options{Partial: true})
	if d := diffOf(t, c, "match"); d.N != 3 || len(c.OnlyB) != 7 || len(c.OnlyA) != 0 {
		t.Errorf("--partial: n %d, only A %d, only B %d; want 3, 0, 7", d.N, len(c.OnlyA), len(c.OnlyB))
	}
	if !slices.ContainsFunc(c.Notes, func(n string) bool { return strings.Contains(n, "status is cancelled") }) {
		t.Errorf("no note says A was cancelled: %q", c.Notes)
	}
}

func TestLogsOfDifferentScorersAreRefusedNamingTheScorers(t *testing.T) {
	_, err := runlog.Compare(read(t, lmevalSamples), read(t, lmevalGraded), runlog.Options{Stats: testStats})
	if err == nil || !strings.Contains(err.Error(), "only A has exact_match,none") || !strings.Contains(err.Error(), "bleu_acc,none") {
		t.Fatalf("error %v, want the scorers named", err)
	}
	_, err = runlog.Compare(read(t, lmevalSamples), read(t, lmevalSamples), runlog.Options{Stats: testStats, Scorers: []string{"bleu_max,none"}})
	if err == nil || !strings.Contains(err.Error(), `scorer "bleu_max,none" is not in A`) {
		t.Errorf("a scorer A lacks: error %v", err)
	}
}

func TestASampleThatIsAnotherDocumentIsRefused(t *testing.T) {
	dir := lmevalCopy(t, map[int]bool{3: true}, func(v map[string]any) { v["doc_hash"] = "another document" })
	_, err := runlog.Compare(read(t, lmevalSamples), read(t, dir), runlog.Options{Stats: testStats})
	if err == nil || !strings.Contains(err.Error(), "negotiationtom_intention/3 is not the same item") || !strings.Contains(err.Error(), ".jsonl:4") {
		t.Fatalf("error %v, want document 3 named with its line", err)
	}
}

func TestModelsPairByNameOrOneEach(t *testing.T) {
	a := read(t, promptfooOut)
	if _, err := runlog.Compare(a, a, runlog.Options{Stats: testStats, ModelA: "openai:gpt-4o"}); err == nil || !strings.Contains(err.Error(), "openai:gpt-4o-mini") {
		t.Errorf("an unknown model: error %v, want the log's models listed", err)
	}
	c := compare(t, a, a, runlog.Options{ModelA: "openai:gpt-4o-mini", ModelB: "openai:gpt-4o-mini"})
	if len(c.Flips) != 0 {
		t.Errorf("a log against itself flips %d scores", len(c.Flips))
	}
}

func TestDetectTellsEachFormat(t *testing.T) {
	for path, want := range map[string]runlog.Format{inspectEval: runlog.Inspect, inspectJSON: runlog.Inspect, lmevalSamples: runlog.LMEval,
		lmevalDir: runlog.LMEval, promptfooOut: runlog.Promptfoo, "../eval/testdata": runlog.ESR} {
		if got, err := runlog.Detect(path); err != nil || got != want {
			t.Errorf("%s: %s, %v; want %s", path, got, err, want)
		}
	}
	junk := filepath.Join(t.TempDir(), "junk.json")
	os.WriteFile(junk, []byte(`{"hello": 1}`), 0o644)
	if _, err := runlog.Detect(junk); err == nil || !strings.Contains(err.Error(), "--from") {
		t.Errorf("an unknown JSON: error %v, want a pointer to --from", err)
	}
}

func TestReadErrorsNameTheFileAndLineOrField(t *testing.T) {
	dir := t.TempDir()
	b, _ := os.ReadFile(lmevalSamples)
	lines := strings.SplitAfter(string(b), "\n")
	bad := filepath.Join(dir, "samples_x_2026-01-01T00-00-00.000000.jsonl")
	os.WriteFile(bad, []byte(lines[0]+lines[1]+"{not json\n"+lines[2]), 0o644)
	if _, err := runlog.Read(bad, runlog.LMEval, runlog.ReadOptions{}); err == nil || !strings.Contains(err.Error(), bad+":3:") {
		t.Errorf("a bad line: error %v, want it named at line 3", err)
	}
	// A cut last line (a run killed while writing) is left out, not an error.
	cut := filepath.Join(dir, "samples_y_2026-01-01T00-00-00.000000.jsonl")
	os.WriteFile(cut, []byte(lines[0]+lines[1][:40]), 0o644)
	if l, err := runlog.Read(cut, runlog.LMEval, runlog.ReadOptions{}); err != nil || len(l.Scores) != 1 {
		t.Errorf("a cut last line: %v", err)
	}
	raw, _ := os.ReadFile(inspectJSON)
	noID := filepath.Join(dir, "noid.json")
	os.WriteFile(noID, editJSON(t, raw, func(v map[string]any) { delete(at(t, v, "samples", 1).(map[string]any), "id") }), 0o644)
	if _, err := runlog.Read(noID, "", runlog.ReadOptions{}); err == nil || !strings.Contains(err.Error(), "samples[1]: field id is missing") {
		t.Errorf("a sample without id: error %v", err)
	}
	if _, err := runlog.Read(unscoredEval, "", runlog.ReadOptions{}); err == nil || !strings.Contains(err.Error(), "samples without a score (field scores empty: scored later, or not at all), left out: 10") {
		t.Errorf("a log whose samples hold no score (real: Inspect's own test log): error %v", err)
	}
	if _, err := runlog.Read(inspectJSON, "", runlog.ReadOptions{Group: "metadata.document"}); err == nil || !strings.Contains(err.Error(), "field metadata.document (--group) is missing") {
		t.Errorf("a missing group field: error %v", err)
	}
	empty := filepath.Join(dir, "empty.json")
	os.WriteFile(empty, []byte(`{"evalId": "e", "results": {"version": 3, "results": []}}`), 0o644)
	if _, err := runlog.Read(empty, "", runlog.ReadOptions{}); err == nil || !strings.Contains(err.Error(), "results.results is empty") {
		t.Errorf("a promptfoo output without results: error %v", err)
	}
	var notFound *os.PathError
	if _, err := runlog.Read(filepath.Join(dir, "missing.eval"), "", runlog.ReadOptions{}); !errors.As(err, &notFound) {
		t.Errorf("a missing file: error %v", err)
	}
}

func TestNonFiniteValuesPythonWritesAreLeftOutAndCounted(t *testing.T) {
	b, _ := os.ReadFile(lmevalSamples)
	lines := strings.SplitAfter(strings.TrimRight(string(b), "\n"), "\n")
	lines[4] = strings.Replace(lines[4], `"exact_match": 0.0`, `"exact_match": NaN`, 1)
	lines[5] = strings.Replace(lines[5], `"exact_match": 0.0`, `"exact_match": -Infinity`, 1)
	path := filepath.Join(t.TempDir(), filepath.Base(lmevalSamples))
	os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
	l, err := runlog.Read(path, "", runlog.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(l.Notes, func(n string) bool {
		return strings.Contains(n, "exact_match,none: values null or not finite (NaN, Infinity), left out: 2")
	}) {
		t.Errorf("notes %q do not count the two non-finite values", l.Notes)
	}
	c := compare(t, read(t, lmevalSamples), l, runlog.Options{})
	if d := diffOf(t, c, "exact_match,none"); d.N != 18 {
		t.Errorf("n %d, want 18 (two pairs without a score left out)", d.N)
	}
}

func TestGroupClustersSamplesByTheNamedField(t *testing.T) {
	l, err := runlog.Read(lmevalSamples, "", runlog.ReadOptions{Group: "doc.dialogue_id"})
	if err != nil {
		t.Fatal(err)
	}
	c := compare(t, l, l, runlog.Options{})
	// The twenty utterances come from eleven dialogue segments (0-0 … 0-5,
	// 1-0 … 1-4 in the log's doc.dialogue_id).
	if d := diffOf(t, c, "exact_match,none"); d.Clusters != 11 || d.N != 20 {
		t.Errorf("%d clusters over %d pairs, want 11 over 20", d.Clusters, d.N)
	}
}

// withSecondEpoch copies the real .eval archive adding, for every sample,
// an epoch 2 that repeats epoch 1 (its "epoch" field set to 2); the match
// score of the samples flip (epoch 2 only) is turned over (C ↔ I).
func withSecondEpoch(t *testing.T, dst string, flip ...string) {
	t.Helper()
	z, err := zip.OpenReader(inspectEval)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	turn := map[string]bool{}
	for _, id := range flip {
		turn["samples/"+id+"_epoch_1.json"] = true
	}
	f, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := zip.NewWriter(f)
	for _, m := range z.File {
		r, _ := m.Open()
		b, _ := io.ReadAll(r)
		r.Close()
		fw, _ := w.Create(m.Name)
		fw.Write(b)
		if !strings.HasPrefix(m.Name, "samples/") {
			continue
		}
		second := editJSON(t, b, func(v map[string]any) {
			v["epoch"] = 2
			if turn[m.Name] {
				set(t, v, flipInspectValue(at(t, v, "scores", "match", "value").(string)), "scores", "match", "value")
			}
		})
		fw, _ = w.Create(strings.Replace(m.Name, "_epoch_1", "_epoch_2", 1))
		fw.Write(second)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestEpochsPairByEpochAndClusterBySample(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.eval"), filepath.Join(dir, "b.eval")
	withSecondEpoch(t, a)
	withSecondEpoch(t, b, "1", "3")
	la, lb := read(t, a), read(t, b)
	c := compare(t, la, lb, runlog.Options{})
	d := diffOf(t, c, "match")
	if d.N != 20 || d.Clusters != 10 {
		t.Errorf("n %d over %d clusters, want 20 pairs (ten samples, two epochs) over 10 samples", d.N, d.Clusters)
	}
	var got []string
	for _, f := range c.Flips {
		got = append(got, f.Sample+"/"+string(rune('0'+f.Epoch)))
	}
	if !sameSet(got, []string{"1/2", "3/2"}) {
		t.Errorf("flips %v, want samples 1 and 3 in epoch 2", got)
	}
	// The pairs in (sample, epoch) order, clustered by sample.
	type key struct {
		s string
		e int
	}
	va, vb := map[key]float64{}, map[key]float64{}
	var keys []key
	for _, s := range la.Scores {
		va[key{s.Sample, s.Epoch}] = s.Value
		keys = append(keys, key{s.Sample, s.Epoch})
	}
	for _, s := range lb.Scores {
		vb[key{s.Sample, s.Epoch}] = s.Value
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].s != keys[j].s {
			return keys[i].s < keys[j].s
		}
		return keys[i].e < keys[j].e
	})
	var xa, xb []float64
	var groups []string
	for _, k := range keys {
		xa, xb, groups = append(xa, va[k]), append(xb, vb[k]), append(groups, k.s)
	}
	ci, err := stats.PairedClusterBootstrap(xb, xa, groups, testStats.B, testStats.Level, testStats.Seed)
	if err != nil {
		t.Fatal(err)
	}
	if d.Lo != ci.Lo || d.Hi != ci.Hi || d.Delta != ci.Estimate {
		t.Errorf("Δ %v [%v, %v], the sample-clustered bootstrap of the same pairs %v [%v, %v]", d.Delta, d.Lo, d.Hi, ci.Estimate, ci.Lo, ci.Hi)
	}
}
