// Package eval runs memories × readers over a benchmark's QAs and writes one
// outcome row per (qid, memory, reader). Rows are appended to a JSONL file as
// they are produced, so a run that stops midway keeps everything it finished
// and a rerun resumes where it stopped.
package eval

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// Outcome is one answer of one reader over one memory for one QA.
type Outcome struct {
	QID           string `json:"qid"`
	StreamID      string `json:"stream_id"`
	Source        string `json:"source"`
	Phenomenon    string `json:"phenomenon"`
	QueryType     string `json:"query_type"`
	Memory        string `json:"memory"`
	Reader        string `json:"reader"`
	Family        string `json:"family"`
	Condition     string `json:"condition,omitempty"`
	Answer        string `json:"answer"`
	RawAnswer     string `json:"raw_answer"`
	Gold          string `json:"gold"`
	Correct       bool   `json:"correct"`
	Abstained     bool   `json:"abstained"`
	GoldAbstain   bool   `json:"gold_abstain"`
	ContextTokens int    `json:"context_tokens"`
	// Reason is how the reader reached its answer: a scripted reader's
	// explanation of its steps (reader.Output.Note); LLM readers' own text
	// is RawAnswer.
	Reason string `json:"reason,omitempty"`
	// Label is the four-way reading of the answer (judge.Classify:
	// correct, outdated, abstained, wrong); empty in rows written before
	// labels existed.
	Label string `json:"label,omitempty"`
	// Judge names the judge that rescored the row (esr rejudge); empty
	// when it is the run's own judge.
	Judge string `json:"judge,omitempty"`
}

// ID is the outcome's identity for resuming: (qid, memory, reader, condition).
func (o *Outcome) ID() string {
	return o.QID + "\x00" + o.Memory + "\x00" + o.Reader + "\x00" + o.Condition
}

// Sink receives outcomes; it must be safe for concurrent use.
type Sink interface {
	Put(Outcome) error
}

// FileSink appends outcomes to a JSONL file, one line per outcome, flushed
// line by line so nothing finished is lost if the process dies.
type FileSink struct {
	mu sync.Mutex
	f  *os.File
	w  *bufio.Writer
}

// OpenFileSink opens path for appending (creating it and its folder).
func OpenFileSink(path string) (*FileSink, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &FileSink{f: f, w: bufio.NewWriter(f)}, nil
}

func (s *FileSink) Put(o Outcome) error {
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.w.Write(b)
	s.w.WriteByte('\n')
	return s.w.Flush()
}

// Close flushes and closes the file.
func (s *FileSink) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.w.Flush(); err != nil {
		s.f.Close()
		return err
	}
	return s.f.Close()
}

// SliceSink collects outcomes in memory (notebooks, tests).
type SliceSink struct {
	mu   sync.Mutex
	Rows []Outcome
}

func (s *SliceSink) Put(o Outcome) error {
	s.mu.Lock()
	s.Rows = append(s.Rows, o)
	s.mu.Unlock()
	return nil
}

// ReadOutcomes reads an outcomes JSONL file. A truncated last line (a run
// killed mid-write) is ignored; any other bad line is an error naming it.
func ReadOutcomes(path string) ([]Outcome, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Outcome
	br := bufio.NewReader(f)
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if len(b) > 0 {
			var o Outcome
			if jerr := json.Unmarshal(b, &o); jerr != nil {
				if errors.Is(err, io.EOF) {
					break // truncated final line: the row was not finished
				}
				return nil, fmt.Errorf("%s:%d: %v", filepath.Base(path), line, jerr)
			}
			out = append(out, o)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// TrimTruncated cuts a trailing partial line from path (left by a run killed
// mid-write) so appending resumes on a line boundary.
func TrimTruncated(path string) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil || len(b) == 0 || b[len(b)-1] == '\n' {
		return err
	}
	cut := 0
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '\n' {
			cut = i + 1
			break
		}
	}
	return os.Truncate(path, int64(cut))
}
