package eval_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
)

// Row files written before identities were typed decode into the typed
// Outcome and are written again byte for byte by the writer that wrote
// them, so no cache, result or resumed run changes. testdata holds rows of
// the kit's own runs (bench.WriteJSONL: every memory class, control and
// content-matched baseline, exec: adapter, sim reader and condition the
// suites write) and rows written by the string-typed FileSink (json.Marshal:
// parameterised memories, llm and scripted readers, label and condition
// unset, a judge and a fingerprint).
func TestOutcomeRowsRoundTripByteForByte(t *testing.T) {
	dir := t.TempDir()
	write := map[string]func(path string, rows []eval.Outcome) error{
		"outcomes-runs.jsonl": bench.WriteJSONL[eval.Outcome],
		"outcomes-sink.jsonl": func(path string, rows []eval.Outcome) error {
			sink, err := eval.OpenFileSink(path)
			if err != nil {
				return err
			}
			defer sink.Close()
			for _, o := range rows {
				if err := sink.Put(o); err != nil {
					return err
				}
			}
			return nil
		},
	}
	var all []eval.Outcome
	for name, w := range write {
		want, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := eval.DecodeOutcomes(bytes.NewReader(want), name)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(want, []byte("\n")); len(rows) != n {
			t.Fatalf("%s: %d rows from %d lines", name, len(rows), n)
		}
		out := filepath.Join(dir, name)
		if err := w(out, rows); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := range min(len(gl), len(wl)) {
			if !bytes.Equal(gl[i], wl[i]) {
				t.Errorf("%s:%d:\n got %s\nwant %s", name, i+1, gl[i], wl[i])
			}
		}
		if len(gl) != len(wl) {
			t.Errorf("%s: %d lines written, want %d", name, len(gl), len(wl))
		}
		all = append(all, rows...)
	}
	// The fixtures cover what the encoder must keep, parsed into typed
	// parts rather than carried as text.
	var params, kept, variants, unlabelled int
	for _, o := range all {
		if o.Memory.Params.Assumed != (memory.Assumed{}) {
			params++
		}
		if !o.Memory.Params.Kept.IsZero() {
			kept++
		}
		if !o.Variant.IsZero() {
			variants++
		}
		if o.Label == "" {
			unlabelled++
		}
	}
	if params == 0 || kept == 0 || variants == 0 || unlabelled == 0 {
		t.Errorf("fixtures lack a case: %d parameterised, %d content-matched, %d with a condition, %d unlabelled", params, kept, variants, unlabelled)
	}
}
