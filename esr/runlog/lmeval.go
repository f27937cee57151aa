package runlog

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/internal/regfile"
)

// lm-evaluation-harness with --log_samples writes, per task, a file
// samples_TASK_DATE.jsonl beside results_DATE.json (its
// loggers/evaluation_tracker.py): one line per document and filter with
// doc_id, doc, target, arguments, resps, filtered_resps, filter, metrics
// (the names of the metric keys that follow), doc_hash, prompt_hash,
// target_hash, and one key per metric holding the document's value.

// samplesName is a samples file's name: the task and the run's date.
var samplesName = regexp.MustCompile(`^samples_(.+)_(\d{4}-\d{2}-\d{2}T[0-9.\-]+)\.jsonl$`)

// lmevalFields are the keys of a samples line that are not metrics (for
// lines written before lm-eval listed its metrics in "metrics").
var lmevalFields = map[string]bool{"doc_id": true, "doc": true, "target": true, "arguments": true, "resps": true,
	"filtered_resps": true, "filter": true, "metrics": true, "doc_hash": true, "prompt_hash": true, "target_hash": true, "task_name": true}

func readLMEval(l *Log, opt ReadOptions) error {
	files := []string{l.Path}
	st, err := os.Stat(l.Path)
	if err != nil {
		return err
	}
	if st.IsDir() {
		files, _ = filepath.Glob(filepath.Join(l.Path, "samples_*.jsonl"))
		sort.Strings(files)
		if len(files) == 0 {
			return fmt.Errorf("%s: a folder with no samples_*.jsonl file (lm-eval --log_samples writes one per task)", l.Path)
		}
	}
	tasks := map[string]string{}
	r := lmevalReader{log: l, opt: opt, left: map[string]int{}, nonScalar: map[string]int{}, seen: map[string]int{}}
	for _, f := range files {
		task, date := taskOf(f)
		if prev, dup := tasks[task]; dup {
			return fmt.Errorf("%s: two samples files of task %s (%s and %s: two runs?): name the one to compare", l.Path, task, filepath.Base(prev), filepath.Base(f))
		}
		tasks[task] = f
		model, how := modelOf(filepath.Dir(f), date)
		if how != "" {
			r.left[how]++
		}
		if err := r.file(f, task, model); err != nil {
			return err
		}
	}
	r.finish()
	return nil
}

// taskOf is the task and date a samples file's name carries.
func taskOf(file string) (task, date string) {
	base := filepath.Base(file)
	if m := samplesName.FindStringSubmatch(base); m != nil {
		return m[1], m[2]
	}
	return strings.TrimSuffix(strings.TrimPrefix(base, "samples_"), ".jsonl"), ""
}

// modelOf is the model of the run dated date in folder dir: results_DATE.json's
// model_name, else the folder's name (lm-eval names it after the model); how
// is a note when the folder's name was taken.
func modelOf(dir, date string) (model, how string) {
	if date != "" {
		if b, err := regfile.ReadFile(filepath.Join(dir, "results_"+date+".json"), 256<<20); err == nil {
			var res struct {
				ModelName string `json:"model_name"`
			}
			if json.Unmarshal(cleanNonFinite(b), &res) == nil && res.ModelName != "" {
				return res.ModelName, ""
			}
		}
	}
	return filepath.Base(dir), "samples files without a results_DATE.json beside them naming the model, whose model is their folder's name: %d"
}

type lmevalReader struct {
	log       *Log
	opt       ReadOptions
	left      map[string]int // notes with a %d count
	nonScalar map[string]int // per scorer: values that are not numbers
	scorers   map[string]int // per scorer: values read
	seen      map[string]int // (sample, filter) → index of its first score in log.Scores
	lines     map[string]int // (sample, filter) → its line
}

