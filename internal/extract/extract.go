// Package extract is the atom extractor of the reference pipeline (paper
// §3.2, spec §8): a frozen LLM reads one event at a time and returns the
// (entity, attribute, value, polarity) atoms it asserts, restricted to a
// closed attribute inventory. Replies are cached like the readers' (a killed
// run resumes; a rerun asks nothing) and written as atoms.jsonl, one row per
// stream.
package extract

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/workpool"
)

// GitHubAttributes is the spec §8 GitHub attribute inventory.
var GitHubAttributes = []string{"issue_status", "issue_label_set", "reproduction_condition", "active_blocker",
	"proposed_workaround", "assigned_owner", "severity", "claim_validity"}

// CanonAttribute is an attribute name as the inventory writes it: lower
// case, spaces and hyphens as underscores.
func CanonAttribute(a string) string {
	a = strings.ToLower(strings.TrimSpace(a))
	return strings.Join(strings.FieldsFunc(a, func(r rune) bool { return r == ' ' || r == '-' || r == '_' }), "_")
}

// ReadAttributes is the inventory named by spec: "github" (GitHubAttributes)
// or a file with one attribute per line (blank lines and # comments skipped).
func ReadAttributes(spec string) ([]string, error) {
	if spec == "" || spec == "github" {
		return append([]string(nil), GitHubAttributes...), nil
	}
	b, err := os.ReadFile(spec)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for n, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		a := CanonAttribute(line)
		if a == "" {
			return nil, fmt.Errorf("%s:%d: empty attribute", filepath.Base(spec), n+1)
		}
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no attributes", spec)
	}
	return out, nil
}

// ReadStreams decodes a streams.jsonl file (spec §8) line by line, reporting
// FILE:LINE for bad lines, missing or duplicate stream ids and events without
// ids. Events are put in time order (stable).
func ReadStreams(path string) ([]*esr.Stream, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	name := filepath.Base(path)
	br := bufio.NewReaderSize(f, 1<<20)
	var out []*esr.Stream
	seen := map[string]int{}
	for n := 1; ; n++ {
		line, rerr := br.ReadBytes('\n')
		if t := strings.TrimSpace(string(line)); t != "" {
			s := new(esr.Stream)
			if err := json.Unmarshal([]byte(t), s); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, n, err)
			}
			if s.ID == "" {
				return nil, fmt.Errorf("%s:%d: stream_id missing", name, n)
			}
			if prev, dup := seen[s.ID]; dup {
				return nil, fmt.Errorf("%s:%d: stream %q already on line %d", name, n, s.ID, prev)
			}
			seen[s.ID] = n
			ids := map[string]bool{}
			for i, e := range s.Events {
				if e.ID == "" {
					return nil, fmt.Errorf("%s:%d: events[%d].event_id missing", name, n, i)
				}
				if ids[e.ID] {
					return nil, fmt.Errorf("%s:%d: events[%d]: duplicate event id %q", name, n, i, e.ID)
				}
				ids[e.ID] = true
			}
			s.SortEvents()
			out = append(out, s)
		}
		if errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, rerr)
		}
	}
	return out, nil
}

// Row is one line of atoms.jsonl: all atoms of one stream.
type Row struct {
	StreamID string     `json:"stream_id"`
	NAtoms   int        `json:"n_atoms"`
	Atoms    []esr.Atom `json:"atoms"`
}

// WriteRows writes atoms.jsonl atomically (a temporary file renamed into
// place).
func WriteRows(path string, rows []Row) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	w := bufio.NewWriter(tmp)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range rows {
		if rows[i].Atoms == nil {
			rows[i].Atoms = []esr.Atom{}
		}
		if err := enc.Encode(rows[i]); err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			return err
		}
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Stats count what a run did.
type Stats struct {
	Streams int `json:"streams"`
	Events  int `json:"events"`
	Atoms   int `json:"atoms"`
	// Cached is events answered from the cache.
	Cached int `json:"cached"`
	// Dropped counts atoms whose attribute is outside the inventory, by the
	// attribute the model gave.
	Dropped map[string]int `json:"dropped"`
	// Malformed is replies with no JSON array or object in them.
	Malformed int `json:"malformed"`
	// Invalid is atoms missing an entity or a value.
	Invalid int `json:"invalid"`
}

// DroppedTotal is the number of atoms dropped for their attribute.
func (s Stats) DroppedTotal() int {
	n := 0
	for _, c := range s.Dropped {
		n += c
	}
	return n
}

// Summary is a one-paragraph account for stderr.
func (s Stats) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "extracted %d atoms from %d events in %d streams (%d events from the cache)", s.Atoms, s.Events, s.Streams, s.Cached)
	if d := s.DroppedTotal(); d > 0 {
		keys := make([]string, 0, len(s.Dropped))
		for k := range s.Dropped {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if s.Dropped[keys[i]] != s.Dropped[keys[j]] {
				return s.Dropped[keys[i]] > s.Dropped[keys[j]]
			}
			return keys[i] < keys[j]
		})
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s=%d", k, s.Dropped[k])
		}
		fmt.Fprintf(&b, "; dropped %d atoms outside the attribute inventory (%s)", d, strings.Join(parts, ", "))
	} else {
		b.WriteString("; dropped 0 atoms outside the attribute inventory")
	}
	if s.Invalid > 0 {
		fmt.Fprintf(&b, "; %d atoms without entity or value skipped", s.Invalid)
	}
	if s.Malformed > 0 {
		fmt.Fprintf(&b, "; %d replies had no JSON and gave no atoms", s.Malformed)
	}
	return b.String()
}

