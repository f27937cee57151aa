package bench

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"reflect"

	"github.com/esrkit/esrkit/internal/gobsnap"
)

// A notebook reruns its global declarations in every cell (GoNB), so a
// notebook that loads the synthetic benchmark decodes 8.6 MB of JSON lines
// per cell. With LoadOptions.Snapshots set, each file's decoded rows are
// kept there as a gob snapshot, read back while it names the file's exact
// bytes (SHA-256) and the row type's fields; the JSONL files stay the
// record, and every check Load makes runs on the rows either way.

// snapEntry is one decoded line, as JSON decoding left it (before the
// checks run, which may sort or fill in fields). Empty lists the row's
// top-level slice fields that JSON decoded as empty, not nil ("[]"): gob
// sends neither and decodes both as nil, so they are restored from it
// (qa.jsonl's lists of event IDs are "[]" when a question has none, and the
// benchmark's hash, which keys every cache, tells the two apart).
type snapEntry[T any] struct {
	Line  int
	Row   T
	Empty []int
}

// entry is row's snapshot entry at line.
func entry[T any](line int, row T) snapEntry[T] {
	return snapEntry[T]{Line: line, Row: row, Empty: emptySlices(reflect.ValueOf(&row).Elem())}
}

// emptySlices returns the indices of v's top-level slice fields that are
// empty but not nil (none when v is not a struct).
func emptySlices(v reflect.Value) []int {
	if v.Kind() != reflect.Struct {
		return nil
	}
	var idx []int
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Slice && !f.IsNil() && f.Len() == 0 {
			idx = append(idx, i)
		}
	}
	return idx
}

// restore makes the fields e.Empty names empty slices again; false when
// one is not a nil slice field (a damaged or foreign snapshot).
func (e *snapEntry[T]) restore() bool {
	v := reflect.ValueOf(&e.Row).Elem()
	for _, i := range e.Empty {
		if v.Kind() != reflect.Struct || i < 0 || i >= v.NumField() {
			return false
		}
		f := v.Field(i)
		if f.Kind() != reflect.Slice || !f.IsNil() || !f.CanSet() {
			return false
		}
		f.Set(reflect.MakeSlice(f.Type(), 0, 0))
	}
	return true
}

// snapSchema names what a snapshot of T's rows holds: the entry type, so a
// snapshot written before Empty existed (which marked qa.jsonl as one gob
// could not keep) is not read.
func snapSchema[T any]() string { return gobsnap.Schema(reflect.TypeFor[snapEntry[T]]()) }

