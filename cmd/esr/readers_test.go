package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func readersLines(t *testing.T, args ...string) []map[string]any {
	t.Helper()
	var out, errb bytes.Buffer
	if code := runMain(append([]string{"readers"}, args...), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var rows []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		rows = append(rows, m)
	}
	return rows
}

func TestReadersCommand(t *testing.T) {
	t.Setenv("ESR_LLM_MODELS", "")
	t.Setenv("ESR_LLM_API_KEY", "sk-readers-secret-42")
	rows := readersLines(t)
	byName := map[string]map[string]any{}
	for _, r := range rows {
		byName[r["name"].(string)] = r
		if _, ok := r["capabilities"].(map[string]any); !ok {
			t.Errorf("%v: capabilities is not an object", r["name"])
		}
		if r["kind"] == "scripted" && r["simulated"] != true {
			t.Errorf("%v is not marked simulated", r["name"])
		}
	}
	if o := byName["oracle"]; o == nil || o["simulated"] != false || o["kind"] != "oracle" {
		t.Errorf("oracle row %v", o)
	}
	for _, p := range []string{"status-reader", "time-sorter", "cautious", "budgeted", "majority"} {
		r := byName["scripted:"+p]
		if r == nil {
			t.Errorf("no scripted:%s", p)
			continue
		}
		caps := r["capabilities"].(map[string]any)
		for _, k := range []string{"uses_status", "sorts_by_time", "on_conflict", "token_budget"} {
			if _, ok := caps[k]; !ok {
				t.Errorf("scripted:%s lacks %s", p, k)
			}
		}
	}
	for _, p := range []string{"careful", "date-sorter", "status-reader", "skimmer", "hedger"} {
		r := byName["sim:"+p]
		if r == nil || r["kind"] != "sim" || r["simulated"] != true {
			t.Errorf("sim:%s row %v", p, r)
			continue
		}
		caps := r["capabilities"].(map[string]any)
		for _, k := range []string{"status_skill", "date_skill", "date_decay_per_row", "first_row_bias", "abstain_on_conflict", "row_budget", "token_budget"} {
			if _, ok := caps[k]; !ok {
				t.Errorf("sim:%s lacks %s", p, k)
			}
		}
	}
	for n := range byName {
		if strings.HasPrefix(n, "llm:") {
			t.Errorf("llm reader listed without ESR_LLM_MODELS: %s", n)
		}
	}

	t.Setenv("ESR_LLM_MODELS", "qwen2.5-7b,llama-3.1-8b")
	var all bytes.Buffer
	rows = readersLines(t)
	for _, r := range rows {
		b, _ := json.Marshal(r)
		all.Write(b)
	}
	if !strings.Contains(all.String(), `"name":"llm:qwen2.5-7b"`) || !strings.Contains(all.String(), `"name":"llm:llama-3.1-8b"`) {
		t.Errorf("llm readers missing: %s", all.String())
	}
	if strings.Contains(all.String(), "sk-readers-secret-42") {
		t.Error("the API key is printed")
	}
	if rows := readersLines(t, "--models", "m9"); rows[len(rows)-1]["name"] != "llm:m9" {
		t.Errorf("--models: %v", rows[len(rows)-1])
	}
}
