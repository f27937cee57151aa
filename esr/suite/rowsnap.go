package suite

import (
	"bytes"
	"encoding/gob"
	"os"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/gobsnap"
)

// A notebook re-runs its program, global declarations included, for every
// cell (GoNB), so a cell that shows one table still reads its suite's rows
// from the cache. Decoding 50,000 JSON rows takes about a second; a gob
// snapshot of the same rows beside the JSONL file (NAME.jsonl.gob) reads in
// a fifth of that. The JSONL file stays the record (human-readable,
// append-only elsewhere in the kit); the snapshot is used only while it
// names the JSONL file's exact bytes (SHA-256) and the Outcome type's
// fields, and is rewritten whenever either differs.

// snapSuffix names a cache file's snapshot.
const snapSuffix = ".gob"

// readRows reads a cache file's rows, from its snapshot (gobsnap) when the
// snapshot matches the file, else from the file (then writing the snapshot;
// a snapshot that cannot be written is skipped: it is only a shortcut).
func readRows(path string) ([]eval.Outcome, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	want := gobsnap.For[eval.Outcome](b)
	if _, dec, ok := gobsnap.Open(path+snapSuffix, want); ok {
		var rows []eval.Outcome
		if dec.Decode(&rows) == nil {
			return rows, nil
		}
	}
	rows, err := eval.DecodeOutcomes(bytes.NewReader(b), path)
	if err != nil {
		return nil, err
	}
	var body bytes.Buffer
	if gob.NewEncoder(&body).Encode(rows) == nil {
		want.N = len(rows)
		_ = gobsnap.Write(path+snapSuffix, want, body.Bytes())
	}
	return rows, nil
}