// eachRow decodes every non-blank line of path into a T (decodeLine: errors
// name file, line and field) and calls fn with it, in file order, stopping
// at the first error. With snapDir set it reads the rows from the file's
// snapshot there when that matches, and writes one after a clean read; a
// path that is not a regular file (a pipe, a device) is read line by line
// without a snapshot, since reading it whole has no bound.
func eachRow[T any](path, snapDir string, fn func(line int, row *T) error) error {
	name := filepath.Base(path)
	if st, err := os.Stat(path); snapDir == "" || err != nil || !st.Mode().IsRegular() {
		return readFile(path, func(line int, data []byte) error {
			var row T
			if err := decodeLine(name, line, data, &row); err != nil {
				return err
			}
			return fn(line, &row)
		})
	}
	snap := snapPath(snapDir, path)
	before, _ := os.Stat(path)
	// A snapshot made well after the file was last written is trusted by
	// the file's size and time (gobsnap.OpenStat): no read, no hash.
	if h, dec, ok := gobsnap.OpenStat(snap, snapSchema[T](), before); ok && h.N >= 0 && int64(h.N) <= before.Size() {
		if entries, ok := decodeEntries[T](dec, h.N); ok {
			return eachEntry(entries, fn)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	after, _ := os.Stat(path)
	head := gobsnap.Header{Schema: snapSchema[T](), Sum: sha256.Sum256(data)}
	head.Stamp(before, after)
	switch entries, found := readSnapshot[T](snap, head, bytes.Count(data, []byte{'\n'})+1); {
	case found && entries != nil:
		// OpenStat did not trust this snapshot (one written before stamps,
		// or too close to the file's last write), the hash did: it is written
		// again, stamped, once the file is old enough for OpenStat to trust.
		if gobsnap.OldEnough(head.ModTime) {
			var body bytes.Buffer
			enc := gob.NewEncoder(&body)
			ok := true
			for i := range entries {
				ok = ok && enc.Encode(entries[i]) == nil
			}
			if ok {
				head.N = len(entries)
				_ = gobsnap.Write(snap, head, body.Bytes())
			}
		}
		return eachEntry(entries, fn)
	case found: // this file's rows do not survive gob (lossless): plain JSON
		return eachRow(path, "", fn)
	}
	var body bytes.Buffer
	enc := gob.NewEncoder(&body)
	keep := true // false once a row cannot be encoded
	err = eachLine(name, bytes.NewReader(data), func(line int, b []byte) error {
		var row T
		if err := decodeLine(name, line, b, &row); err != nil {
			return err
		}
		if keep && enc.Encode(entry(line, row)) != nil {
			keep = false
		}
		head.N++
		return fn(line, &row)
	})
	if err != nil {
		return err
	}
	if !keep || !lossless[T](name, data, body.Bytes(), head.N) {
		head.N, body = unsnapshottable, bytes.Buffer{} // say so, so later loads skip the attempt
	}
	_ = gobsnap.Write(snap, head, body.Bytes()) // a snapshot that cannot be written is skipped
	return nil
}

// lossless reports whether the n encoded entries decode to exactly what
// JSON decoding of data gives (reflect.DeepEqual, line by line). gob does
// not keep every distinction JSON makes (an empty slice comes back nil, a
// pointer to a zero value comes back nil, some interface values cannot be
// sent), so a file whose rows it would change gets no snapshot.
func lossless[T any](name string, data, body []byte, n int) bool {
	dec := gob.NewDecoder(bytes.NewReader(body))
	i := 0
	err := eachLine(name, bytes.NewReader(data), func(line int, b []byte) error {
		var want T
		if err := decodeLine(name, line, b, &want); err != nil {
			return err
		}
		var got snapEntry[T]
		if err := dec.Decode(&got); err != nil {
			return err
		}
		if !got.restore() {
			return fmt.Errorf("line %d: bad empty-slice list", line)
		}
		if got.Line != line || !reflect.DeepEqual(got.Row, want) {
			return fmt.Errorf("line %d changes through gob", line)
		}
		i++
		return nil
	})
	return err == nil && i == n
}

// unsnapshottable is the header's N for a file whose rows gob would change.
const unsnapshottable = -1

// readSnapshot returns the snapshot's entries when it matches want (schema
// and checksums), or found with no entries when the snapshot says the file
// cannot be kept; any mismatch or decoding error returns found false, before
// any row is used. A row count the source cannot hold (negative, or more
// than its maxRows lines) is a damaged header: found false, nothing
// allocated by it.
func readSnapshot[T any](path string, want gobsnap.Header, maxRows int) (entries []snapEntry[T], found bool) {
	head, dec, ok := gobsnap.Open(path, want)
	if !ok {
		return nil, false
	}
	if head.N == unsnapshottable {
		return nil, true
	}
	if head.N < 0 || head.N > maxRows {
		return nil, false
	}
	return decodeEntries[T](dec, head.N)
}

// decodeEntries decodes n entries (n bounded by the caller).
func decodeEntries[T any](dec *gob.Decoder, n int) ([]snapEntry[T], bool) {
	entries := make([]snapEntry[T], n)
	for i := range entries {
		if err := dec.Decode(&entries[i]); err != nil || !entries[i].restore() {
			return nil, false
		}
	}
	return entries, true
}

// eachEntry calls fn with each entry's row, in order.
func eachEntry[T any](entries []snapEntry[T], fn func(line int, row *T) error) error {
	for i := range entries {
		if err := fn(entries[i].Line, &entries[i].Row); err != nil {
			return err
		}
	}
	return nil
}

// snapPath names the snapshot of path in dir: its base name and a hash of
// its absolute path, so two benchmarks' files of one name do not collide.
func snapPath(dir, path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	h := sha256.Sum256([]byte(abs))
	return filepath.Join(dir, hex.EncodeToString(h[:6])+"-"+filepath.Base(path)+".gob")
}
