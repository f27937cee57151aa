package rowcache

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/flatsnap"
	"github.com/esrkit/esrkit/internal/regfile"
	"github.com/esrkit/esrkit/internal/safefile"
	"github.com/esrkit/esrkit/internal/snapfresh"
)

// A rows cache file proves it is whole before it is read: once Rows has
// written NAME.jsonl it seals it, writing NAME.jsonl.seal with the number
// of rows, the SHA-256 of the bytes it wrote and the file's stamp
// (snapfresh.Stamp). A file without a seal (a run that stopped between the
// two), or whose bytes are not the sealed ones (cut at a line or inside
// one, edited, replaced), is not read: its rows are evaluated again. The
// file is read by its seal's hash, or by its stamp once that can be trusted
// (snapfresh.StatTrusted, against the seal's own time): the seal is written
// again with the file's stamp when a read had to hash a file old enough,
// so a notebook cell reads a seal and two stats, never the rows, to know
// the file is whole. The leniency of eval.DecodeOutcomes for an unfinished
// last line is for resumable --out files: a sealed file has none, and the
// rows read must number what the seal says. The tables kept beside a rows
// file (KeptFile) carry its seal and are read only with it.
//
// A notebook re-runs its program, global declarations included, for every
// cell (GoNB), so a cell that shows one table still reads its suite's rows
// from the cache. Decoding 100,000 JSON rows takes about two seconds; a
// snapshot of the same rows beside the JSONL file (NAME.jsonl.snap,
// internal/flatsnap: column-wise, each distinct string once) reads in a
// small fraction of that (BenchmarkReadRows). The JSONL file stays the
// record (human-readable, append-only elsewhere in the kit); the snapshot
// is used only while it was made from the JSONL file's current bytes and the
// Outcome type's fields, and is rewritten whenever either differs.

// sealSuffix names a rows file's seal.
const sealSuffix = ".seal"

// sealKind opens every seal; the digit is its format's version.
const sealKind = "esrkit rows seal 1"

// maxSeal bounds a seal file read (a seal is about 200 bytes).
const maxSeal = 4 << 10

// rowsSeal is a seal's content.
type rowsSeal struct {
	Kind   string          `json:"kind"`
	Rows   int             `json:"rows"`
	SHA256 string          `json:"sha256"` // of the file's bytes, hex
	Stamp  snapfresh.Stamp `json:"stamp"`  // the file's stat when sealed
}

// errUnsealed wraps every reason a rows file is not read as whole.
var errUnsealed = errors.New("not a whole rows cache file")

// writeSeal seals the rows file at path, holding n rows whose JSON lines
// hash to sum, when the file holds those bytes (read back whole and still
// while read); otherwise it writes no seal and the file is not read.
func writeSeal(path string, n int, sum [32]byte) (src flatsnap.Source, ok bool, err error) {
	_, src, stable, err := flatsnap.ReadSource(path)
	if err != nil || !stable || src.Sum != sum {
		return src, false, err
	}
	return src, true, putSeal(path, rowsSeal{Kind: sealKind, Rows: n, SHA256: hex.EncodeToString(sum[:]), Stamp: src.Stamp})
}

// putSeal writes path's seal atomically.
func putSeal(path string, s rowsSeal) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return safefile.WriteFile(path+sealSuffix, append(b, '\n'), 0o644)
}

// sealedFile is a rows file proved whole by its seal: when proving it took
// reading it, data holds its bytes and src describes them (stable when the
// file held still while read).
type sealedFile struct {
	seal   rowsSeal
	data   []byte
	src    flatsnap.Source
	stable bool
}

// sealed proves the rows file at path whole by its seal, or fails with an
// error wrapping errUnsealed that says why.
func sealed(path string) (sealedFile, error) {
	bad := func(format string, args ...any) (sealedFile, error) {
		return sealedFile{}, fmt.Errorf("%s: %w: "+format, append([]any{path, errUnsealed}, args...)...)
	}
	f, sealStat, err := regfile.Open(path + sealSuffix)
	if err != nil {
		return bad("no seal (%v)", err)
	}
	text, err := io.ReadAll(io.LimitReader(f, maxSeal+1))
	f.Close()
	if err != nil {
		return bad("seal unreadable (%v)", err)
	}
	var s rowsSeal
	if len(text) > maxSeal || json.Unmarshal(text, &s) != nil || s.Kind != sealKind || s.Rows < 0 || len(s.SHA256) != 64 {
		return bad("damaged seal")
	}
	st, err := os.Stat(path)
	if err != nil {
		return bad("%v", err)
	}
	if snapfresh.StatTrusted(st, sealStat, s.Stamp) {
		return sealedFile{seal: s}, nil
	}
	data, src, stable, err := flatsnap.ReadSource(path)
	if err != nil {
		return bad("%v", err)
	}
	if hex.EncodeToString(src.Sum[:]) != s.SHA256 {
		return bad("its bytes are not the ones sealed (%d bytes now, %d sealed with %d rows): cut short or changed", len(data), s.Stamp.Size, s.Rows)
	}
	if stable && src.Stamp != s.Stamp && snapfresh.OldEnough(src.Stamp) {
		// The same bytes, restamped: later reads trust the stat. A failed
		// write costs them the hash again.
		s.Stamp = src.Stamp
		_ = putSeal(path, s)
	}
	return sealedFile{seal: s, data: data, src: src, stable: stable}, nil
}

// removeCached removes what was kept of the rows file at path (its seal,
// snapshot and kept tables) before the file is written again, so that
// nothing made from the old file is read beside the new one. Failures are
// ignored: the seal, written last, decides what is read.
func removeCached(path string) {
	_ = os.Remove(path + sealSuffix)
	_ = os.Remove(path + snapSuffix)
	ents, _ := os.ReadDir(filepath.Dir(path))
	prefix := filepath.Base(path) + ".tables-"
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), prefix) && strings.HasSuffix(e.Name(), ".gob") {
			_ = os.Remove(filepath.Join(filepath.Dir(path), e.Name()))
		}
	}
}

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
