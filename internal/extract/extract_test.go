package extract

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/llmtest"
)

func TestParseReply(t *testing.T) {
	for name, tc := range map[string]struct {
		reply string
		n     int
		first Candidate
		err   bool
	}{
		"array": {reply: `[{"entity":"issue","attribute":"severity","value":"high","polarity":"+","confidence":0.9}]`,
			n: 1, first: Candidate{Entity: "issue", Attribute: "severity", Value: "high", Polarity: "+", Confidence: 0.9}},
		"fenced with prose": {reply: "Here you go:\n```json\n[{\"entity\":\"issue\",\"attribute\":\"issue_status\",\"value\":\"closed\"}]\n```\nHope this helps [1].",
			n: 1, first: Candidate{Entity: "issue", Attribute: "issue_status", Value: "closed", Polarity: "+", Confidence: 1}},
		"single object": {reply: `The atom: {"entity":"x","attribute":"severity","value":"low","polarity":"negative"} done`,
			n: 1, first: Candidate{Entity: "x", Attribute: "severity", Value: "low", Polarity: "-", Confidence: 1}},
		"wrapped": {reply: `{"atoms":[{"entity":"x","attribute":"a","value":3,"confidence":"80%"},{"entity":"y","attribute":"b","value":["bug","p1"]}]}`,
			n: 2, first: Candidate{Entity: "x", Attribute: "a", Value: "3", Polarity: "+", Confidence: 0.8}},
		"empty":       {reply: "[]", n: 0},
		"think":       {reply: "<think>maybe [{\"entity\":\"no\"}]</think>[]", n: 0},
		"citation":    {reply: "See [1]. [{\"entity\":\"e\",\"attribute\":\"a\",\"value\":\"v\",\"polarity\":false}]", n: 1, first: Candidate{Entity: "e", Attribute: "a", Value: "v", Polarity: "-", Confidence: 1}},
		"prose only":  {reply: "The event asserts nothing.", err: true},
		"truncated":   {reply: `[{"entity":"x","attribute":"a","val`, err: true},
		"non-objects": {reply: `["a", {"entity":"e","attribute":"a","value":"v"}]`, n: 1, first: Candidate{Entity: "e", Attribute: "a", Value: "v", Polarity: "+", Confidence: 1}},
	} {
		got, err := ParseReply(tc.reply)
		if (err != nil) != tc.err {
			t.Errorf("%s: err %v", name, err)
			continue
		}
		if len(got) != tc.n {
			t.Errorf("%s: %d candidates %+v, want %d", name, len(got), got, tc.n)
			continue
		}
		if tc.n > 0 && got[0] != tc.first {
			t.Errorf("%s: %+v, want %+v", name, got[0], tc.first)
		}
	}
}

const streamsJSONL = `{"stream_id":"s1","repo":"o/r","issue_number":7,"title":"Crash on import","created_at":"2024-01-01T00:00:00Z","closed_at":null,"events":[{"event_id":"c2","kind":"comment","timestamp":"2024-01-03T00:00:00Z","text":"Fixed in 1.2, closing.","actor":"bob","role":"maintainer"},{"event_id":"c1","kind":"issue","timestamp":"2024-01-02T00:00:00Z","text":"Import crashes. Severity: high.","actor":"alice","role":"reporter"}]}
{"stream_id":"s2","created_at":null,"closed_at":null,"events":[{"event_id":"e1","kind":"comment","timestamp":"2024-02-01","text":"Nothing to see.","actor":null,"role":"participant"}]}
`

// reply answers by event text: severity and status atoms, one atom outside
// the inventory, and prose for the empty event.
func reply(r llmtest.Request) string {
	u := r.User()
	switch {
	case strings.Contains(u, "Import crashes"):
		return "```json\n[{\"entity\":\"issue\",\"attribute\":\"severity\",\"value\":\"high\",\"polarity\":\"+\",\"confidence\":0.9}," +
			"{\"entity\":\"issue\",\"attribute\":\"mood\",\"value\":\"grumpy\"}]\n```"
	case strings.Contains(u, "Fixed in 1.2"):
		return `[{"entity":"issue","attribute":"Issue Status","value":"closed"},{"entity":"issue","attribute":"fixed_in","value":"1.2"}]`
	}
	return "No atoms here."
}

