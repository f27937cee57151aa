package runlog

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/internal/regfile"
)

// An Inspect eval log (inspect_ai.log.EvalLog) is a JSON document, or a
// zip archive (.eval) holding header.json (the log without its samples) and
// one samples/ID_epoch_N.json per sample. The reader keeps what a paired
// comparison needs: eval.task and eval.model, and per sample its id, epoch,
// input, target, error and scores (a map from scorer name to {value,
// answer, explanation}).

// inspectHeader is the part of a log besides its samples.
type inspectHeader struct {
	Status string `json:"status"`
	Eval   struct {
		Task  string `json:"task"`
		Model string `json:"model"`
	} `json:"eval"`
}

// inspectSample is one sample (inspect_ai.log.EvalSample).
type inspectSample struct {
	ID     json.RawMessage `json:"id"`
	Epoch  int             `json:"epoch"`
	Input  json.RawMessage `json:"input"`
	Target json.RawMessage `json:"target"`
	Output struct {
		Completion string `json:"completion"`
	} `json:"output"`
	Scores map[string]struct {
		Value       json.RawMessage `json:"value"`
		Answer      *string         `json:"answer"`
		Explanation *string         `json:"explanation"`
	} `json:"scores"`
	Error json.RawMessage `json:"error"`
}

func readInspect(l *Log, opt ReadOptions) error {
	f, st, err := regfile.Open(l.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	var head [4]byte
	n, _ := io.ReadFull(f, head[:])
	if string(head[:n]) == "PK\x03\x04" {
		return readInspectArchive(l, f, st.Size(), opt)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	b, err := regfile.ReadAll(f, st, l.Path, maxLog)
	if err != nil {
		return err
	}
	var doc struct {
		inspectHeader
		Samples *[]json.RawMessage `json:"samples"`
	}
	if err := json.Unmarshal(cleanNonFinite(b), &doc); err != nil {
		return fmt.Errorf("%s: not an Inspect eval log: %v", l.Path, err)
	}
	if doc.Eval.Model == "" && doc.Eval.Task == "" {
		return fmt.Errorf("%s: field eval (the task and model) is missing or empty: not an Inspect eval log", l.Path)
	}
	if doc.Samples == nil {
		return fmt.Errorf("%s: field samples is missing: the log was written without its samples (inspect eval --no-log-samples), and only samples can be paired", l.Path)
	}
	r := inspectReader{log: l, head: doc.inspectHeader, opt: opt, left: map[string]int{}}
	for i, raw := range *doc.Samples {
		if err := r.sample(raw, fmt.Sprintf("%s: samples[%d]", l.Path, i)); err != nil {
			return err
		}
	}
	r.finish()
	return nil
}

// maxMembers bounds the members of an .eval archive Read opens.
const maxMembers = 1 << 20

func readInspectArchive(l *Log, f io.ReaderAt, size int64, opt ReadOptions) error {
	z, err := zip.NewReader(f, size)
	if err != nil {
		return fmt.Errorf("%s: not a readable .eval archive: %v", l.Path, err)
	}
	if len(z.File) > maxMembers {
		return fmt.Errorf("%s: %d members, more than %d: not an Inspect .eval archive this reader opens", l.Path, len(z.File), maxMembers)
	}
	member := func(zf *zip.File) ([]byte, error) {
		if zf.UncompressedSize64 > maxLog {
			return nil, fmt.Errorf("%s: %s: %d bytes uncompressed, more than %d", l.Path, zf.Name, zf.UncompressedSize64, maxLog)
		}
		rc, err := zf.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", l.Path, zf.Name, err)
		}
		defer rc.Close()
		b, err := io.ReadAll(io.LimitReader(rc, maxLog+1))
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", l.Path, zf.Name, err)
		}
		if len(b) > maxLog {
			return nil, fmt.Errorf("%s: %s: more than %d bytes uncompressed", l.Path, zf.Name, maxLog)
		}
		return cleanNonFinite(b), nil
	}
	var header, start *zip.File
	var samples []*zip.File
	for _, zf := range z.File {
		switch {
		case zf.Name == "header.json":
			header = zf
		case zf.Name == "_journal/start.json":
			start = zf
		case path.Dir(zf.Name) == "samples" && strings.HasSuffix(zf.Name, ".json"):
			samples = append(samples, zf)
		}
	}
	var head inspectHeader
	switch {
	case header != nil:
		b, err := member(header)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &head); err != nil {
			return fmt.Errorf("%s: header.json: %v", l.Path, err)
		}
	case start != nil:
		// A log still being written has only its journal's start.
		b, err := member(start)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &head); err != nil {
			return fmt.Errorf("%s: _journal/start.json: %v", l.Path, err)
		}
		head.Status = "started"
	default:
		return fmt.Errorf("%s: no header.json or _journal/start.json: not an Inspect .eval archive", l.Path)
	}
	if len(samples) == 0 {
		return fmt.Errorf("%s: no samples/*.json member: the log holds no samples (written without them, or before any finished)", l.Path)
	}
	r := inspectReader{log: l, head: head, opt: opt, left: map[string]int{}}
	for _, zf := range samples {
		b, err := member(zf)
		if err != nil {
			return err
		}
		if err := r.sample(b, l.Path+": "+zf.Name); err != nil {
			return err
		}
	}
	r.finish()
	return nil
}

