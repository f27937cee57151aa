package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/benchtest"
	"github.com/esrkit/esrkit/internal/llmtest"
)

// The acceptance: the exact judge accepts no INCORRECT, outdated or
// unrelated answer (on synthetic, the few it does accept all come through
// a surname-only alias: without aliases it rejects them), and its lenient
// variant accepts "was A, now B".
func TestJudgeAuditBundled(t *testing.T) {
	ctx := context.Background()
	js := []judge.Judge{judge.Exact{}, judge.ExactLenient{}, judge.ExactStrict{}}
	for _, name := range []string{"synthetic", "dyknow", "vdyknow"} {
		b := benchtest.Data(t, name)
		rep, err := JudgeAudit(ctx, b, js, judge.AuditOptions{Concurrency: 2})
		if err != nil {
			t.Fatal(err)
		}
		exact, lenient, strict := rep.Results[0], rep.Results[1], rep.Results[2]
		rate := func(r judge.AuditResult, k judge.Kind) judge.KindRate { kr, _ := r.Rate(k); return kr }
		for _, r := range rep.Results {
			if kr := rate(r, judge.KindIncorrect); kr.Accepted != 0 || kr.N == 0 {
				t.Errorf("%s, %s: INCORRECT accepted %d of %d", name, r.Judge, kr.Accepted, kr.N)
			}
			if kr := rate(r, judge.KindGold); kr.Rate != 1 {
				t.Errorf("%s, %s: gold accepted %.3f", name, r.Judge, kr.Rate)
			}
		}
		if kr := rate(lenient, judge.KindWasNow); kr.Rate != 1 || kr.N == 0 {
			t.Errorf("%s: exact-lenient accepts %d of %d was-now", name, kr.Accepted, kr.N)
		}
		if kr := rate(exact, judge.KindWasNow); kr.Accepted != 0 {
			t.Errorf("%s: exact accepts %d was-now", name, kr.Accepted)
		}
		if exact.Verdict != judge.VerdictStrict || lenient.Verdict != judge.VerdictLenientStale || strict.Verdict != judge.VerdictStrict {
			t.Errorf("%s verdicts: %s / %s / %s", name, exact.Verdict, lenient.Verdict, strict.Verdict)
		}
		if kr := rate(strict, judge.KindHedge); kr.Accepted != 0 {
			t.Errorf("%s: exact-strict accepts %d hedges", name, kr.Accepted)
		}
		// Every outdated or unrelated answer the exact judge accepts goes
		// through an alias.
		viaAlias := 0
		for _, p := range rep.Panels {
			for _, a := range p.Answers {
				if a.Kind != judge.KindOutdated && a.Kind != judge.KindUnrelated {
					continue
				}
				v, _ := judge.Exact{}.Judge(ctx, p.QA, a.Answer)
				if !v.Correct {
					continue
				}
				bare := *p.QA
				bare.Aliases = nil
				if w, _ := (judge.Exact{}).Judge(ctx, &bare, a.Answer); w.Correct {
					t.Errorf("%s %s: exact accepts %s %q against %q without an alias", name, p.QID, a.Kind, a.Answer.Value, p.QA.GoldAnswer)
				}
				viaAlias++
			}
		}
		if name != "synthetic" && viaAlias != 0 {
			t.Errorf("%s: %d outdated or unrelated answers accepted", name, viaAlias)
		}
		t.Logf("%s: exact accepts %d outdated or unrelated answers, all through an alias", name, viaAlias)
		if s := rep.Summary(); !strings.Contains(s, "exact-lenient** is lenient on stale answers") {
			t.Errorf("summary: %s", s)
		}
		tab := rep.Table()
		if len(tab.Rows) != len(judge.Kinds)+1 || len(tab.Columns) != 3+len(js) {
			t.Errorf("table %d rows × %d columns", len(tab.Rows), len(tab.Columns))
		}
	}
}

