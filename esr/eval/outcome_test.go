package eval

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// A run killed mid-write leaves a partial last line: ReadOutcomes ignores
// it, trimTruncated cuts it, and appending resumes on a line boundary.
func TestTruncatedOutcomes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out", "rows.jsonl")
	sink, err := OpenFileSink(path)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sink.Put(Outcome{QID: string(rune('a' + i)), Memory: memory.SpecOf("m"), Reader: reader.Spec{Kind: reader.KindSim, Name: "r"}})
		}(i)
	}
	wg.Wait()
	if err := sink.Close(); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"qid":"half`)
	f.Close()
	rows, err := ReadOutcomes(path)
	if err != nil || len(rows) != 20 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	if err := trimTruncated(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !strings.HasSuffix(string(b), "}\n") || strings.Contains(string(b), "half") {
		t.Errorf("not trimmed to a line boundary: %q", b[len(b)-20:])
	}
	keys := map[RowKey]bool{}
	for _, r := range rows {
		if keys[r.Key()] {
			t.Errorf("duplicate key %+v", r.Key())
		}
		keys[r.Key()] = true
	}
}

// A bad line in the middle is an error naming the file and line.
func TestBadOutcomeLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rows.jsonl")
	os.WriteFile(path, []byte("{\"qid\":\"a\"}\nnot json\n{\"qid\":\"b\"}\n"), 0o644)
	if _, err := ReadOutcomes(path); err == nil || !strings.Contains(err.Error(), "rows.jsonl:2") {
		t.Errorf("error %v, want rows.jsonl:2", err)
	}
}

// notingReader answers as the oracle does and explains each answer, as a
// scripted reader does.
type notingReader struct{ reader.Oracle }

func (notingReader) Spec() reader.Spec {
	return reader.Spec{Kind: reader.KindScripted, Name: "time-sorter"}
}

func (n notingReader) Read(ctx context.Context, in reader.Input) (reader.Output, error) {
	out, err := n.Oracle.Read(ctx, in)
	out.Note = n.Spec().String() + ": read the state"
	return out, err
}

// Outcome rows keep the reader's reason: a reader explains each answer, and
// the row carries it.
func TestRunKeepsReasons(t *testing.T) {
	b := bench.Figure1Bench()
	var r reader.Reader = notingReader{}
	var sink rowSink
	if err := Run(context.Background(), b, Config{Memories: memory.Specs(memory.RenderOnly), Readers: []reader.Reader{r}}, &sink); err != nil {
		t.Fatal(err)
	}
	if len(sink.rows) == 0 {
		t.Fatal("no rows")
	}
	for _, o := range sink.rows {
		if !strings.HasPrefix(o.Reason, "scripted:time-sorter: ") {
			t.Errorf("row %s/%s reason %q, want the reader's note", o.QID, o.Memory, o.Reason)
		}
	}
}

type rowSink struct {
	mu   sync.Mutex
	rows []Outcome
}

func (s *rowSink) Put(o Outcome) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rows = append(s.rows, o)
	return nil
}
