package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/llmtest"
)

func TestJudgeAuditCommand(t *testing.T) {
	dir := smallBench(t)
	out := mustCLI(t, "judge", "audit", "--bench", dir, "--judge", "exact,exact-lenient")
	for _, want := range []string{"Judge audit: acceptance of planted answers", "was-now", "exact-lenient", "lenient on stale answers", "strict"} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	var rep lab.JudgeAuditReport
	if err := json.Unmarshal([]byte(mustCLI(t, "judge", "audit", "--bench", dir, "--judge", "exact,exact-lenient", "--format", "json")), &rep); err != nil {
		t.Fatal(err)
	}
	ex, le := rep.Results[0], rep.Results[1]
	if inc, _ := ex.Rate(judge.KindIncorrect); inc.N == 0 || inc.Accepted != 0 {
		t.Errorf("exact on INCORRECT: %+v", inc)
	}
	if wn, _ := le.Rate(judge.KindWasNow); wn.N == 0 || wn.Rate != 1 {
		t.Errorf("exact-lenient on was-now: %+v", wn)
	}
	if csv := mustCLI(t, "judge", "audit", "--bench", dir, "--judge", "exact", "--format", "csv"); !strings.HasPrefix(csv, "planted kind,faithful judge,n,exact\n") {
		t.Errorf("csv: %s", csv)
	}
	for _, bad := range [][]string{{"judge", "audit", "--judge", "exact"}, {"judge", "audit", "--bench", dir, "--format", "xml"},
		{"judge", "audit", "--bench", dir, "--judge", "fuzzy"}, {"judge", "audit", "--bench", dir, "--export", "x.jsonl"}, {"judge"}} {
		if _, _, code := runCLI(t, bad...); code == 0 {
			t.Errorf("esr %s succeeded", strings.Join(bad, " "))
		}
	}
	if tm := mustCLI(t, "judge", "templates"); !strings.Contains(tm, "longmemeval (llm:MODEL@template=longmemeval)") || !strings.Contains(tm, "xiaowu0162/LongMemEval") {
		t.Errorf("templates: %s", tm)
	}
}

// An LLM judge's audit against the stub goes through the response cache
// (a rerun sends nothing) and the batch route (a dry run exports what is
// not cached).
func TestJudgeAuditCommandLLM(t *testing.T) {
	dir := smallBench(t)
	srv := llmtest.New(llmtest.Options{Reply: func(r llmtest.Request) string {
		reply, _ := llmtest.SubstringJudge(r)
		return reply
	}})
	defer srv.Close()
	llmEnv(t, "ESR_LLM_BASE_URL", srv.BaseURL(), "ESR_LLM_MODELS", "stub-j")
	cache := t.TempDir()
	export := filepath.Join(t.TempDir(), "requests.jsonl")
	plan := readPlan(t, mustCLI(t, "judge", "audit", "--bench", dir, "--judge", "llm:stub-j@template=longmemeval", "--cache", cache, "--dry-run", "--export", export))
	if plan.ToSend == 0 || plan.Cached != 0 || srv.Hits() != 0 {
		t.Fatalf("dry run: %+v, %d requests sent", plan, srv.Hits())
	}
	b, _ := os.ReadFile(export)
	if n := strings.Count(string(b), "\n"); n != plan.ToSend {
		t.Errorf("exported %d requests, plan says %d", n, plan.ToSend)
	}
	out := mustCLI(t, "judge", "audit", "--bench", dir, "--judge", "llm:stub-j@template=longmemeval,exact", "--cache", cache, "--format", "json")
	if srv.Hits() != plan.ToSend {
		t.Errorf("the audit sent %d requests, the dry run planned %d", srv.Hits(), plan.ToSend)
	}
	var rep lab.JudgeAuditReport
	json.Unmarshal([]byte(out), &rep)
	if rep.Results[0].Judge != "llm:stub-j@template=longmemeval" || rep.Results[0].Verdict != judge.VerdictAcceptsWrong {
		t.Errorf("stub judge (contains-the-gold rule accepts \"not B\"): %+v", rep.Results[0])
	}
	hits := srv.Hits()
	again := mustCLI(t, "judge", "audit", "--bench", dir, "--judge", "llm:stub-j@template=longmemeval,exact", "--cache", cache, "--format", "json")
	if srv.Hits() != hits || again != out {
		t.Errorf("rerun sent %d requests or printed another result", srv.Hits()-hits)
	}
	if plan := readPlan(t, mustCLI(t, "judge", "audit", "--bench", dir, "--judge", "llm:stub-j@template=longmemeval", "--cache", cache, "--dry-run")); plan.ToSend != 0 {
		t.Errorf("after the run %d requests still to send", plan.ToSend)
	}
}