func writeStreams(t *testing.T) (string, string) {
	dir := t.TempDir()
	p := filepath.Join(dir, bench.StreamsFile)
	if err := os.WriteFile(p, []byte(streamsJSONL), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, p
}

func TestRunWritesLoadableAtoms(t *testing.T) {
	srv := llmtest.New(llmtest.Options{Keep: true, Reply: reply})
	defer srv.Close()
	dir, sp := writeStreams(t)
	streams, err := ReadStreams(sp)
	if err != nil {
		t.Fatal(err)
	}
	client, _ := llm.New(llm.Config{BaseURL: srv.BaseURL(), APIKey: "sek-ret-key-0001"})
	cache, err := llm.OpenCache(filepath.Join(dir, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	defer cache.Close()
	x := New("extractor-7b", client, cache, GitHubAttributes)
	var progress []int
	var mu sync.Mutex
	rows, st, err := x.Run(context.Background(), streams, Options{Concurrency: 2, Progress: func(d, n int) {
		mu.Lock()
		progress = append(progress, d)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	if st.Events != 3 || st.Atoms != 2 || st.DroppedTotal() != 2 || st.Dropped["mood"] != 1 || st.Dropped["fixed_in"] != 1 ||
		st.Malformed != 1 || st.Cached != 0 {
		t.Errorf("stats %+v", st)
	}
	if !strings.Contains(st.Summary(), "dropped 2 atoms outside the attribute inventory (fixed_in=1, mood=1)") {
		t.Errorf("summary %q", st.Summary())
	}
	if len(progress) != 3 {
		t.Errorf("progress %v", progress)
	}
	out := filepath.Join(dir, bench.AtomsFile)
	if err := WriteRows(out, rows); err != nil {
		t.Fatal(err)
	}
	// Atoms and streams without QAs: loadable as atoms (a benchmark
	// needs its qa.jsonl too).
	b, err := bench.LoadFiles(out, filepath.Join(dir, bench.StreamsFile))
	if err != nil {
		t.Fatalf("bench.LoadFiles: %v", err)
	}
	atoms := b.Atoms["s1"]
	if len(atoms) != 2 || len(b.Atoms["s2"]) != 0 {
		t.Fatalf("atoms %+v", b.Atoms)
	}
	// Transaction order: c1 (Jan 2) before c2 (Jan 3).
	a, c := atoms[0], atoms[1]
	if a.EventID != "c1" || a.Attribute != "severity" || a.Value != "high" || a.Confidence != 0.9 || a.ActorName() != "alice" ||
		a.Role != "reporter" || a.EventKind != "issue" || a.ID != "s1:a1" {
		t.Errorf("atom %+v", a)
	}
	if c.EventID != "c2" || c.Attribute != "issue_status" || c.Value != "closed" || c.Polarity != esr.Positive {
		t.Errorf("atom %+v", c)
	}
	// The prompt carries the inventory and the event.
	for _, r := range srv.Requests() {
		if !strings.Contains(r.User(), "- claim_validity") || r.Model != "extractor-7b" || *r.Temperature != 0 {
			t.Errorf("request %+v", r)
		}
	}
	// A rerun asks nothing.
	hits := srv.Hits()
	_, st2, err := x.Run(context.Background(), streams, Options{})
	if err != nil || srv.Hits() != hits || st2.Cached != 3 {
		t.Errorf("rerun: %v, %d new hits, %+v", err, srv.Hits()-hits, st2)
	}
}

func TestRunResumesAfterCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	srv := llmtest.New(llmtest.Options{Latency: 20 * time.Millisecond, Reply: func(llmtest.Request) string { return "[]" },
		Fault: func(n int, _ llmtest.Request, _ http.ResponseWriter, _ *http.Request) bool {
			if n == 5 {
				once.Do(cancel)
			}
			return false
		}})
	defer srv.Close()
	var streams []*esr.Stream
	for i := 0; i < 4; i++ {
		s := &esr.Stream{ID: string(rune('a' + i))}
		for j := 0; j < 5; j++ {
			s.Events = append(s.Events, esr.Event{ID: string(rune('0' + j)), Text: s.ID + string(rune('0'+j)),
				Timestamp: esr.MustTime("2024-01-01")})
		}
		streams = append(streams, s)
	}
	dir := t.TempDir()
	client, _ := llm.New(llm.Config{BaseURL: srv.BaseURL()})
	cache, _ := llm.OpenCache(dir)
	x := New("m", client, cache, GitHubAttributes)
	if _, _, err := x.Run(ctx, streams, Options{Concurrency: 2}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	stored := cache.Len()
	cache.Close()
	if stored == 0 || stored == 20 {
		t.Fatalf("%d of 20 stored: the cancel did not land midway", stored)
	}
	cache, _ = llm.OpenCache(dir)
	defer cache.Close()
	x.Cache = cache
	// A request the cancel cut short may still reach the stub after Run
	// returned: count from when the stub is quiet.
	for h := -1; h != srv.Hits(); time.Sleep(50 * time.Millisecond) {
		h = srv.Hits()
	}
	before := srv.Hits()
	_, st, err := x.Run(context.Background(), streams, Options{Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	if asked := srv.Hits() - before; asked != 20-stored || st.Cached != stored {
		t.Errorf("rerun asked %d (want %d), cached %d", asked, 20-stored, st.Cached)
	}
}

func TestReadStreamsErrors(t *testing.T) {
	dir := t.TempDir()
	for content, want := range map[string]string{
		"{\"stream_id\":\"a\",\"events\":[]}\n{bad\n": "streams.jsonl:2:",
		"{\"events\":[]}\n":                           "streams.jsonl:1: stream_id missing",
		"{\"stream_id\":\"a\",\"events\":[]}\n\n{\"stream_id\":\"a\",\"events\":[]}\n":  "streams.jsonl:3: stream \"a\" already on line 1",
		"{\"stream_id\":\"a\",\"events\":[{\"event_id\":\"\"}]}\n":                      "streams.jsonl:1: events[0].event_id missing",
		"{\"stream_id\":\"a\",\"events\":[{\"event_id\":\"x\",\"timestamp\":\"bad\"}]}": "streams.jsonl:1:",
	} {
		p := filepath.Join(dir, "streams.jsonl")
		os.WriteFile(p, []byte(content), 0o644)
		_, err := ReadStreams(p)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", content, err, want)
		}
	}
}

func TestReadAttributes(t *testing.T) {
	if a, err := ReadAttributes("github"); err != nil || len(a) != 8 {
		t.Errorf("%v %v", a, err)
	}
	p := filepath.Join(t.TempDir(), "attrs.txt")
	os.WriteFile(p, []byte("# inventory\nrequest timeout\n\nRetry-Count\nrequest_timeout\n"), 0o644)
	a, err := ReadAttributes(p)
	if err != nil || strings.Join(a, ",") != "request_timeout,retry_count" {
		t.Errorf("%v %v", a, err)
	}
	os.WriteFile(p, []byte("# nothing\n"), 0o644)
	if _, err := ReadAttributes(p); err == nil {
		t.Error("empty inventory accepted")
	}
}

// A model's modality is kept only when it is in the kit's vocabulary (any
// case): another value would make the atoms file fail to load, so it is
// dropped and the atom reads as an assertion.
func TestParseReplyKeepsOnlyKnownModalities(t *testing.T) {
	reply := `[{"entity":"x","attribute":"severity","value":"high","modality":"Hedge"},
		{"entity":"x","attribute":"severity","value":"low","modality":" TEXT "},
		{"entity":"x","attribute":"severity","value":"mid","modality":"speculative"},
		{"entity":"x","attribute":"severity","value":"top","modality":3}]`
	cs, err := ParseReply(reply)
	if err != nil || len(cs) != 4 {
		t.Fatalf("ParseReply: %v, %d candidates", err, len(cs))
	}
	for i, want := range []string{esr.ModalityHedge, esr.ModalityText, "", ""} {
		if cs[i].Modality != want {
			t.Errorf("candidate %d: modality %q, want %q", i, cs[i].Modality, want)
		}
	}
}
