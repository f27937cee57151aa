package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/safefile"
)

// Every command that writes checks its outputs with safefile.Target before
// it starts (the one rule: no output inside an input, no non-empty output
// that is not the command's own). This file holds how each kind of output
// recognises itself.

// input names an input for a Target.
func input(flag, path string) safefile.Input { return safefile.Input{Flag: flag, Path: path} }

// checkFile checks a file output of writer named by flag, recognised by ours.
func checkFile(flag, path, writer string, ours func([]byte) bool, inputs ...safefile.Input) error {
	return safefile.Target{Flag: flag, Path: path, Writer: writer, Ours: ours, Inputs: inputs}.Check()
}

// isRequests recognises a Batch API requests file the kit wrote (esr batch
// export, --export of judge and rejudge): every custom_id starts esr1|.
func isRequests(head []byte) bool { return bytes.HasPrefix(head, []byte(`{"custom_id":"esr1|`)) }

// isPack recognises a result pack (esr cache export): gzip whose first
// line is the pack manifest.
func isPack(head []byte) bool {
	zr, err := gzip.NewReader(bytes.NewReader(head))
	if err != nil {
		return false
	}
	b, _ := io.ReadAll(io.LimitReader(zr, 128))
	return bytes.HasPrefix(b, []byte(`{"manifest":{"format":"esrkit-llm-pack/`))
}

// rowsChecked accepts any content: outcome rows are checked by the sink
// that appends to them (eval.OpenFileSink), which refuses a foreign file.
func rowsChecked([]byte) bool { return true }

// isAtomRows recognises atoms.jsonl rows (esr extract's output).
func isAtomRows(head []byte) bool { return bytes.HasPrefix(head, []byte(`{"stream_id":`)) }

// isCalibrateOut recognises what esr calibrate writes by its kind tag
// alone: JSON whose first key "kind" names one of its outputs
// (sim.IsOutputKind: a calibration, a sensitivity, a grid, a validation),
// or the model card (sim.ModelCardTag). A file that only looks like one
// (a Jupyter notebook opens with "cells") is not its own.
func isCalibrateOut(head []byte) bool {
	if bytes.HasPrefix(head, []byte(sim.ModelCardTag)) {
		return true // the model card (--card)
	}
	k, v := firstKey(head)
	return k == "kind" && sim.IsOutputKind(v)
}

// isRunSummary recognises the llm summary esr eval writes beside its rows.
func isRunSummary(head []byte) bool { k, _ := firstKey(head); return k == "run" }

// firstKey is the first key of the JSON object at the start of head (with
// its value when that is a string), or "[KEY" for an object in a list.
func firstKey(head []byte) (key, value string) {
	dec := json.NewDecoder(bytes.NewReader(head))
	prefix := ""
	t, err := dec.Token()
	if d, ok := t.(json.Delim); err == nil && ok && d == '[' {
		prefix = "["
		t, err = dec.Token()
	}
	if d, ok := t.(json.Delim); err != nil || !ok || d != '{' {
		return "", ""
	}
	t, err = dec.Token()
	k, ok := t.(string)
	if err != nil || !ok {
		return "", ""
	}
	t, _ = dec.Token()
	v, _ := t.(string)
	return prefix + k, v
}

// manifestSays returns a Legacy check for a benchmark folder written
// before MarkerFile: its MANIFEST.json's field names the same writer as
// tag, in any version ("generator": "esr-synth/2" for tag esr-synth/3).
func manifestSays(field, tag string) func(dir string) bool {
	prefix, _, _ := strings.Cut(tag, "/")
	prefix += "/"
	return func(dir string) bool {
		b, err := os.ReadFile(filepath.Join(dir, "MANIFEST.json"))
		if err != nil {
			return false
		}
		var m map[string]any
		if json.Unmarshal(b, &m) != nil {
			return false
		}
		s, _ := m[field].(string)
		return strings.HasPrefix(s, prefix)
	}
}

// benchTarget is the folder output of a command that writes a benchmark
// (the file names it may hold are checked when it is replaced:
// bench.WriteFolder); legacy may be nil.
func benchTarget(path, writer string, legacy func(string) bool, inputs ...safefile.Input) safefile.Target {
	return safefile.Target{Flag: "--out", Path: path, Writer: writer, Dir: true, Legacy: legacy, Inputs: inputs}
}

// writeBench checks t, writes the benchmark with write and marks the folder.
func writeBench(t safefile.Target, write func() error) error {
	if err := t.Check(); err != nil {
		return err
	}
	if err := write(); err != nil {
		return err
	}
	return t.Mark()
}
