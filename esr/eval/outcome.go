package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/regfile"
	"github.com/esrkit/esrkit/internal/safefile"
)

// Outcome is one answer of one reader over one memory for one QA.
type Outcome struct {
	QID           string         `json:"qid"`
	StreamID      string         `json:"stream_id"`
	Source        string         `json:"source"`
	Phenomenon    esr.Phenomenon `json:"phenomenon"`
	QueryType     esr.QueryType  `json:"query_type"`
	Memory        memory.Spec    `json:"memory"`
	Reader        reader.Spec    `json:"reader"`
	Family        reader.Family  `json:"family"`
	Variant       Variant        `json:"condition,omitzero"`
	Answer        string         `json:"answer"`
	RawAnswer     string         `json:"raw_answer"`
	Gold          string         `json:"gold"`
	Correct       bool           `json:"correct"`
	Abstained     bool           `json:"abstained"`
	GoldAbstain   bool           `json:"gold_abstain"`
	ContextTokens int            `json:"context_tokens"`
	// Reason is how the reader reached its answer: a scripted reader's
	// explanation of its steps (reader.Output.Note); LLM readers' own text
	// is RawAnswer.
	Reason string `json:"reason,omitempty"`
	// Unreadable reports a row whose simulated reader could not read the
	// render's layout (reader.Output.Unreadable): it measures the reader's
	// parser, not the memory, so accuracies leave it out and paired
	// comparisons skip the pairs it is in. Rows written before the field
	// existed said so by a marker in Reason; DecodeOutcomes reads it.
	Unreadable bool `json:"unreadable,omitempty"`
	// Label is the four-way reading of the answer (judge.Classify:
	// correct, outdated, abstained, wrong); empty in rows written before
	// labels existed.
	Label judge.Label `json:"label,omitempty"`
	// Judge names the judge that rescored the row (esr rejudge); empty
	// when it is the run's own judge.
	Judge string `json:"judge,omitempty"`
	// Fingerprint identifies what produced the row: the benchmark's
	// content, the relation source and formats, the reader's and the
	// judge's configuration and the library's code (Config.Fingerprint).
	// `esr eval` refuses to resume over rows with another one. It is empty
	// (and omitted) in rows of files written before it existed and in the
	// experiments' rows, whose caches are keyed by it.
	Fingerprint string `json:"fingerprint,omitempty"`
}

// Key is the outcome's identity in its run, for resuming and pairing:
// (qid, reader and its family, condition, memory). The condition's noise
// level is kept at the one decimal its string form keeps, so two levels
// that read alike are one key.
func (o *Outcome) Key() RowKey {
	v := o.Variant
	v.Noise.P = math.Round(v.Noise.P*10) / 10
	return RowKey{QID: o.QID, Reader: o.Reader, Family: o.Family, Variant: v, Memory: o.Memory}
}

// Keys is the set of rows' keys: a Config.Done (or RejudgeOptions.Done)
// that resumes over rows.
func Keys(rows []Outcome) map[RowKey]bool {
	m := make(map[RowKey]bool, len(rows))
	for i := range rows {
		m[rows[i].Key()] = true
	}
	return m
}

// Sink receives outcomes; it must be safe for concurrent use.
type Sink interface {
	Put(Outcome) error
}

// FileSink appends outcomes to a JSONL file, one line per outcome, each
// written with a single write call (JSON and newline together, whatever
// its size) so nothing finished is lost if the process dies and no line
// is ever split. The file is locked while the sink is open: a second run
// on the same file is refused with the holder's pid and command.
type FileSink struct {
	mu   sync.Mutex
	f    *os.File
	w    io.Writer // f; a separate field so tests can count the writes
	path string
}

// OpenFileSink opens path for appending (creating it and its folder) and
// locks it until Close. A file locked by another process is an error that
// names it (*safefile.BusyError; errors.Is(err, safefile.ErrBusy)). Once
// locked, and before anything is read, trimmed or truncated, the file must
// be empty or hold outcome rows of an evaluation (checkOutcomes): any other
// file is refused and left as it is (*notOutcomesError).
func OpenFileSink(path string) (*FileSink, error) { return openSink(path, false) }

// OpenRescoredSink is OpenFileSink for rescored rows (Rejudge's: rows with
// a Judge): a file of an evaluation's rows is refused too.
func OpenRescoredSink(path string) (*FileSink, error) { return openSink(path, true) }

func openSink(path string, rescored bool) (*FileSink, error) {
	f, err := safefile.OpenAppend(path, safefile.Wait{})
	if err != nil {
		return nil, err
	}
	if err := checkOutcomes(io.NewSectionReader(f, 0, 1<<62), path, rescored); err != nil {
		f.Close()
		return nil, err
	}
	return &FileSink{f: f, w: f, path: path}, nil
}

// rowPrefix starts every row the kit writes (json.Marshal of an Outcome,
// whose first field is QID): a first line cut short by a killed run still
// starts with it.
const rowPrefix = `{"qid":"`

// maxFirstLine bounds how much of a file checkOutcomes reads.
const maxFirstLine = 64 << 20

