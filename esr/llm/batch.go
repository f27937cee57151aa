package llm

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
)

// The batch route: requests written in the OpenAI Batch API input format
// (which `vllm run-batch` also reads), results read back from its output
// format into the response cache.

// batchURL is the url of every batch request line.
const batchURL = "/v1/chat/completions"

// customPrefix starts every custom_id the kit writes:
// "esr1|KEY|TEMPLATE|MODEL", so a result line names its cache entry.
const customPrefix = "esr1|"

// BatchLine is one line of a batch input file.
type BatchLine struct {
	CustomID string          `json:"custom_id"`
	Method   string          `json:"method"`
	URL      string          `json:"url"`
	Body     json.RawMessage `json:"body"`
}

// CustomID is the custom_id of a planned request.
func customID(p Planned) string {
	return customPrefix + p.Key + "|" + p.Template + "|" + p.Request.Model
}

// parseCustomID splits a custom_id written by CustomID.
func parseCustomID(id string) (key, template, model string, err error) {
	if !strings.HasPrefix(id, customPrefix) {
		return "", "", "", fmt.Errorf("custom_id %q was not written by esr batch export (want esr1|KEY|TEMPLATE|MODEL)", id)
	}
	parts := strings.SplitN(id[len(customPrefix):], "|", 3)
	if len(parts) != 3 || parts[1] == "" || parts[2] == "" {
		return "", "", "", fmt.Errorf("custom_id %q: want esr1|KEY|TEMPLATE|MODEL", id)
	}
	if b, err := hex.DecodeString(parts[0]); err != nil || len(b) != 32 {
		return "", "", "", fmt.Errorf("custom_id %q: key is not 64 hex digits", id)
	}
	return parts[0], parts[1], parts[2], nil
}

// WriteBatch writes one Batch API request line per planned request: the
// body is exactly what Client.Chat sends (requestBody).
func WriteBatch(w io.Writer, reqs []Planned) error {
	bw := bufio.NewWriter(w)
	for _, p := range reqs {
		body, err := requestBody(p.Request)
		if err != nil {
			return err
		}
		line, err := json.Marshal(BatchLine{CustomID: customID(p), Method: "POST", URL: batchURL, Body: body})
		if err != nil {
			return err
		}
		bw.Write(line)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// batchResult is one line of a Batch API output file.
type batchResult struct {
	ID       string `json:"id"`
	CustomID string `json:"custom_id"`
	Response *struct {
		StatusCode int             `json:"status_code"`
		Body       json.RawMessage `json:"body"`
	} `json:"response"`
	Error json.RawMessage `json:"error"`
}

// ImportReport is what ImportBatch did.
type ImportReport struct {
	// Lines read; Imported into the cache; Already in it with the same
	// answer (left as they were); Conflicts in it with another answer (the
	// cache's is kept); Duplicates repeat an earlier line's answer.
	Lines      int `json:"lines"`
	Imported   int `json:"imported"`
	Already    int `json:"already_cached"`
	Conflicts  int `json:"conflicts_with_cache"`
	Duplicates int `json:"duplicates"`
	// Failed lines (the request failed: an error, a non-200 status, a body
	// without an answer, an empty or cut reply) are left uncached; a later
	// export asks again.
	Failed []string `json:"failed,omitempty"`
	// Invalid lines are not answers to the exported requests (file:line:
	// field: problem): malformed lines, custom ids of no exported request
	// (a line from another export), a body for another model, two
	// different answers to one request. None of them is imported.
	Invalid []string `json:"invalid,omitempty"`
}

// exported is one request of a batch input file.
type exported struct {
	key, template, model string
	prompt               string // hashPrompt of the body's messages
	params               Params
}

// readExported reads a batch input file (WriteBatch's) into its requests by
// custom_id, checking that each custom_id's key is its body's.
func readExported(path string) (map[string]exported, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]exported{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for ln := 1; sc.Scan(); ln++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		at := fmt.Sprintf("%s:%d", path, ln)
		var l BatchLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			return nil, fmt.Errorf("%s: not a batch request line: %v", at, err)
		}
		key, template, model, err := parseCustomID(l.CustomID)
		if err != nil {
			return nil, fmt.Errorf(`%s: field "custom_id": %v`, at, err)
		}
		var body wireRequest
		if err := json.Unmarshal(l.Body, &body); err != nil {
			return nil, fmt.Errorf(`%s: field "body": %v`, at, err)
		}
		if body.Model != model {
			return nil, fmt.Errorf(`%s: field "body.model": %q, but the custom_id names %q`, at, body.Model, model)
		}
		params := Params{Temperature: body.Temperature, MaxTokens: body.MaxTokens, N: 1}
		prompt := hashPrompt(body.Messages)
		if k := keyOf(model, template, prompt, params); k != key {
			return nil, fmt.Errorf(`%s: field "custom_id": its key is not the body's request (edited file?)`, at)
		}
		out[l.CustomID] = exported{key: key, template: template, model: model, prompt: prompt, params: params}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no requests", path)
	}
	return out, nil
}

