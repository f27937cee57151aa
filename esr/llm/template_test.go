package llm_test

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/llm"
)

func TestBuiltinTemplates(t *testing.T) {
	for _, n := range []string{llm.TemplateQAAbstain, llm.TemplateQANoAbstain, llm.TemplateJudge, llm.TemplateExtract} {
		tm, err := llm.Builtin(n)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(tm.Version(), n+"/v") || !strings.Contains(tm.Version(), "+") {
			t.Errorf("%s version %q", n, tm.Version())
		}
		if tm.Description == "" {
			t.Errorf("%s has no description", n)
		}
	}
	ab, _ := llm.MustBuiltin(llm.TemplateQAAbstain).Render(llm.QAData{Context: "C", Question: "Q", QueryType: "snapshot"})
	no, _ := llm.MustBuiltin(llm.TemplateQANoAbstain).Render(llm.QAData{Context: "C", Question: "Q", QueryType: "snapshot"})
	if !strings.Contains(ab[1].Content, "ABSTAIN") || strings.Contains(no[1].Content, "ABSTAIN") {
		t.Errorf("abstain instruction: with=%q without=%q", ab[1].Content, no[1].Content)
	}
	rel, _ := llm.MustBuiltin(llm.TemplateQAAbstain).Render(llm.QAData{Context: "C", Question: "Q", QueryType: "relation-type"})
	if !strings.Contains(rel[1].Content, `"refines"`) || strings.Contains(ab[1].Content, `"refines"`) {
		t.Error("relation-type hint missing or leaking")
	}
	if _, err := llm.Builtin("nope"); err == nil {
		t.Error("unknown template accepted")
	}
}

func TestParseTemplate(t *testing.T) {
	good := "version: x/v1\ndescription: a\n  b\n--- system\nS {{.Question}}\n--- user\nU {{.Question}}\n"
	tm, err := llm.ParseTemplate("x", good)
	if err != nil {
		t.Fatal(err)
	}
	if tm.Description != "a b" {
		t.Errorf("description %q", tm.Description)
	}
	edited, _ := llm.ParseTemplate("x", good+"more\n")
	if edited.Version() == tm.Version() {
		t.Error("an edit without a version bump keeps the version string")
	}
	msgs, err := tm.Render(llm.QAData{Question: "Q"})
	if err != nil || len(msgs) != 2 || msgs[0].Content != "S Q" || msgs[1].Content != "U Q" {
		t.Errorf("%v %+v", err, msgs)
	}
	for _, bad := range []string{
		"--- user\nx\n",                          // no version
		"version: v\n",                           // no user section
		"version: v\n--- other\nx\n",             // unknown section
		"version: v\nfoo: bar\n--- user\nx\n",    // unknown header
		"version: v\n--- user\n{{.Nope\n",        // template syntax
		"version: v\n--- user\nx\n--- user\ny\n", // duplicate
	} {
		if _, err := llm.ParseTemplate("bad", bad); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}