func (r *lmevalReader) file(path, task, model string) error {
	f, _, err := regfile.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if r.scorers == nil {
		r.scorers, r.lines = map[string]int{}, map[string]int{}
	}
	br := bufio.NewReader(f)
	for line := 1; ; line++ {
		b, err := regfile.ReadLine(br, regfile.MaxLine)
		if errors.Is(err, regfile.ErrLineTooLong) {
			return fmt.Errorf("%s:%d: line longer than %d bytes", path, line, regfile.MaxLine)
		}
		if len(bytes.TrimSpace(b)) > 0 {
			if lerr := r.line(cleanNonFinite(b), path, line, task, model, errors.Is(err, io.EOF)); lerr != nil {
				return lerr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func (r *lmevalReader) line(b []byte, path string, line int, task, model string, last bool) error {
	at := fmt.Sprintf("%s:%d", path, line)
	var rec map[string]json.RawMessage
	if err := json.Unmarshal(b, &rec); err != nil {
		if last {
			r.left["last lines cut short (a run killed while writing?), left out: %d"]++
			return nil
		}
		return fmt.Errorf("%s: not a samples line: %v", at, err)
	}
	if rec["doc_id"] == nil {
		return fmt.Errorf("%s: field doc_id is missing: not an lm-eval samples line", at)
	}
	docID := idText(rec["doc_id"])
	filter := "none"
	if rec["filter"] != nil {
		filter = text(rec["filter"])
	}
	var metrics []string
	if rec["metrics"] != nil {
		if err := json.Unmarshal(rec["metrics"], &metrics); err != nil {
			return fmt.Errorf("%s: field metrics: %v", at, err)
		}
	} else {
		for _, k := range sortedKeys(rec) {
			if !lmevalFields[k] {
				metrics = append(metrics, k)
			}
		}
		r.left["lines without field metrics (an older lm-eval), whose metrics are the keys besides lm-eval's own: %d"]++
	}
	if len(metrics) == 0 {
		return fmt.Errorf("%s: no metric on the line (field metrics is empty)", at)
	}
	sample := task + "/" + docID
	group, err := groupOf(b, r.opt, at)
	if err != nil {
		return err
	}
	if group != "" {
		group = task + "/" + group
	}
	key := text(rec["doc_hash"])
	if key == "" {
		key = hashOf(text(rec["doc"]))
	}
	if first, dup := r.seen[sample+"\x00"+filter]; dup {
		// The same document twice under one filter: agreeing values fold.
		for i, m := range metrics {
			x, ok := scalar(rec[m])
			if first+i >= len(r.log.Scores) || r.log.Scores[first+i].Sample != sample || r.log.Scores[first+i].Scorer != m+","+filter ||
				ok == isNaN(r.log.Scores[first+i].Value) || ok && x != r.log.Scores[first+i].Value {
				return fmt.Errorf("%s: doc_id %s under filter %s again (first at line %d) with another %s", at, docID, filter, r.lines[sample+"\x00"+filter], m)
			}
		}
		r.left["lines repeating a document already read, with the same values, folded: %d"]++
		return nil
	}
	r.seen[sample+"\x00"+filter] = len(r.log.Scores)
	r.lines[sample+"\x00"+filter] = line
	base := Score{Sample: sample, Group: group, Task: task, Model: model, Key: key,
		Input: firstString(rec["arguments"]), Target: text(rec["target"]), Answer: answerText(rec["filtered_resps"])}
	for _, m := range metrics {
		s := base
		s.Scorer, s.At = m+","+filter, at+": "+m
		raw, present := rec[m]
		x, ok := scalar(raw)
		switch {
		case ok:
			s.Value = x
		case !present:
			return fmt.Errorf("%s: field %s (listed in metrics) is missing", at, m)
		case string(raw) == "null":
			s.Value = nan
			r.left["metric "+s.Scorer+": values null or not finite (NaN, Infinity), left out: %d"]++
		default:
			s.Value = nan
			r.nonScalar[s.Scorer]++
		}
		r.scorers[s.Scorer]++
		r.log.Scores = append(r.log.Scores, s)
	}
	return nil
}

func (r *lmevalReader) finish() {
	drop := map[string]bool{}
	for _, sc := range sortedKeys(r.nonScalar) {
		n := r.nonScalar[sc]
		if n == r.scorers[sc] {
			drop[sc] = true
			r.log.Notes = append(r.log.Notes, fmt.Sprintf("metric %s: no per-sample score (its values are not numbers but the items lm-eval aggregates over the task, as a corpus-level metric's): left out", sc))
			continue
		}
		r.log.Notes = append(r.log.Notes, fmt.Sprintf("metric %s: %d values are not numbers: left out", sc, n))
	}
	if len(drop) > 0 {
		kept := r.log.Scores[:0]
		for _, s := range r.log.Scores {
			if !drop[s.Scorer] {
				kept = append(kept, s)
			}
		}
		r.log.Scores = kept
	}
	r.log.Notes = append(r.log.Notes, noteCounts(r.left)...)
}

// firstString is the first string value in raw, in document order (an
// lm-eval request's first argument: its prompt).
func firstString(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var walk func() (string, bool)
	walk = func() (string, bool) {
		t, err := dec.Token()
		if err != nil {
			return "", false
		}
		switch v := t.(type) {
		case string:
			return v, true
		case json.Delim:
			switch v {
			case '{':
				for dec.More() {
					if _, err := dec.Token(); err != nil { // the key
						return "", false
					}
					if s, ok := walk(); ok {
						return s, true
					}
				}
				dec.Token()
			case '[':
				for dec.More() {
					if s, ok := walk(); ok {
						return s, true
					}
				}
				dec.Token()
			}
		}
		return "", false
	}
	s, _ := walk()
	return s
}

// answerText is a line's filtered response: its strings joined by " | ",
// or its JSON (a multiple-choice task's log-likelihoods).
func answerText(raw json.RawMessage) string {
	var flat []string
	var one [][]string
	switch {
	case json.Unmarshal(raw, &flat) == nil:
		return strings.Join(flat, " | ")
	case json.Unmarshal(raw, &one) == nil:
		var parts []string
		for _, xs := range one {
			parts = append(parts, strings.Join(xs, " | "))
		}
		return strings.Join(parts, " | ")
	}
	return text(raw)
}
