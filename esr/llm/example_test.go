package llm_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/esrkit/esrkit/esr/llm"
)

// A built-in prompt template renders to the chat messages a reader sends.
func ExampleTemplate_Render() {
	t := llm.MustBuiltin("qa-abstain")
	msgs, err := t.Render(llm.QAData{Context: "[2024-03-01] the printer is broken", Question: "Is the printer working?", QueryType: "status"})
	if err != nil {
		panic(err)
	}
	for _, m := range msgs {
		fmt.Println(m.Role, strings.Contains(m.Content, "Is the printer working?"))
	}
	fmt.Println(t.Name)
	// Output:
	// system false
	// user true
	// qa-abstain
}

// A response put in the cache is there after the cache is closed and
// opened again; a request it does not hold, asked without a client, is an
// ErrNotCached (what an offline run reports instead of calling out).
func ExampleOpenCache() {
	dir, err := os.MkdirTemp("", "llm-cache")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	c, err := llm.OpenCache(dir)
	if err != nil {
		panic(err)
	}
	e := llm.Entry{Model: "m", Template: "qa/v1", Response: llm.Response{Content: "yes"}, Created: "2026-01-01T00:00:00Z"}
	if err := c.Put("greeting", e); err != nil {
		panic(err)
	}
	c.Close()

	c, err = llm.OpenCache(dir)
	if err != nil {
		panic(err)
	}
	defer c.Close()
	got, ok, err := c.Get("greeting")
	fmt.Println(got.Response.Content, ok, err, c.Len())

	req := llm.Request{Model: "m", Messages: []llm.Message{{Role: "user", Content: "hello?"}}}
	_, hit, err := llm.Cached(context.Background(), nil, c, "qa/v1", req)
	fmt.Println(hit, errors.Is(err, llm.ErrNotCached))
	// Output:
	// yes true <nil> 1
	// false true
}

// Endpoints come from the environment (here a map): a default base URL and
// key, and a model given as NAME=URL with its own endpoint. The key is never
// printed.
func ExampleEnv_Endpoint() {
	vars := map[string]string{
		"ESR_LLM_BASE_URL": "http://localhost:8000/v1",
		"ESR_LLM_API_KEY":  "sk-secret",
		"ESR_LLM_MODELS":   "qwen3-8b, llama=http://gpu-2:8000/v1",
	}
	env := llm.Env{Getenv: func(k string) string { return vars[k] }}
	models, err := env.Models()
	if err != nil {
		panic(err)
	}
	for _, m := range models {
		ep, err := env.Endpoint(m.Name)
		if err != nil {
			panic(err)
		}
		fmt.Println(ep, ep.APIKey != "")
	}
	// Output:
	// qwen3-8b → http://localhost:8000/v1 true
	// llama → http://gpu-2:8000/v1 true
}

// A reply is read as an answer or an abstention.
func ExampleParseAnswer() {
	for _, reply := range []string{"Yes, it was fixed on 3 March.", "I don't know."} {
		a := llm.ParseAnswer(reply)
		fmt.Printf("%q abstained=%v\n", a.Value, a.Abstain)
	}
	// Output:
	// "Yes, it was fixed on 3 March" abstained=false
	// "ABSTAIN" abstained=true
}
