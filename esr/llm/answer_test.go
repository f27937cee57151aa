package llm_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/llm"
)

func TestParseAnswer(t *testing.T) {
	for raw, want := range map[string]esr.Answer{
		"30 s":                                esr.Says("30 s"),
		"  30 s.\n":                           esr.Says("30 s"),
		"Answer: 30 s":                        esr.Says("30 s"),
		"**60 seconds**":                      esr.Says("60 seconds"),
		"\"Al-Nassr\"":                        esr.Says("Al-Nassr"),
		"```\n30 s\n```":                      esr.Says("30 s"),
		"<think>hmm, 60 or 30</think>\n30 s":  esr.Says("30 s"),
		"Let me see.\nFinal answer: replaces": esr.Says("replaces"),
		"ABSTAIN":                             esr.Abstain,
		"abstain.":                            esr.Abstain,
		"ABSTAIN — the sources conflict":      esr.Abstain,
		"Unknown":                             esr.Abstain,
		"uncertain":                           esr.Abstain,
		"It cannot be determined from the context.": esr.Abstain,
		"There is not enough information.":          esr.Abstain,
		"I don't know":                              esr.Abstain,
		"I don’t know":                              esr.Abstain,
		"":                                          esr.Abstain,
		"N/A":                                       esr.Abstain,
		"unknown error handling":                    esr.Says("unknown error handling"),
		"none":                                      esr.Says("none"),
	} {
		if got := llm.ParseAnswer(raw); got != want {
			t.Errorf("ParseAnswer(%q) = %#v, want %#v", raw, got, want)
		}
	}
}

func TestEnvHelpers(t *testing.T) {
	env := map[string]string{"ESR_LLM_BASE_URL": " http://x/v1 ", "ESR_LLM_API_KEY": "k",
		"ESR_LLM_MODELS": "a, b,,a , c"}
	g := func(k string) string { return env[k] }
	c := llm.ConfigFromEnv(g)
	if c.BaseURL != "http://x/v1" || c.APIKey != "k" {
		t.Errorf("%+v", c)
	}
	if ms := llm.ModelsFromEnv(g); len(ms) != 3 || ms[0] != "a" || ms[2] != "c" {
		t.Errorf("models %v", ms)
	}
	if m := llm.JudgeModelFromEnv(g); m != "a" {
		t.Errorf("judge model %q", m)
	}
	env["ESR_LLM_JUDGE_MODEL"] = "deepseek"
	if m := llm.JudgeModelFromEnv(g); m != "deepseek" {
		t.Errorf("judge model %q", m)
	}
}
