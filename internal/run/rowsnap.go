package run

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/safefile"
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

// rowSnap is a snapshot file's content.
type rowSnap struct {
	Schema string   // outcomeSchema() when written
	Sum    [32]byte // SHA-256 of the JSONL file the rows were decoded from
	Rows   []eval.Outcome
}

// outcomeSchema lists eval.Outcome's fields and types, so a snapshot
// written by a build whose Outcome differs is not read.
func outcomeSchema() string {
	t := reflect.TypeFor[eval.Outcome]()
	var b strings.Builder
	for i := range t.NumField() {
		f := t.Field(i)
		fmt.Fprintf(&b, "%s %s %q;", f.Name, f.Type, f.Tag)
	}
	return b.String()
}

// readRows reads a cache file's rows, from its snapshot when the snapshot
// matches the file, else from the file (then writing the snapshot; a
// snapshot that cannot be written is skipped: it is only a shortcut).
func readRows(path string) ([]eval.Outcome, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	schema := outcomeSchema()
	if f, err := os.Open(path + snapSuffix); err == nil {
		var snap rowSnap
		derr := gob.NewDecoder(f).Decode(&snap)
		f.Close()
		if derr == nil && snap.Sum == sum && snap.Schema == schema {
			return snap.Rows, nil
		}
	}
	rows, err := eval.DecodeOutcomes(bytes.NewReader(b), path)
	if err != nil {
		return nil, err
	}
	_ = safefile.Write(path+snapSuffix, 0o644, func(w io.Writer) error {
		return gob.NewEncoder(w).Encode(rowSnap{Schema: schema, Sum: sum, Rows: rows})
	})
	return rows, nil
}
