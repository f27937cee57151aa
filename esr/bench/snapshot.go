package bench

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"

	"github.com/esrkit/esrkit/internal/mapfile"
	"github.com/esrkit/esrkit/internal/regfile"
	"github.com/esrkit/esrkit/internal/safefile"
	"github.com/esrkit/esrkit/internal/snapfresh"
)

// A notebook reruns its global declarations in every cell (GoNB), so a
// notebook that loads the synthetic benchmark would decode 8.6 MB of JSON
// lines, and check them, in every cell. With LoadOptions.Snapshots set, the
// loaded and checked benchmark is kept there as one snapshot
// (snapshot_codec.go: a cell reads it back in a fraction of the time the
// rows take to decode and check, BenchmarkLoad), used only while it names
// each file's exact bytes: while a file's stamp (snapfresh.Stamp: size,
// modification and change times, inode) is the one recorded, and it was
// last changed more than snapfresh.Granularity before the snapshot (git's
// "racily clean" rule), it is not read again; otherwise it is hashed
// (SHA-256) and must match. The benchmark a snapshot returns carries the
// recorded hashes, and its HashTo (which keys every cache of rows) writes
// them: the key names the bytes the benchmark was decoded from, never the
// files as they are by the time a key is made. The JSONL files stay the
// record: a missing, stale or damaged snapshot (its body carries a
// CRC-32C) is a miss, the files are loaded and checked as without
// snapshots, and a new snapshot is written. The loaded benchmark is kept
// only when its snapshot decodes back to it exactly (reflect.DeepEqual), so
// a snapshot never changes what a load returns.

// snapMagic opens every snapshot; the digit is the format's version.
const snapMagic = "esrkit bench snapshot 1\n"

// snapFiles are the files a snapshot stands for, in this order.
var snapFiles = []string{StreamsFile, AtomsFile, QAFile, RelationsFile}

// snapSource is what a snapshot recorded of one file.
type snapSource struct {
	Name   string
	Absent bool     // the file did not exist (relations.jsonl is optional)
	Sum    [32]byte // SHA-256 of its bytes
	// Stamp is its stat when it was read, or zero when it changed while it
	// was read (never trusted then).
	snapfresh.Stamp
}

