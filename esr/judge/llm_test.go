package judge

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/internal/llmtest"
)

func TestLLMJudge(t *testing.T) {
	srv := llmtest.New(llmtest.Options{Keep: true, Reply: func(r llmtest.Request) string {
		if strings.Contains(r.User(), "Candidate answer: half a minute") {
			return "CORRECT"
		}
		return "**INCORRECT.**"
	}})
	defer srv.Close()
	j, err := Parse("llm:deepseek-v3", Config{CacheDir: t.TempDir(), BaseURL: srv.BaseURL(), APIKey: "k-secret-123",
		Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer j.(*LLMJudge).Close()
	if j.Name() != "llm:deepseek-v3" {
		t.Errorf("name %s", j.Name())
	}
	qa := &esr.QA{Question: "What timeout?", GoldAnswer: "30 s", Aliases: []string{"30 seconds"}}
	ctx := context.Background()
	for ans, want := range map[string]bool{"half a minute": true, "60 s": false} {
		for i := 0; i < 2; i++ { // the second time from the cache
			v, err := j.Judge(ctx, qa, esr.Says(ans))
			if err != nil || v.Correct != want || v.Rule != ruleLLM {
				t.Errorf("%q: %+v %v", ans, v, err)
			}
		}
	}
	// Abstentions are decided without asking.
	if v, _ := j.Judge(ctx, qa, esr.Abstain); v.Correct || !v.Abstained {
		t.Errorf("abstain vs value gold: %+v", v)
	}
	if v, _ := j.Judge(ctx, &esr.QA{GoldAnswer: "ABSTAIN"}, esr.Says("unknown")); !v.Correct {
		t.Errorf("abstain vs abstain gold: %+v", v)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	u := reqs[0].User()
	for _, want := range []string{"Question: What timeout?", "Gold answer: 30 s", "Also accepted: 30 seconds", "CORRECT or INCORRECT"} {
		if !strings.Contains(u, want) {
			t.Errorf("judge prompt lacks %q:\n%s", want, u)
		}
	}
	if *reqs[0].Temperature != 0 || reqs[0].Model != "deepseek-v3" {
		t.Errorf("request %+v", reqs[0])
	}
}

func TestParseJudgeReply(t *testing.T) {
	for reply, want := range map[string]bool{
		"CORRECT": true, "correct.": true, "Yes": true, "INCORRECT": false, "Incorrect — different value": false,
		"": false, "<think>it is correct</think>INCORRECT": false, "The answer is correct": false,
	} {
		if got := parseJudgeReply(reply); got != want {
			t.Errorf("%q: %v", reply, got)
		}
	}
}

func TestParseJudge(t *testing.T) {
	if j, err := Parse("exact", Config{}); err != nil || j.Name() != "exact" {
		t.Errorf("exact: %v %v", j, err)
	}
	empty := func(string) string { return "" }
	if _, err := Parse("llm", Config{Getenv: empty}); err == nil || !strings.Contains(err.Error(), "ESR_LLM_JUDGE_MODEL") {
		t.Errorf("no model: %v", err)
	}
	if _, err := Parse("llm:m", Config{Getenv: empty}); err == nil || !strings.Contains(err.Error(), "ESR_LLM_BASE_URL") {
		t.Errorf("no endpoint: %v", err)
	}
	env := map[string]string{"ESR_LLM_BASE_URL": "http://127.0.0.1:1/v1", "ESR_LLM_MODELS": "m1,m2"}
	j, err := Parse("llm", Config{Getenv: func(k string) string { return env[k] }})
	if err != nil || j.Name() != "llm:m1" {
		t.Errorf("default model: %v %v", j, err)
	}
	if _, err := Parse("fuzzy", Config{}); err == nil {
		t.Error("unknown judge accepted")
	}
}
