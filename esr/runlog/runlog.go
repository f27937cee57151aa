package runlog

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/internal/regfile"
)

// Format names the framework that wrote a log.
type Format string

// The formats Read reads, and esrkit's own outcome rows (eval.LoadRun reads
// those; Detect names them so a caller can route them there).
const (
	Inspect   Format = "inspect"
	LMEval    Format = "lm-eval"
	Promptfoo Format = "promptfoo"
	ESR       Format = "esr"
)

// formats are the values ParseFormat accepts, in the order help lists them.
var formats = []Format{Inspect, LMEval, Promptfoo, ESR}

// ParseFormat reads a format's name as a user types it ("" is "", which
// asks Read to detect the format).
func ParseFormat(s string) (Format, error) {
	for _, f := range formats {
		if s == string(f) {
			return f, nil
		}
	}
	if s == "" || s == "auto" {
		return "", nil
	}
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("format %q: want auto, %s", s, strings.Join(names, ", "))
}

// Score is one scorer's value for one sample and epoch of a log.
type Score struct {
	// Sample is the sample's id: Inspect's sample id, lm-eval's
	// "TASK/doc_id", promptfoo's "test N" (its test index).
	Sample string `json:"sample"`
	// Epoch is Inspect's epoch, or the repeat of a promptfoo test; 0 when
	// the log has none. Scores pair by (Sample, Epoch).
	Epoch int `json:"epoch,omitempty"`
	// Group is the cluster the bootstrap resamples whole: the sample
	// itself unless ReadOptions.Group names a field (a document, a
	// conversation).
	Group  string `json:"group"`
	Task   string `json:"task,omitempty"`
	Model  string `json:"model"`
	Scorer string `json:"scorer"`
	// Value is the score; NaN when the sample has no usable score for
	// the scorer (it errored, or the value is not a number): Compare
	// leaves such pairs out and counts them.
	Value float64 `json:"value"`
	// Key says what the sample is (a hash of its document, its input and
	// target, or its variables): two logs holding one Sample with two
	// Keys are on different benchmarks.
	Key string `json:"key,omitempty"`
	// What the flips show: the sample's input, its target, the answer
	// scored and the scorer's explanation, as the log has them.
	Input       string `json:"input,omitempty"`
	Target      string `json:"target,omitempty"`
	Answer      string `json:"answer,omitempty"`
	Explanation string `json:"explanation,omitempty"`
	// At is where the score was read: "FILE:LINE" or "FILE: FIELD".
	At string `json:"at"`
}

// Log is a log read by Read.
type Log struct {
	Path   string  `json:"path"`
	Format Format  `json:"format"`
	Scores []Score `json:"-"`
	// Notes say what the reader left out or folded (errored samples,
	// metrics without a per-sample score, duplicate lines).
	Notes []string `json:"notes,omitempty"`
}

// ReadOptions set Read.
type ReadOptions struct {
	// Group, when set, is the dotted path of the field whose value groups
	// samples into the bootstrap's clusters: in an Inspect sample
	// ("metadata.document"), an lm-eval line ("doc.dialogue_id") or a
	// promptfoo result ("vars.conversation"). A sample without it is an
	// error naming the sample and the field.
	Group string
}

// maxLog bounds a log file (and an archive member) Read reads.
const maxLog = 2 << 30

// Read reads the log at path in format f (Detect's when f is ""). Bad input
// is an error naming the file and the line or field; a benign oddity (an
// errored sample, a metric with no per-sample value, a duplicate line that
// agrees) is left out or folded and said in Log.Notes. A log with no score
// at all is an error that says why.
func Read(path string, f Format, opt ReadOptions) (*Log, error) {
	if f == "" {
		var err error
		if f, err = Detect(path); err != nil {
			return nil, err
		}
	}
	l := &Log{Path: path, Format: f}
	var err error
	switch f {
	case Inspect:
		err = readInspect(l, opt)
	case LMEval:
		err = readLMEval(l, opt)
	case Promptfoo:
		err = readPromptfoo(l, opt)
	case ESR:
		return nil, fmt.Errorf("%s: esrkit's outcome rows are read by eval.LoadRun, not runlog", path)
	default:
		return nil, fmt.Errorf("%s: no reader for format %q", path, f)
	}
	if err != nil {
		return nil, err
	}
	usable := 0
	for i := range l.Scores {
		if l.Scores[i].Group == "" {
			l.Scores[i].Group = l.Scores[i].Sample
		}
		if !isNaN(l.Scores[i].Value) {
			usable++
		}
	}
	if usable == 0 {
		why := "no sample holds a score"
		if len(l.Notes) > 0 {
			why += ": " + strings.Join(l.Notes, "; ")
		}
		return nil, fmt.Errorf("%s: nothing to compare (%s)", path, why)
	}
	return l, nil
}