// snapHeader follows snapMagic, gob-encoded; the body follows it.
type snapHeader struct {
	Schema          string // snapSchema
	RequireCoverage bool   // LoadOptions.RequireCoverage
	Files           []snapSource
	Len             int    // the body's length
	CRC             uint32 // the body's CRC-32C
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// snapSchema names the fields of the types a body holds, so a build whose
// types differ does not read it (the codec's own version is snapMagic's
// digit).
func snapSchema() string { return snapfresh.Schema(reflect.TypeFor[Bench]()) }

// snapPath names dir's snapshot in snapDir: a hash of dir's absolute path
// and its base name, so two benchmarks do not collide.
func snapPath(snapDir, dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	h := sha256.Sum256([]byte(abs))
	return filepath.Join(snapDir, hex.EncodeToString(h[:6])+"-"+filepath.Base(abs)+".benchsnap")
}

// loadSnapshot returns dir's benchmark from its snapshot in opt.Snapshots
// when that still stands for dir's files; ok is false otherwise. A snapshot
// that matched by the files' hashes only (their times were too close to
// it, or changed without a change of bytes) is written again, stamped with
// their current stat, so the next load trusts the stat.
func loadSnapshot(dir string, opt LoadOptions) (b *Bench, ok bool) {
	path := snapPath(opt.Snapshots, dir)
	snapStat, err := os.Stat(path)
	if err != nil {
		return nil, false
	}
	data, err := mapfile.Read(path)
	if err != nil || !bytes.HasPrefix(data, []byte(snapMagic)) {
		return nil, false
	}
	r := bytes.NewReader(data[len(snapMagic):])
	var head snapHeader
	if gob.NewDecoder(r).Decode(&head) != nil || head.Schema != snapSchema() || head.RequireCoverage != opt.RequireCoverage ||
		len(head.Files) != len(snapFiles) || head.Len != r.Len() {
		return nil, false
	}
	body := data[len(data)-r.Len():]
	restamp := false
	for i, f := range head.Files {
		if f.Name != snapFiles[i] {
			return nil, false
		}
		now, matches, hashed := sourceMatches(filepath.Join(dir, f.Name), f, snapStat)
		if !matches {
			return nil, false
		}
		if hashed {
			restamp = restamp || now.Stamp != snapfresh.Stamp{}
			head.Files[i] = now
		}
	}
	if crc32.Checksum(body, castagnoli) != head.CRC {
		return nil, false
	}
	if b, ok = decodeSnapshot(body, dir, opt); !ok {
		return nil, false
	}
	b.sums = sumsOf(head.Files)
	if restamp && allOldEnough(head.Files) {
		_ = writeSnapshotFile(path, head, body)
	}
	return b, true
}

// sourceMatches reports whether the file at path is still the one f
// records: by its stat when the snapshot (its stat, snap) may trust it
// (snapfresh.StatTrusted), else by its bytes' hash (hashed true; now then
// records the file as it is, with its stat when it held still while read).
func sourceMatches(path string, f snapSource, snap os.FileInfo) (now snapSource, matches, hashed bool) {
	st, err := os.Stat(path)
	if f.Absent {
		return f, errors.Is(err, fs.ErrNotExist), false
	}
	if err != nil || !st.Mode().IsRegular() {
		return f, false, false
	}
	if snapfresh.StatTrusted(st, snap, f.Stamp) {
		return f, true, false
	}
	src, err := readSource(path)
	if err != nil {
		return f, false, true
	}
	return src.snapSource, src.Sum == f.Sum, true
}

// sumsOf is the hashes files record, by name (Bench.sums), for HashTo.
func sumsOf(files []snapSource) map[string][32]byte {
	sums := map[string][32]byte{}
	for _, f := range files {
		if !f.Absent {
			sums[f.Name] = f.Sum
		}
	}
	return sums
}

// allOldEnough reports whether every present file was last written long
// enough ago for a snapshot written now to trust its stat.
func allOldEnough(files []snapSource) bool {
	for _, f := range files {
		if !f.Absent && !snapfresh.OldEnough(f.Stamp) {
			return false
		}
	}
	return true
}

// source is one file read whole for a load that writes a snapshot.
type source struct {
	snapSource
	data []byte
}

// readSource reads the regular file at path whole and records it; its
// stat is kept only when the file held still while it was read.
func readSource(path string) (source, error) {
	// Opened once and checked on the open file: a file swapped for a FIFO
	// between a stat and the read could not block the read.
	f, before, err := regfile.Open(path)
	if err != nil {
		return source{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return source{}, err
	}
	s := source{snapSource: snapSource{Name: filepath.Base(path), Sum: sha256.Sum256(data)}, data: data}
	if after, err := os.Stat(path); err == nil && snapfresh.StampOf(after) == snapfresh.StampOf(before) && int64(len(data)) == before.Size() {
		s.Stamp = snapfresh.StampOf(before)
	}
	return s, nil
}

// readSources reads dir's benchmark files for a load that will write a
// snapshot: ok is false when one of them is not a regular file (a pipe,
// a device: read line by line, never whole, and never snapshotted).
func readSources(dir string) (srcs []source, ok bool) {
	for _, name := range snapFiles {
		path := filepath.Join(dir, name)
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			srcs = append(srcs, source{snapSource: snapSource{Name: name, Absent: true}})
			continue
		}
		s, err := readSource(path)
		if err != nil {
			return nil, false
		}
		srcs = append(srcs, s)
	}
	return srcs, true
}

// writeSnapshot keeps b, loaded from srcs, as dir's snapshot in
// opt.Snapshots when its body decodes back to b exactly; a snapshot that
// cannot be kept or written is skipped (the next load reads the files).
func writeSnapshot(dir string, opt LoadOptions, b *Bench, srcs []source) {
	body, err := encodeSnapshot(b)
	if err != nil {
		return
	}
	head := snapHeader{Schema: snapSchema(), RequireCoverage: opt.RequireCoverage, Len: len(body), CRC: crc32.Checksum(body, castagnoli)}
	for _, s := range srcs {
		head.Files = append(head.Files, s.snapSource)
	}
	back, ok := decodeSnapshot(body, dir, opt)
	if !ok {
		return
	}
	// The hashes a load from the snapshot will carry must be the ones this
	// load's HashTo writes: sameBench compares them too.
	back.sums = sumsOf(head.Files)
	if !sameBench(b, back) {
		return
	}
	if err := os.MkdirAll(opt.Snapshots, 0o755); err != nil {
		return
	}
	_ = writeSnapshotFile(snapPath(opt.Snapshots, dir), head, body)
}

// writeSnapshotFile writes a snapshot atomically.
func writeSnapshotFile(path string, head snapHeader, body []byte) error {
	return safefile.Write(path, 0o644, func(w io.Writer) error {
		if _, err := io.WriteString(w, snapMagic); err != nil {
			return err
		}
		if err := gob.NewEncoder(w).Encode(head); err != nil {
			return err
		}
		_, err := w.Write(body)
		return err
	})
}

// sameBench reports whether a and b hold the same benchmark, field for
// field, the caches settle fills included.
func sameBench(a, b *Bench) bool { return reflect.DeepEqual(a, b) }