// The audit's LLM part against the local stub: every named template
// through the same response cache, batch route and packs as readers. The
// stub is a fixed rule (llmtest.SubstringJudge), so each template's rates
// must equal the rule's, computed here on the planted answers.
func TestJudgeAuditLLMStub(t *testing.T) {
	ctx := context.Background()
	b := benchtest.Data(t, "dyknow")
	panels := judge.PlantAnswers(b)[:25]
	srv := llmtest.New(llmtest.Options{Keep: true, Reply: func(r llmtest.Request) string {
		reply, ok := llmtest.SubstringJudge(r)
		if !ok {
			t.Errorf("not a judge prompt: %q", r.User())
		}
		return reply
	}})
	defer srv.Close()
	names := []string{"llm:stub-judge", "llm:stub-judge@template=longmemeval", "llm:stub-judge@template=strict"}
	cacheDir := t.TempDir()
	cfg := judge.Config{CacheDir: cacheDir, BaseURL: srv.BaseURL(), Getenv: func(string) string { return "" }}
	js, err := judge.ParseList(strings.Join(names, ","), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Expected from the rule: abstentions are never sent (rejected), the
	// rest accepted iff the answer contains the gold.
	want := map[judge.Kind][2]int{}
	sent := 0
	for _, p := range panels {
		for _, a := range p.Answers {
			w := want[a.Kind]
			w[0]++
			if !llm.IsAbstention(a.Answer.Value) {
				sent++
				if strings.Contains(strings.ToLower(a.Answer.Value), strings.ToLower(p.QA.GoldAnswer)) {
					w[1]++
				}
			}
			want[a.Kind] = w
		}
	}
	audit := func(js []judge.Judge) []judge.AuditResult {
		var out []judge.AuditResult
		for _, j := range js {
			r, err := judge.Audit(ctx, j, panels, judge.AuditOptions{Concurrency: 4})
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r)
		}
		return out
	}
	online := audit(js)
	for _, r := range online {
		for _, kr := range r.Rates {
			if w := want[kr.Kind]; kr.N != w[0] || kr.Accepted != w[1] {
				t.Errorf("%s, %s: %d of %d accepted, the stub's rule gives %d of %d", r.Judge, kr.Kind, kr.Accepted, kr.N, w[1], w[0])
			}
		}
		// The stub accepts "not B" (it contains B): the audit says so.
		if r.Verdict != judge.VerdictAcceptsWrong {
			t.Errorf("%s: verdict %s", r.Judge, r.Verdict)
		}
	}
	if hits := srv.Hits(); hits != 3*sent {
		t.Errorf("%d requests, want %d (3 templates × %d non-abstaining answers)", hits, 3*sent, sent)
	}
	for _, r := range srv.Requests() {
		_, _, yesNo, _ := llmtest.JudgePrompt(r)
		if yesNo != (r.MaxTokens == 10 && len(r.Messages) == 1) {
			t.Fatalf("a yes/no prompt (LongMemEval's) must be one user message with max_tokens 10: %+v", r)
		}
	}
	judge.Close(js...)

	// The same audit from the cache alone: no request, same rates.
	offline, err := judge.ParseList(strings.Join(names, ","), judge.Config{CacheDir: cacheDir, Offline: true, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	before := srv.Hits()
	again := audit(offline)
	if srv.Hits() != before {
		t.Errorf("the cached audit sent %d requests", srv.Hits()-before)
	}
	for i := range again {
		if !sameRates(again[i], online[i]) {
			t.Errorf("%s from the cache: %+v, online %+v", again[i].Judge, again[i].Rates, online[i].Rates)
		}
	}
	// Pack: export the cache, import it elsewhere, audit offline.
	var pack bytes.Buffer
	c, err := llm.OpenCache(cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := llm.ExportPack(&pack, c, nil); err != nil {
		t.Fatal(err)
	}
	c.Close()
	judge.Close(offline...)
	packPath := filepath.Join(t.TempDir(), "judge.pack")
	os.WriteFile(packPath, pack.Bytes(), 0o644)
	other := t.TempDir()
	oc, err := llm.OpenCache(other)
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := llm.ImportPack(packPath, oc); err != nil || rep.Imported != 3*sent {
		t.Fatalf("pack import: %+v %v", rep, err)
	}
	oc.Close()
	packed, _ := judge.ParseList(strings.Join(names, ","), judge.Config{CacheDir: other, Offline: true, Getenv: func(string) string { return "" }})
	for i, r := range audit(packed) {
		if !sameRates(r, online[i]) {
			t.Errorf("%s from the pack differs", r.Judge)
		}
	}
	judge.Close(packed...)

	// Batch route: a dry run over an empty cache plans every request; the
	// Batch API output imported into the cache answers the audit offline.
	empty := t.TempDir()
	dry, _ := judge.ParseList(strings.Join(names, ","), judge.Config{CacheDir: empty, Offline: true, Getenv: func(string) string { return "" }})
	plan := llm.NewPlan()
	for _, j := range dry {
		if _, err := judge.Audit(llm.WithPlan(ctx, plan), j, panels, judge.AuditOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	judge.Close(dry...)
	if plan.ToSend() != 3*sent {
		t.Fatalf("plan: %d to send, want %d", plan.ToSend(), 3*sent)
	}
	var in bytes.Buffer
	if err := llm.WriteBatch(&in, plan.Pending()); err != nil {
		t.Fatal(err)
	}
	requests := filepath.Join(t.TempDir(), "requests.jsonl")
	if err := os.WriteFile(requests, in.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(t.TempDir(), "results.jsonl")
	writeBatchResults(t, in.Bytes(), results)
	ec, _ := llm.OpenCache(empty)
	if rep, err := llm.ImportBatch(results, requests, ec); err != nil || rep.Imported != 3*sent {
		t.Fatalf("batch import: %+v %v", rep, err)
	}
	ec.Close()
	batched, _ := judge.ParseList(strings.Join(names, ","), judge.Config{CacheDir: empty, Offline: true, Getenv: func(string) string { return "" }})
	defer judge.Close(batched...)
	for i, r := range audit(batched) {
		if !sameRates(r, online[i]) {
			t.Errorf("%s from the batch route differs", r.Judge)
		}
	}
}

func sameRates(a, b judge.AuditResult) bool {
	if len(a.Rates) != len(b.Rates) || a.Verdict != b.Verdict {
		return false
	}
	for i := range a.Rates {
		if a.Rates[i] != b.Rates[i] {
			return false
		}
	}
	return true
}

// writeBatchResults answers a Batch API input file with the stub judge's
// rule, in the Batch API output format.
func writeBatchResults(t *testing.T, input []byte, path string) {
	t.Helper()
	var out bytes.Buffer
	for _, line := range bytes.Split(bytes.TrimSpace(input), []byte("\n")) {
		var in struct {
			CustomID string          `json:"custom_id"`
			Body     llmtest.Request `json:"body"`
		}
		if err := json.Unmarshal(line, &in); err != nil {
			t.Fatal(err)
		}
		reply, ok := llmtest.SubstringJudge(in.Body)
		if !ok {
			t.Fatalf("not a judge request: %s", line)
		}
		res := map[string]any{"id": "r", "custom_id": in.CustomID, "response": map[string]any{"status_code": 200,
			"body": map[string]any{"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": reply}}}}}}
		b, _ := json.Marshal(res)
		out.Write(append(b, '\n'))
	}
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