// Detect tells which framework wrote the log at path: a folder holding
// samples_*.jsonl files is lm-eval's (any other folder is taken for an esr
// run's output); a zip archive is an Inspect .eval log; a JSON document with
// an "eval" object is an Inspect log, one with "evalId" or per-test
// "results" promptfoo's; a JSONL file whose first line has "doc_id" is an
// lm-eval samples file, one whose first line has "qid" esrkit's rows, and
// any other .jsonl file is taken for esrkit's rows too (eval.LoadRun says
// what is wrong with it). Anything else is an error asking for the format
// by name.
func Detect(path string) (Format, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if st.IsDir() {
		if m, _ := filepath.Glob(filepath.Join(path, "samples_*.jsonl")); len(m) > 0 {
			return LMEval, nil
		}
		return ESR, nil
	}
	f, _, err := regfile.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	head, _ := br.Peek(4)
	if bytes.Equal(head, []byte("PK\x03\x04")) {
		return Inspect, nil
	}
	unknown := fmt.Errorf("%s: cannot tell which framework wrote it (not an Inspect log, an lm-eval samples file, a promptfoo output or esrkit's rows): name it with --from", path)
	if strings.HasSuffix(path, ".jsonl") {
		// A JSONL file other than lm-eval's is taken for esrkit's rows,
		// whose reader says what is wrong with it (empty, a cut line).
		unknown = nil
	}
	line, err := regfile.ReadLine(br, regfile.MaxLine)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, regfile.ErrLineTooLong) {
		return "", err
	}
	var first map[string]json.RawMessage
	if json.Unmarshal(cleanNonFinite(line), &first) == nil {
		// A whole JSON object on the first line: a JSONL file's row,
		// or a JSON document written on one line.
		switch {
		case first["doc_id"] != nil:
			return LMEval, nil
		case first["qid"] != nil:
			return ESR, nil
		}
		if g := topLevelFormat(first); g != "" {
			return g, nil
		}
		return orRows(unknown)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	keys, err := topLevelKeys(bufio.NewReader(f))
	if err != nil {
		return orRows(unknown)
	}
	if g := topLevelFormat(keys); g != "" {
		return g, nil
	}
	return orRows(unknown)
}

// orRows is Detect's answer for a file it does not recognise: unknown, or
// (unknown nil: a .jsonl file) esrkit's rows.
func orRows(unknown error) (Format, error) {
	if unknown == nil {
		return ESR, nil
	}
	return "", unknown
}

// topLevelFormat tells a JSON document's format by its top-level keys.
func topLevelFormat(keys map[string]json.RawMessage) Format {
	switch {
	case keys["eval"] != nil:
		return Inspect
	case keys["evalId"] != nil, keys["results"] != nil && (keys["config"] != nil || keys["shareableUrl"] != nil):
		return Promptfoo
	}
	return ""
}

// topLevelKeys reads a JSON object's keys (their values are skipped, kept
// empty).
func topLevelKeys(r io.Reader) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(r)
	t, err := dec.Token()
	if err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	out := map[string]json.RawMessage{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
		out[fmt.Sprint(k)] = json.RawMessage("0")
	}
	return out, nil
}

// cleanNonFinite replaces the NaN, Infinity and -Infinity that Python's
// json module writes (and JSON does not allow) by null, outside strings,
// so a log that holds one still decodes; the value reads as no score.
func cleanNonFinite(b []byte) []byte {
	if !bytes.Contains(b, []byte("NaN")) && !bytes.Contains(b, []byte("Infinity")) {
		return b
	}
	out := make([]byte, 0, len(b))
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			out = append(out, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch {
		case c == '"':
			inString = true
		case bytes.HasPrefix(b[i:], []byte("-Infinity")):
			out, i = append(out, "null"...), i+len("-Infinity")-1
			continue
		case bytes.HasPrefix(b[i:], []byte("Infinity")):
			out, i = append(out, "null"...), i+len("Infinity")-1
			continue
		case bytes.HasPrefix(b[i:], []byte("NaN")):
			out, i = append(out, "null"...), i+len("NaN")-1
			continue
		}
		out = append(out, c)
	}
	return out
}

// nan is the Value of a score that is not there.
var nan = func() float64 { var z float64; return z / z }()

func isNaN(x float64) bool { return x != x }

// scalar reads a JSON number or boolean as a score; ok is false for
// anything else (null, a string, a list, an object).
func scalar(raw json.RawMessage) (float64, bool) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return 0, false
	}
	switch x := v.(type) {
	case float64:
		return x, true
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// text is a JSON value as text: a string as it is, null as "", anything
// else as its JSON.
func text(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if string(raw) == "null" {
		return ""
	}
	var v any
	if json.Unmarshal(raw, &v) == nil {
		if b, err := json.Marshal(v); err == nil {
			return string(b)
		}
	}
	return string(raw)
}

// idText is an id as text: a JSON string as it is, a number as written.
func idText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(raw))
}

// hashOf is a short hash of parts: a sample's Key.
func hashOf(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(strconv.Itoa(len(p)) + ":" + p))
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// field is the value at a dotted path of a JSON object, as text; ok is
// false when a step is missing or not an object.
func field(obj json.RawMessage, path string) (string, bool) {
	cur := obj
	for _, step := range strings.Split(path, ".") {
		var m map[string]json.RawMessage
		if json.Unmarshal(cur, &m) != nil {
			return "", false
		}
		next, ok := m[step]
		if !ok {
			return "", false
		}
		cur = next
	}
	if string(cur) == "null" {
		return "", false
	}
	return text(cur), true
}

// groupOf is the group of a sample read from record raw (where: how an
// error names it): the field opt.Group names, or "" (the sample itself).
func groupOf(raw json.RawMessage, opt ReadOptions, where string) (string, error) {
	if opt.Group == "" {
		return "", nil
	}
	g, ok := field(raw, opt.Group)
	if !ok {
		return "", fmt.Errorf("%s: field %s (--group) is missing", where, opt.Group)
	}
	return g, nil
}

// sortedKeys are m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// noteCounts turns counts of left-out things into notes, in key order:
// each key is a note whose "%d" is its count.
func noteCounts(counts map[string]int) []string {
	var out []string
	for _, k := range sortedKeys(counts) {
		out = append(out, strings.ReplaceAll(k, "%d", strconv.Itoa(counts[k])))
	}
	return out
}
