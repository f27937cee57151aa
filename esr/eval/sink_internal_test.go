package eval

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// countingWriter counts Write calls.
type countingWriter struct {
	calls int
	buf   bytes.Buffer
}

func (w *countingWriter) Write(p []byte) (int, error) { w.calls++; return w.buf.Write(p) }

// Finding 1: a row goes out in one write call, JSON and newline together,
// whatever its size (two calls let rows of another writer in between).
func TestFileSinkOneWritePerRow(t *testing.T) {
	s, err := OpenFileSink(filepath.Join(t.TempDir(), "rows.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w := &countingWriter{}
	s.w = w
	for _, n := range []int{10, 5000, 100000} {
		w.calls = 0
		if err := s.Put(Outcome{QID: "q", RawAnswer: strings.Repeat("x", n)}); err != nil {
			t.Fatal(err)
		}
		if w.calls != 1 || !bytes.HasSuffix(w.buf.Bytes(), []byte("}\n")) {
			t.Errorf("a row of %d bytes took %d writes", n, w.calls)
		}
	}
}
