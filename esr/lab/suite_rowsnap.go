package lab

import (
	"bytes"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/flatsnap"
	"github.com/esrkit/esrkit/internal/snapfresh"
)

// A notebook re-runs its program, global declarations included, for every
// cell (GoNB), so a cell that shows one table still reads its suite's rows
// from the cache. Decoding 100,000 JSON rows takes about two seconds; a
// snapshot of the same rows beside the JSONL file (NAME.jsonl.snap,
// internal/flatsnap: column-wise, each distinct string once) reads in a
// small fraction of that (BenchmarkReadRows). The JSONL file stays the
// record (human-readable, append-only elsewhere in the kit); the snapshot
// is used only while it was made from the JSONL file's current bytes and the
// Outcome type's fields, and is rewritten whenever either differs.

// snapSuffix names a cache file's snapshot.
const snapSuffix = ".snap"

// readRows reads a cache file's rows, from its snapshot when that matches
// the file, else from the file (then writing the snapshot; a snapshot that
// cannot be written is skipped: it is only a shortcut).
func readRows(path string) ([]eval.Outcome, error) {
	if rows, hashed, ok := flatsnap.Read[eval.Outcome](path+snapSuffix, path); ok {
		// A snapshot that matched only by hash is written again once the
		// file is old enough for later reads to trust its stat.
		if hashed != nil && snapfresh.OldEnough(hashed.Stamp) {
			_ = flatsnap.Write(path+snapSuffix, *hashed, rows)
		}
		return rows, nil
	}
	data, src, stable, err := flatsnap.ReadSource(path)
	if err != nil {
		return nil, err
	}
	rows, err := eval.DecodeOutcomes(bytes.NewReader(data), path)
	if err != nil {
		return nil, err
	}
	if stable {
		_ = flatsnap.Write(path+snapSuffix, src, rows)
	}
	return rows, nil
}

// snapshotWritten writes the snapshot of rows just written to path, so
// that the first reader (a notebook's cell, after esr prepare) does not
// decode the JSONL file (the Debian deployed suite's is some 220 MB). It
// is made from the file's bytes as they are now (their hash), and the
// rows are the ones the file was encoded from: an Outcome's fields read
// back from JSON as they were (TestRowsReadBackFromTheirSnapshotAsFromJSONL).
func snapshotWritten(path string, rows []eval.Outcome) {
	_, src, stable, err := flatsnap.ReadSource(path)
	if err == nil && stable {
		_ = flatsnap.Write(path+snapSuffix, src, rows)
	}
}