// inspectReader turns samples into scores.
type inspectReader struct {
	log  *Log
	head inspectHeader
	opt  ReadOptions
	left map[string]int // notes with a %d count
}

func (r *inspectReader) sample(raw json.RawMessage, where string) error {
	var s inspectSample
	if err := json.Unmarshal(raw, &s); err != nil {
		return fmt.Errorf("%s: not an Inspect sample: %v", where, err)
	}
	if len(s.ID) == 0 || string(s.ID) == "null" {
		return fmt.Errorf("%s: field id is missing", where)
	}
	id := idText(s.ID)
	where = fmt.Sprintf("%s (id %s, epoch %d)", where, id, s.Epoch)
	if len(s.Error) > 0 && string(s.Error) != "null" {
		r.left["samples that errored (field error), left out: %d"]++
		return nil
	}
	if len(s.Scores) == 0 {
		r.left["samples without a score (field scores empty: scored later, or not at all), left out: %d"]++
		return nil
	}
	group, err := groupOf(raw, r.opt, where)
	if err != nil {
		return err
	}
	input, target := inspectInput(s.Input), inspectTarget(s.Target)
	base := Score{Sample: id, Epoch: s.Epoch, Group: group, Task: r.head.Eval.Task, Model: r.head.Eval.Model,
		Key: hashOf(input, target), Input: input, Target: target}
	for _, name := range sortedKeys(s.Scores) {
		sc := s.Scores[name]
		sb := base
		sb.Answer = s.Output.Completion
		if sc.Answer != nil {
			sb.Answer = *sc.Answer
		}
		if sc.Explanation != nil {
			sb.Explanation = *sc.Explanation
		}
		for _, v := range inspectValues(name, sc.Value) {
			x := sb
			x.Scorer, x.Value, x.At = v.scorer, v.value, where+": scores."+name+".value"
			if v.why != "" {
				r.left[v.why]++
			}
			r.log.Scores = append(r.log.Scores, x)
		}
	}
	return nil
}

// inspectValue is one scorer's value read from a score (a dict value
// gives several).
type inspectValue struct {
	scorer string
	value  float64
	why    string // a note when the value is no score
}

// inspectValues reads a score's value as Inspect's value_to_float does
// (inspect_ai/scorer/_metric.py): numbers and booleans as they are, "C"
// (CORRECT) 1, "P" (PARTIAL) 0.5, "I" (INCORRECT) and "N" (NOANSWER) 0,
// "yes"/"true" 1 and "no"/"false" 0 in any case, a numeric string as its
// number. A dict is one scorer per key ("name/key"); a list, null or
// another string is no score (Inspect warns and reads 0: here it is left
// out and counted).
func inspectValues(name string, raw json.RawMessage) []inspectValue {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil && m != nil {
		var out []inspectValue
		for _, k := range sortedKeys(m) {
			v, why := inspectFloat(name+"/"+k, m[k])
			out = append(out, inspectValue{scorer: name + "/" + k, value: v, why: why})
		}
		return out
	}
	v, why := inspectFloat(name, raw)
	return []inspectValue{{scorer: name, value: v, why: why}}
}

func inspectFloat(name string, raw json.RawMessage) (float64, string) {
	if x, ok := scalar(raw); ok {
		return x, ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		switch s {
		case "C":
			return 1, ""
		case "P":
			return 0.5, ""
		case "I", "N":
			return 0, ""
		}
		switch strings.ToLower(s) {
		case "yes", "true":
			return 1, ""
		case "no", "false":
			return 0, ""
		}
		if x, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil && !isNaN(x) && x-x == 0 {
			return x, ""
		}
		return nan, "scorer " + name + ": values that are a string but no score (not C, I, P, N, yes, no, true, false or a number), left out: %d"
	}
	if string(raw) == "null" || len(raw) == 0 {
		return nan, "scorer " + name + ": values null or not finite, left out: %d"
	}
	return nan, "scorer " + name + ": values that are a list, not one score, left out: %d"
}

// inspectInput is a sample's input as text: a string, or the text of its
// chat messages (each "role: content", a content list's text parts).
func inspectInput(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var msgs []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &msgs) != nil {
		return text(raw)
	}
	var parts []string
	for _, m := range msgs {
		parts = append(parts, m.Role+": "+contentText(m.Content))
	}
	return strings.Join(parts, "\n")
}

// contentText is a message's content as text: a string, or the text of
// its parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return text(raw)
	}
	var out []string
	for _, p := range parts {
		if p.Text != "" {
			out = append(out, p.Text)
		} else {
			out = append(out, "["+p.Type+"]")
		}
	}
	return strings.Join(out, " ")
}

// inspectTarget is a sample's target: a string, or a list's items joined
// by " | ".
func inspectTarget(raw json.RawMessage) string {
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return strings.Join(list, " | ")
	}
	return text(raw)
}

func (r *inspectReader) finish() {
	if r.head.Status != "" && r.head.Status != "success" {
		r.log.Notes = append(r.log.Notes, fmt.Sprintf("the log's status is %s, not success: it holds the samples that finished", r.head.Status))
	}
	r.log.Notes = append(r.log.Notes, noteCounts(r.left)...)
}
