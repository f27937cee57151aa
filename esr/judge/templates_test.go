package judge

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/llmtest"
)

func TestParseJudgeNames(t *testing.T) {
	empty := func(string) string { return "" }
	cfg := Config{BaseURL: "http://127.0.0.1:1/v1", Getenv: empty}
	for name, want := range map[string]string{
		"exact": "exact", "exact-lenient": "exact-lenient", "exact-strict": "exact-strict",
		"llm:m": "llm:m", "llm:m@template=kit": "llm:m", "llm:m@template=longmemeval": "llm:m@template=longmemeval",
		"llm:m@template=strict": "llm:m@template=strict",
	} {
		j, err := Parse(name, cfg)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if j.Name() != want {
			t.Errorf("%s: name %s, want %s", name, j.Name(), want)
		}
	}
	env := map[string]string{"ESR_LLM_BASE_URL": "http://127.0.0.1:1/v1", "ESR_LLM_MODELS": "m1"}
	j, err := Parse("llm@template=longmemeval", Config{Getenv: func(k string) string { return env[k] }})
	if err != nil || j.Name() != "llm:m1@template=longmemeval" {
		t.Errorf("default model with a template: %v %v", j, err)
	}
	for _, bad := range []string{"llm:m@template=nope", "llm:m@temp=strict", "llm:m@strict", "exact@template=strict", "fuzzy"} {
		if _, err := Parse(bad, cfg); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	js, err := ParseList("exact, exact-lenient,llm:m@template=strict", cfg)
	if err != nil || len(js) != 3 || js[2].Name() != "llm:m@template=strict" {
		t.Errorf("ParseList: %v %v", js, err)
	}
	// The templates' configs differ, so results never mix in a cache.
	a, _ := Parse("llm:m", cfg)
	b, _ := Parse("llm:m@template=longmemeval", cfg)
	if ca, cb := a.(*LLMJudge).Config(), b.(*LLMJudge).Config(); ca == cb {
		t.Errorf("kit and longmemeval configs equal: %v", ca)
	}
}

// The LongMemEval judge asks one user message at temperature 0 with a
// 10-token bound, without aliases, and reads 'yes' anywhere in the reply.
func TestLongMemEvalJudge(t *testing.T) {
	replies := map[string]string{"30 s": "Yes.", "60 s": "no", "30 s or 60 s": "No, but yes-ish"}
	srv := llmtest.New(llmtest.Options{Keep: true, Reply: func(r llmtest.Request) string {
		_, ans, yesNo, ok := llmtest.JudgePrompt(r)
		if !ok || !yesNo {
			t.Errorf("not a yes/no judge prompt: %q", r.User())
		}
		return replies[ans]
	}})
	defer srv.Close()
	j, err := Parse("llm:gpt-4o@template=longmemeval", Config{CacheDir: t.TempDir(), BaseURL: srv.BaseURL(), Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	defer Close(j)
	qa := &esr.QA{Question: "What is the timeout?", GoldAnswer: "30 s", Aliases: []string{"thirty seconds"}}
	for ans, want := range map[string]bool{"30 s": true, "60 s": false, "30 s or 60 s": true} {
		v, err := j.Judge(context.Background(), qa, esr.Says(ans))
		if err != nil || v.Correct != want {
			t.Errorf("%q: %+v %v", ans, v, err)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if len(r.Messages) != 1 || r.Messages[0].Role != "user" || r.MaxTokens != 10 || *r.Temperature != 0 {
		t.Errorf("request: %d messages, max_tokens %d", len(r.Messages), r.MaxTokens)
	}
	if u := r.User(); !strings.Contains(u, "Reference answer: 30 s") || strings.Contains(u, "thirty seconds") {
		t.Errorf("prompt: %s", u)
	}
	tm, _ := llm.Builtin("judge-longmemeval")
	if got := fmt.Sprint(j.(*LLMJudge).Config()); !strings.Contains(got, tm.Version()) {
		t.Errorf("config %s lacks template version %s", got, tm.Version())
	}
}

func TestReplyContainsYes(t *testing.T) {
	for reply, want := range map[string]bool{"yes": true, "Yes.": true, "YES": true, "no": false, "No.": false, "": false,
		"CORRECT": false, "eyes": true} {
		if got := replyContainsYes(reply); got != want {
			t.Errorf("%q: %v", reply, got)
		}
	}
}

func TestJudgeTemplatesDocumented(t *testing.T) {
	for _, jt := range JudgeTemplates {
		tm, err := llm.Builtin(jt.File)
		if err != nil {
			t.Errorf("%s: %v", jt.Name, err)
			continue
		}
		if jt.Source == "" || jt.Differs == "" || jt.ReplyRule == "" || jt.Reply == nil || jt.MaxTokens <= 0 || tm.Description == "" {
			t.Errorf("%s is not documented: %+v", jt.Name, jt)
		}
		// Every template renders the judge data.
		if _, err := tm.Render(judgeData{Question: "q", Gold: "g", Aliases: []string{"a"}, Answer: "x"}); err != nil {
			t.Errorf("%s: %v", jt.Name, err)
		}
	}
}