// sameModel reports whether a result body's model answers a request for
// want: the same name, or want with a dated snapshot suffix
// ("gpt-4o" → "gpt-4o-2024-08-06"), or no name at all.
func sameModel(want, got string) bool {
	if got == "" || got == want {
		return true
	}
	rest, ok := strings.CutPrefix(got, want+"-")
	if !ok || len(rest) != len("2006-01-02") {
		return false
	}
	for i, r := range rest {
		if i == 4 || i == 7 {
			if r != '-' {
				return false
			}
		} else if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// ImportBatch reads a Batch API output file (results) into c, checking each
// line against the batch input file it answers (requests, as `esr batch
// export` wrote it). keys are secrets to redact from answers (as Client
// does). A line that is not an answer to one of those requests is reported
// in Invalid, a failed request in Failed; neither is imported, and neither
// stops the other lines.
func ImportBatch(results, requests string, c *Cache, keys ...string) (ImportReport, error) {
	var rep ImportReport
	reqs, err := readExported(requests)
	if err != nil {
		return rep, err
	}
	f, err := os.Open(results)
	if err != nil {
		return rep, err
	}
	defer f.Close()
	type answer struct {
		line int
		resp Response
	}
	var order []string
	answers := map[string]answer{}
	conflicted := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for ln := 1; sc.Scan(); ln++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		rep.Lines++
		at := fmt.Sprintf("%s:%d", results, ln)
		invalid := func(format string, args ...any) {
			rep.Invalid = append(rep.Invalid, at+": "+redactAll(fmt.Sprintf(format, args...), keys))
		}
		var r batchResult
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			invalid("not a JSON object: %v", err)
			continue
		}
		if r.CustomID == "" {
			invalid(`field "custom_id": missing`)
			continue
		}
		if _, _, _, err := parseCustomID(r.CustomID); err != nil {
			invalid(`field "custom_id": %v`, err)
			continue
		}
		req, ok := reqs[r.CustomID]
		if !ok {
			invalid(`field "custom_id": not a request of %s (a line from another export?)`, requests)
			continue
		}
		model := req.model
		if len(r.Error) > 0 && string(r.Error) != "null" {
			rep.Failed = append(rep.Failed, fmt.Sprintf(`%s: %s: field "error": %s`, at, model, snippet(r.Error, keys)))
			continue
		}
		if r.Response == nil {
			rep.Failed = append(rep.Failed, fmt.Sprintf(`%s: %s: field "response": missing`, at, model))
			continue
		}
		if r.Response.StatusCode != 200 {
			rep.Failed = append(rep.Failed, fmt.Sprintf(`%s: %s: field "response.status_code": %d: %s`, at, model,
				r.Response.StatusCode, snippet(r.Response.Body, keys)))
			continue
		}
		resp, got, msg := parseCompletion(r.Response.Body, keys)
		if !sameModel(model, got) {
			invalid(`field "response.body.model": %q answered a request for model %q`, got, model)
			continue
		}
		if msg != "" {
			rep.Failed = append(rep.Failed, fmt.Sprintf(`%s: %s: field "response.body": %s`, at, model, redactAll(msg, keys)))
			continue
		}
		resp.Content = redactKeys(resp.Content, keys)
		if prev, dup := answers[r.CustomID]; dup {
			if prev.resp != resp {
				invalid(`field "custom_id": a second, different answer to the request of line %d`, prev.line)
				conflicted[r.CustomID] = true
			} else {
				rep.Duplicates++
			}
			continue
		}
		answers[r.CustomID] = answer{line: ln, resp: resp}
		order = append(order, r.CustomID)
	}
	if err := sc.Err(); err != nil {
		return rep, fmt.Errorf("%s: %w", results, err)
	}
	for _, id := range order {
		if conflicted[id] {
			continue
		}
		req, a := reqs[id], answers[id]
		if old, ok, err := c.Get(req.key); err != nil {
			return rep, err
		} else if ok {
			if old.Response == a.resp {
				rep.Already++
			} else {
				rep.Conflicts++
			}
			continue
		}
		if err := c.Put(req.key, Entry{Model: req.model, Template: req.template, Response: a.resp, Prompt: req.prompt, Params: &req.params}); err != nil {
			return rep, err
		}
		rep.Imported++
	}
	return rep, nil
}

// EnvKeys are the API keys configured for models (the default key and each
// model's ESR_LLM_API_KEY_<MODEL>) and the secrets of the base URLs (see
// urlSecrets), for redaction.
func (e Env) Keys(models []string) []string {
	var out []string
	for _, m := range models {
		if ep, err := e.Endpoint(m); err == nil {
			if u, err := url.Parse(ep.BaseURL); err == nil {
				out = append(out, urlSecrets(u)...)
			}
		}
	}
	if k := e.get(EnvAPIKey); k != "" {
		out = append(out, k)
	}
	if e.APIKey != "" {
		out = append(out, e.APIKey)
	}
	for _, m := range models {
		if k := e.get(keyEnv(m)); k != "" {
			out = append(out, k)
		}
	}
	return out
}