// Extractor calls the model once per event.
type Extractor struct {
	Model      string
	Client     *llm.Client
	Cache      *llm.Cache // nil: no cache
	Template   *llm.Template
	Attributes []string
	// MaxTokens bounds a reply (part of the cache key); default 1024.
	MaxTokens int
}

// New makes an extractor with the built-in extraction template.
func New(model string, client *llm.Client, cache *llm.Cache, attributes []string) *Extractor {
	return &Extractor{Model: model, Client: client, Cache: cache, Template: llm.MustBuiltin(llm.TemplateExtract),
		Attributes: attributes, MaxTokens: 1024}
}

// EventData is what the extraction template reads.
type EventData struct {
	Title, EventID, Kind, Timestamp, Actor, Role, Text string
	Attributes                                         []string
}

// Options configure Run.
type Options struct {
	// Concurrency is events in flight (default: the client's limit).
	Concurrency int
	// Progress is called after each event with (done, total).
	Progress func(done, total int)
}

// eventResult is one event's parsed reply.
type eventResult struct {
	cands     []Candidate
	cached    bool
	malformed bool
}

// Run extracts every stream's atoms and returns one row per stream, in the
// given order. Atom ids are "STREAM:aN" in event order. On error (a request
// that failed after its retries, or ctx cancelled) the rows are nil; events
// finished so far are in the cache, so a rerun resumes.
func (x *Extractor) Run(ctx context.Context, streams []*esr.Stream, opt Options) ([]Row, Stats, error) {
	st := Stats{Streams: len(streams), Dropped: map[string]int{}}
	type job struct{ s, e int }
	var jobs []job
	for si, s := range streams {
		for ei := range s.Events {
			jobs = append(jobs, job{si, ei})
		}
	}
	st.Events = len(jobs)
	results := make([][]eventResult, len(streams))
	for si, s := range streams {
		results[si] = make([]eventResult, len(s.Events))
	}
	conc := opt.Concurrency
	if conc <= 0 {
		conc = llm.DefaultConcurrency
		if x.Client != nil {
			conc = x.Client.Concurrency()
		}
	}
	var (
		mu   sync.Mutex
		done int
	)
	err := workpool.Run(ctx, len(jobs), conc, func(ctx context.Context, k int) error {
		j := jobs[k]
		s := streams[j.s]
		r, err := x.event(ctx, s, &s.Events[j.e])
		if err != nil {
			return fmt.Errorf("stream %s event %s: %w", s.ID, s.Events[j.e].ID, err)
		}
		mu.Lock()
		defer mu.Unlock()
		results[j.s][j.e] = r
		done++
		if opt.Progress != nil {
			opt.Progress(done, len(jobs))
		}
		return nil
	})
	if err != nil {
		return nil, st, err
	}
	inv := map[string]bool{}
	for _, a := range x.Attributes {
		inv[CanonAttribute(a)] = true
	}
	rows := make([]Row, len(streams))
	for si, s := range streams {
		row := Row{StreamID: s.ID, Atoms: []esr.Atom{}}
		for ei := range s.Events {
			r := results[si][ei]
			if r.cached {
				st.Cached++
			}
			if r.malformed {
				st.Malformed++
			}
			e := &s.Events[ei]
			for _, c := range r.cands {
				attr := CanonAttribute(c.Attribute)
				if !inv[attr] {
					name := attr
					if name == "" {
						name = "(none)"
					}
					st.Dropped[name]++
					continue
				}
				if strings.TrimSpace(c.Entity) == "" || strings.TrimSpace(c.Value) == "" {
					st.Invalid++
					continue
				}
				a := esr.Atom{ID: fmt.Sprintf("%s:a%d", s.ID, len(row.Atoms)+1), StreamID: s.ID, EventID: e.ID,
					EventIndex: ei, EventKind: e.Kind, Timestamp: e.Timestamp, Actor: e.Actor, Role: e.Role,
					Modality: c.Modality, Entity: strings.TrimSpace(c.Entity), Attribute: attr,
					Value: strings.Join(strings.Fields(c.Value), " "), Polarity: c.Polarity, Confidence: c.Confidence}
				row.Atoms = append(row.Atoms, a)
			}
		}
		row.NAtoms = len(row.Atoms)
		st.Atoms += row.NAtoms
		rows[si] = row
	}
	return rows, st, nil
}

// Prompt is the chat sent for one event.
func (x *Extractor) Prompt(s *esr.Stream, e *esr.Event) ([]llm.Message, error) {
	title := s.Title
	if title == "" {
		title = s.ID
	}
	return x.Template.Render(EventData{Title: title, EventID: e.ID, Kind: e.Kind, Timestamp: e.Timestamp.String(),
		Actor: e.ActorName(), Role: e.Role, Text: e.Text, Attributes: x.Attributes})
}

func (x *Extractor) event(ctx context.Context, s *esr.Stream, e *esr.Event) (eventResult, error) {
	msgs, err := x.Prompt(s, e)
	if err != nil {
		return eventResult{}, err
	}
	resp, hit, err := llm.Cached(ctx, x.Client, x.Cache, x.Template.Version(),
		llm.Request{Model: x.Model, Messages: msgs, Temperature: 0, MaxTokens: x.MaxTokens})
	if err != nil {
		return eventResult{}, err
	}
	cands, perr := ParseReply(resp.Content)
	return eventResult{cands: cands, cached: hit, malformed: perr != nil}, nil
}
