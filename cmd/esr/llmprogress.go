package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/safefile"
)

// progressInterval is how often long runs print a progress line.
var progressInterval = 10 * time.Second

// meter prints, every progressInterval while LLM models are in use, the
// items done with ETA and per model the requests answered, throughput,
// retries and failures; summary is the same at the end, for the summary
// file beside the outcome rows.
type meter struct {
	w           io.Writer
	pool        *llm.Pool
	label       string
	start       time.Time
	mu          sync.Mutex
	done, total int
	nFailed     int
	failures    []string // the first maxFailureLines items that failed
	quit        chan struct{}
	wg          sync.WaitGroup
}

func startMeter(w io.Writer, pool *llm.Pool, label string) *meter {
	m := &meter{w: w, pool: pool, label: label, start: time.Now(), quit: make(chan struct{})}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		t := time.NewTicker(progressInterval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				if m.used() {
					fmt.Fprintln(m.w, m.line())
				}
			case <-m.quit:
				return
			}
		}
	}()
	return m
}

func (m *meter) progress(done, total int) {
	m.mu.Lock()
	m.done, m.total = done, total
	m.mu.Unlock()
}

// maxFailureLines bounds the failed items a summary lists.
const maxFailureLines = 20

// failed counts an item whose reply failed.
func (m *meter) failed(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nFailed++
	if len(m.failures) < maxFailureLines {
		m.failures = append(m.failures, err.Error())
	}
}

func (m *meter) used() bool { return len(m.pool.Models()) > 0 }

func (m *meter) stop() {
	close(m.quit)
	m.wg.Wait()
	if m.used() {
		fmt.Fprintln(m.w, m.line())
	}
}

// modelLine is one model's traffic in a summary.
type modelLine struct {
	Model     string  `json:"model"`
	Answered  int64   `json:"answered"`
	Failed    int64   `json:"failed"`
	Attempts  int64   `json:"attempts"`
	Retries   int64   `json:"retries"`
	PerSecond float64 `json:"requests_per_second"`
}

type runSummary struct {
	Label string `json:"run"`
	Items int    `json:"items_done"`
	Total int    `json:"items_total"`
	// ItemsFailed items got no answer (a failed, empty or cut reply after
	// retries) and no row: a rerun retries them. Failures lists the first.
	ItemsFailed int         `json:"items_failed"`
	Failures    []string    `json:"failures,omitempty"`
	Seconds     float64     `json:"seconds"`
	Models      []modelLine `json:"models"`
}

func (m *meter) summary() runSummary {
	m.mu.Lock()
	s := runSummary{Label: m.label, Items: m.done, Total: m.total, ItemsFailed: m.nFailed,
		Failures: append([]string(nil), m.failures...), Seconds: time.Since(m.start).Seconds()}
	m.mu.Unlock()
	for _, name := range m.pool.Models() {
		st := m.pool.ModelStats(name)
		l := modelLine{Model: name, Answered: st.Done, Failed: st.Failures, Attempts: st.Requests, Retries: st.Retries}
		if s.Seconds > 0 {
			l.PerSecond = float64(st.Done) / s.Seconds
		}
		s.Models = append(s.Models, l)
	}
	return s
}

func (m *meter) line() string {
	s := m.summary()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d/%d items", s.Label, s.Items, s.Total)
	if s.ItemsFailed > 0 {
		fmt.Fprintf(&b, " (%d failed)", s.ItemsFailed)
	}
	if s.Items > 0 && s.Total > s.Items {
		eta := time.Duration(s.Seconds * float64(s.Total-s.Items) / float64(s.Items) * float64(time.Second))
		fmt.Fprintf(&b, ", eta %s", eta.Round(time.Second))
	}
	for _, l := range s.Models {
		fmt.Fprintf(&b, "; %s: %d answered, %.1f req/s, %d retries, %d failed", l.Model, l.Answered, l.PerSecond, l.Retries, l.Failed)
	}
	return b.String()
}

// planJSON is a dry run's output.
type planJSON struct {
	Models       []llm.PlanModel `json:"models"`
	Requests     int             `json:"requests"`
	Cached       int             `json:"cached"`
	ToSend       int             `json:"to_send"`
	PromptTokens int             `json:"est_prompt_tokens"`
	ToSendTokens int             `json:"est_prompt_tokens_to_send"`
	Note         string          `json:"note,omitempty"`
}

func planSummary(p *llm.Plan, llmJudge bool) planJSON {
	out := planJSON{Models: p.Models()}
	if out.Models == nil {
		out.Models = []llm.PlanModel{}
	}
	for _, m := range out.Models {
		out.Requests += m.Requests
		out.Cached += m.Cached
		out.ToSend += m.ToSend
		out.PromptTokens += m.PromptTokens
		out.ToSendTokens += m.ToSendPromptTokens
	}
	if llmJudge && out.ToSend > 0 {
		out.Note = "the LLM judge's requests depend on the readers' answers: those for answers not cached yet are not counted (at most one per reader request to send); run the dry run again once the readers' answers are in"
	}
	return out
}

func printPlan(w io.Writer, p *llm.Plan, llmJudge bool) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(planSummary(p, llmJudge))
}

// writeJSON writes v as indented JSON to path (atomically: nothing partial
// and no temporary file is left behind).
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return safefile.WriteFile(path, append(b, '\n'), 0o644)
}