// esr rejudge rescores an LLM reader's stored rows with another judge and
// sends no reader request; the output is append-only and resumes.
func TestRejudgeCommand(t *testing.T) {
	dir := smallBench(t)
	var armed atomic.Bool
	var readerAfter, judged atomic.Int64
	srv := llmtest.New(llmtest.Options{Reply: func(r llmtest.Request) string {
		if reply, ok := llmtest.SubstringJudge(r); ok {
			judged.Add(1)
			return reply
		}
		if armed.Load() {
			readerAfter.Add(1)
		}
		return stubReply(r)
	}})
	defer srv.Close()
	llmEnv(t, "ESR_LLM_BASE_URL", srv.BaseURL(), "ESR_LLM_MODELS", "reader-m")
	cache := t.TempDir()
	rows := filepath.Join(t.TempDir(), "rows.jsonl")
	mustCLI(t, "eval", "--bench", dir, "--memory", "fine-ledger,graphrag-abstain", "--reader", "llm:reader-m", "--cache", cache, "--out", rows)
	armed.Store(true)
	hits := srv.Hits()
	orig := sortedRows(t, rows)

	out := filepath.Join(t.TempDir(), "rejudged.jsonl")
	_, errOut, code := runCLI(t, "rejudge", "--rows", rows, "--bench", dir, "--judge", "llm:judge-m", "--cache", cache, "--out", out)
	if code != 0 {
		t.Fatalf("rejudge: %s", errOut)
	}
	if readerAfter.Load() != 0 {
		t.Errorf("rejudge sent %d reader requests", readerAfter.Load())
	}
	if srv.Hits() == hits || judged.Load() == 0 {
		t.Error("the LLM judge was not asked")
	}
	if !strings.Contains(errOut, "no reader was asked") {
		t.Errorf("stderr: %s", errOut)
	}
	got := sortedRows(t, out)
	if len(got) != len(orig) {
		t.Fatalf("%d rescored rows of %d", len(got), len(orig))
	}
	for i := range orig {
		o, n := orig[i], got[i]
		if o.Key() != n.Key() || o.Answer != n.Answer || o.RawAnswer != n.RawAnswer || n.Judge != "llm:judge-m" || n.Label == "" {
			t.Fatalf("row %d: %+v → %+v", i, o, n)
		}
	}
	// Resume: cut the file mid-row, rerun; nothing is asked twice.
	b, _ := os.ReadFile(out)
	lines := strings.SplitAfter(string(b), "\n")
	os.WriteFile(out, []byte(strings.Join(lines[:3], "")+lines[3][:len(lines[3])/2]), 0o644)
	hits = srv.Hits()
	if _, errOut, code := runCLI(t, "rejudge", "--rows", rows, "--bench", dir, "--judge", "llm:judge-m", "--cache", cache, "--out", out); code != 0 {
		t.Fatalf("resume: %s", errOut)
	}
	if srv.Hits() != hits {
		t.Errorf("resume sent %d requests (the judge's answers are cached)", srv.Hits()-hits)
	}
	resumed := sortedRows(t, out)
	if len(resumed) != len(got) {
		t.Fatalf("after resume %d rows, want %d", len(resumed), len(got))
	}
	for i := range got {
		if resumed[i] != got[i] {
			t.Fatalf("resumed row %d differs", i)
		}
	}
	// An exact judge with no endpoint at all.
	llmEnv(t)
	lenient := filepath.Join(t.TempDir(), "lenient.jsonl")
	mustCLI(t, "rejudge", "--rows", rows, "--bench", dir, "--judge", "exact-lenient", "--out", lenient)
	if l, _ := eval.ReadOutcomes(lenient); len(l) != len(orig) || l[0].Judge != "exact-lenient" {
		t.Errorf("exact-lenient rescoring: %d rows", len(l))
	}
	for _, bad := range [][]string{
		{"rejudge", "--rows", rows, "--bench", dir, "--judge", "exact", "--out", rows},
		{"rejudge", "--rows", rows, "--bench", dir, "--out", lenient},
		{"rejudge", "--rows", rows, "--bench", figure1Dir(t), "--judge", "exact", "--out", filepath.Join(t.TempDir(), "x.jsonl")},
	} {
		if _, _, code := runCLI(t, bad...); code == 0 {
			t.Errorf("esr %s succeeded", strings.Join(bad, " "))
		}
	}
}

func TestJudgeTermCommand(t *testing.T) {
	dir := genSmall(t, "--per-stratum", "2")
	rows := filepath.Join(t.TempDir(), "rows.jsonl")
	mustCLI(t, "eval", "--bench", dir, "--memory", "graphrag-abstain,render-only,fine-ledger,coarse-retain",
		"--reader", "sim:careful@both=0.5@hedge=0.3", "--query", "snapshot", "--out", rows)
	out := mustCLI(t, "judge", "term", "--rows", rows, "--bench", dir, "--judge", "exact,exact-lenient", "--stratum", "all", "--format", "csv")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 1+3 || !strings.Contains(lines[0], "judge term (exact-lenient − exact)") || !strings.HasPrefix(lines[1], "render,") {
		t.Errorf("judge term csv:\n%s", out)
	}
	for _, bad := range [][]string{{"judge", "term", "--bench", dir}, {"judge", "term", "--rows", rows, "--bench", dir, "--judge", "exact"},
		{"judge", "term", "--rows", rows, "--bench", dir, "--stratum", "weird"}} {
		if _, _, code := runCLI(t, bad...); code == 0 {
			t.Errorf("esr %s succeeded", strings.Join(bad, " "))
		}
	}
}
