package rowcache

import (
	"bytes"
	"encoding/hex"
	"fmt"

	"github.com/esrkit/esrkit/esr/bench"

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

// readRows reads a cache file's rows once its seal proves the file whole
// (seal.go), from its snapshot when that matches the file, else
// from the file (then writing the snapshot; a snapshot that cannot be
// written is skipped: it is only a shortcut). Either way the rows must
// number what the seal says.
func readRows(path string) ([]eval.Outcome, error) {
	sf, err := sealed(path)
	if err != nil {
		return nil, err
	}
	if rows, hashed, ok := flatsnap.Read[eval.Outcome](path+snapSuffix, path); ok && len(rows) == sf.seal.Rows {
		// A snapshot that matched only by hash is written again once the
		// file is old enough for later reads to trust its stat.
		if hashed != nil && snapfresh.OldEnough(hashed.Stamp) {
			_ = flatsnap.Write(path+snapSuffix, *hashed, rows)
		}
		return rows, nil
	}
	if sf.data == nil { // proved by its stamp: read it now, and check it again
		data, src, stable, err := flatsnap.ReadSource(path)
		if err != nil {
			return nil, err
		}
		if hex.EncodeToString(src.Sum[:]) != sf.seal.SHA256 {
			return nil, fmt.Errorf("%s: %w: changed while read", path, errUnsealed)
		}
		sf.data, sf.src, sf.stable = data, src, stable
	}
	rows, err := eval.DecodeOutcomes(bytes.NewReader(sf.data), path)
	if err != nil {
		return nil, err
	}
	if len(rows) != sf.seal.Rows {
		return nil, fmt.Errorf("%s: %w: %d rows read, %d sealed", path, errUnsealed, len(rows), sf.seal.Rows)
	}
	if sf.stable {
		_ = flatsnap.Write(path+snapSuffix, sf.src, rows)
	}
	return rows, nil
}

// writeRows writes rows to path, then its seal and, from the same bytes,
// its snapshot, so that the first reader (a notebook's cell, after esr
// prepare) does not decode the JSONL file (the Debian deployed suite's is
// some 220 MB). What was kept of an earlier file at path goes first. The
// snapshot's rows are the ones the file was encoded from: an Outcome's
// fields read back from JSON as they were
// (TestRowsReadBackFromTheirSnapshotAsFromJSONL).
func writeRows(path string, rows []eval.Outcome) error {
	removeCached(path)
	sum, err := bench.WriteJSONLSum(path, rows)
	if err != nil {
		return err
	}
	src, ok, err := writeSeal(path, len(rows), sum)
	if err != nil || !ok {
		return err // unsealed: the next read evaluates the rows again
	}
	_ = flatsnap.Write(path+snapSuffix, src, rows)
	return nil
}