// notOutcomesError is a file that an outcomes command was asked to append
// to but that does not hold its rows.
type notOutcomesError struct {
	Path   string
	Reason string
}

func (e *notOutcomesError) Error() string {
	return fmt.Sprintf("%s is not empty and not an outcomes file this command writes (%s); it is left as it is: name a new file, or an earlier output of the same command", e.Path, e.Reason)
}

// checkOutcomes reads the first line of r (the file path) and reports
// whether appending outcome rows to it is safe: r is empty, or its first
// line is an outcome row (every field known, qid, memory and reader set),
// or, with no newline at all, a row cut short (it starts as every row
// does). rescored says which kind the rows must be: rows rescored by
// Rejudge name their judge, an evaluation's do not. Anything else is a
// *notOutcomesError.
func checkOutcomes(r io.Reader, path string, rescored bool) error {
	br := bufio.NewReader(io.LimitReader(r, maxFirstLine))
	line, err := br.ReadBytes('\n')
	if len(line) == 0 && errors.Is(err, io.EOF) {
		return nil // empty
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if !bytes.HasSuffix(line, []byte{'\n'}) {
		if len(line) >= maxFirstLine {
			return &notOutcomesError{path, fmt.Sprintf("its first line is longer than %d MiB", maxFirstLine>>20)}
		}
		if bytes.HasPrefix(line, []byte(rowPrefix)) {
			return nil // the first row, cut short: Resume trims it
		}
		return &notOutcomesError{path, "its only line, without a newline, is not the start of an outcome row"}
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var o Outcome
	if err := dec.Decode(&o); err != nil {
		return &notOutcomesError{path, fmt.Sprintf("line 1 is not an outcome row: %v", err)}
	}
	if o.QID == "" || o.Memory.IsZero() || o.Reader == (reader.Spec{}) {
		return &notOutcomesError{path, `line 1 has no "qid", "memory" or "reader"`}
	}
	switch {
	case rescored && o.Judge == "":
		return &notOutcomesError{path, "it holds an evaluation's rows (esr eval's: no \"judge\"), not rescored ones"}
	case !rescored && o.Judge != "":
		return &notOutcomesError{path, fmt.Sprintf("it holds rows rescored by judge %s (esr rejudge's), not an evaluation's", o.Judge)}
	}
	return nil
}

// Resume cuts a partial last line (left by a run killed mid-write), so
// appending resumes on a line boundary, and returns the rows already in
// the file.
func (s *FileSink) Resume() ([]Outcome, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := io.ReadAll(io.NewSectionReader(s.f, 0, 1<<62))
	if err != nil {
		return nil, err
	}
	if n := len(b); n > 0 && b[n-1] != '\n' {
		cut := bytes.LastIndexByte(b, '\n') + 1
		if err := s.f.Truncate(int64(cut)); err != nil {
			return nil, err
		}
		b = b[:cut]
	}
	return DecodeOutcomes(bytes.NewReader(b), filepath.Base(s.path))
}

// Truncate empties the file (a fresh run), keeping the lock.
func (s *FileSink) Truncate() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.f.Truncate(0)
}

func (s *FileSink) Put(o Outcome) error {
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err = s.w.Write(b)
	return err
}

// Close closes the file and releases its lock.
func (s *FileSink) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
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
// The file must be a regular file (a FIFO would block the read until
// something writes to it, a device such as /dev/zero never ends), and
// each line at most regfile.MaxLine bytes.
func ReadOutcomes(path string) ([]Outcome, error) {
	f, _, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return DecodeOutcomes(f, filepath.Base(path))
}

// DecodeOutcomes reads outcome rows, one JSON object per line, from r, as
// ReadOutcomes does; name labels errors ("name:line: …"). A line longer
// than regfile.MaxLine is an error as soon as its bytes pass the bound.
func DecodeOutcomes(r io.Reader, name string) ([]Outcome, error) {
	var out []Outcome
	br := bufio.NewReader(r)
	for line := 1; ; line++ {
		b, err := regfile.ReadLine(br, regfile.MaxLine)
		if errors.Is(err, regfile.ErrLineTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes: not an outcome row", name, line, regfile.MaxLine)
		}
		if len(b) > 0 {
			var o Outcome
			if jerr := json.Unmarshal(b, &o); jerr != nil {
				if errors.Is(err, io.EOF) {
					break // truncated final line: the row was not finished
				}
				return nil, fmt.Errorf("%s:%d: %v", name, line, jerr)
			}
			if o.Family == reader.Pooled {
				return nil, fmt.Errorf("%s:%d: family %s: a row's family is a reader's", name, line, o.Family)
			}
			o.Unreadable = o.Unreadable || strings.Contains(o.Reason, legacyUnreadable)
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

// legacyUnreadable is the marker rows written before Outcome.Unreadable
// carried in Reason instead: DecodeOutcomes reads it as the flag, so an old
// row means what it meant.
const legacyUnreadable = "[unreadable layout]"

// trimTruncated cuts a trailing partial line from path (left by a run killed
// mid-write) so appending resumes on a line boundary.
func trimTruncated(path string) error {
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
