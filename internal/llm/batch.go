package llm

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

// The batch route: requests written in the OpenAI Batch API input format
// (which `vllm run-batch` also reads), results read back from its output
// format into the response cache.

// BatchURL is the url of every batch request line.
const BatchURL = "/v1/chat/completions"

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
func CustomID(p Planned) string {
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
// body is exactly what Client.Chat sends (RequestBody).
func WriteBatch(w io.Writer, reqs []Planned) error {
	bw := bufio.NewWriter(w)
	for _, p := range reqs {
		body, err := RequestBody(p.Request)
		if err != nil {
			return err
		}
		line, err := json.Marshal(BatchLine{CustomID: CustomID(p), Method: "POST", URL: BatchURL, Body: body})
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
	// Lines read; Imported into the cache; Already in it (left as they were).
	Lines    int `json:"lines"`
	Imported int `json:"imported"`
	Already  int `json:"already_cached"`
	// Failed lines (the request failed: an error, a non-200 status, a body
	// without an answer) are left uncached; a later export asks again.
	Failed []string `json:"failed,omitempty"`
	// Invalid lines are not Batch API output lines of esr's requests
	// (file:line: field: problem).
	Invalid []string `json:"invalid,omitempty"`
}

// ImportBatch reads a Batch API output file into c. keys are secrets to
// redact from answers (as Client does). A line that is not valid output is
// reported in Invalid, a failed request in Failed; neither stops the import.
func ImportBatch(path string, c *Cache, keys ...string) (ImportReport, error) {
	var rep ImportReport
	f, err := os.Open(path)
	if err != nil {
		return rep, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for ln := 1; sc.Scan(); ln++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		rep.Lines++
		at := fmt.Sprintf("%s:%d", path, ln)
		var r batchResult
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			rep.Invalid = append(rep.Invalid, fmt.Sprintf("%s: not a JSON object: %v", at, err))
			continue
		}
		if r.CustomID == "" {
			rep.Invalid = append(rep.Invalid, at+`: field "custom_id": missing`)
			continue
		}
		key, template, model, err := parseCustomID(r.CustomID)
		if err != nil {
			rep.Invalid = append(rep.Invalid, fmt.Sprintf(`%s: field "custom_id": %v`, at, err))
			continue
		}
		if len(r.Error) > 0 && string(r.Error) != "null" {
			rep.Failed = append(rep.Failed, fmt.Sprintf(`%s: %s: field "error": %s`, at, model, redactAll(snippet(r.Error), keys)))
			continue
		}
		if r.Response == nil {
			rep.Failed = append(rep.Failed, fmt.Sprintf(`%s: %s: field "response": missing`, at, model))
			continue
		}
		if r.Response.StatusCode != 200 {
			rep.Failed = append(rep.Failed, fmt.Sprintf(`%s: %s: field "response.status_code": %d: %s`, at, model,
				r.Response.StatusCode, redactAll(snippet(r.Response.Body), keys)))
			continue
		}
		resp, msg := parseCompletion(r.Response.Body)
		if msg != "" {
			rep.Failed = append(rep.Failed, fmt.Sprintf(`%s: %s: field "response.body": %s`, at, model, redactAll(msg, keys)))
			continue
		}
		resp.Content = redactAll(resp.Content, keys)
		if _, ok, err := c.Get(key); err != nil {
			return rep, err
		} else if ok {
			rep.Already++
			continue
		}
		if err := c.Put(key, Entry{Model: model, Template: template, Response: resp}); err != nil {
			return rep, err
		}
		rep.Imported++
	}
	if err := sc.Err(); err != nil {
		return rep, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}

func redactAll(s string, keys []string) string {
	for _, k := range keys {
		s = redactString(s, k)
	}
	return redactString(s, "")
}

// EnvKeys are the API keys configured for models (the default key and each
// model's ESR_LLM_API_KEY_<MODEL>), for redaction.
func (e Env) Keys(models []string) []string {
	var out []string
	if k := e.get(EnvAPIKey); k != "" {
		out = append(out, k)
	}
	if e.APIKey != "" {
		out = append(out, e.APIKey)
	}
	for _, m := range models {
		if k := e.get(KeyEnv(m)); k != "" {
			out = append(out, k)
		}
	}
	return out
}
