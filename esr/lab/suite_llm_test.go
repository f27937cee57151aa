package lab_test

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/benchtest"
	"github.com/esrkit/esrkit/internal/llmtest"
)

// The suites run unchanged with an LLM family (a local stub that speaks the
// chat-completions API): the strict-decode stage asks with the strict
// template, Table 19 with each wording, and a rerun of a cached suite sends
// no request.
func TestSuitesWithLLMReader(t *testing.T) {
	stub := llmtest.New(llmtest.Options{Keep: true, Reply: func(r llmtest.Request) string {
		if strings.Contains(r.User(), "60 s") && strings.Contains(r.User(), "30 s") {
			return "30 s"
		}
		return "ABSTAIN"
	}})
	defer stub.Close()
	cache := t.TempDir()
	rs, err := reader.ParseList("llm:stub-model", llm.Setup{CacheDir: cache, Concurrency: 4, BaseURL: stub.BaseURL(),
		Getenv: func(string) string { return "" }}, sim.Readers)
	if err != nil {
		t.Fatal(err)
	}
	s := lab.Setup{Bench: benchtest.Mini(4), Readers: rs, Stats: eval.StatOptions{B: 200}}
	for _, name := range []string{"boundary", "checks"} {
		res, err := lab.SuiteID(name).Suite().Run(context.Background(), s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(res.Rows) == 0 {
			t.Fatalf("%s: no rows", name)
		}
	}
	var strict, terse, conservative int
	for _, r := range stub.Requests() {
		u := r.User()
		switch {
		case strings.Contains(u, "Strict rule"):
			strict++
		case strings.Contains(u, "If unsure, reply ABSTAIN"):
			terse++
		case strings.Contains(u, "Prefer to give your best answer"):
			conservative++
		}
	}
	if strict == 0 || terse == 0 || conservative == 0 {
		t.Errorf("variant prompts sent: strict %d, terse %d, conservative %d", strict, terse, conservative)
	}
	// Everything is cached now: running again asks nothing.
	before := stub.Hits()
	if _, err := lab.SuiteChecks.Suite().Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	if stub.Hits() != before {
		t.Errorf("cached rerun sent %d requests", stub.Hits()-before)
	}
}
