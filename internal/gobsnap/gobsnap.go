// Package gobsnap keeps gob snapshots of what was decoded from a source
// file (JSON lines, here), to be read back faster than the source decodes.
// A snapshot opens with a Header naming the source's exact bytes (SHA-256),
// the decoded type's fields (Schema) and the exact bytes of the values that
// follow (Body, SHA-256); it is used only while all three match, so it never
// outlives its source or a change to the type, and a snapshot whose values
// were changed (a damaged or edited file) is not read. The header's count
// N is the caller's: it must check N against what the source can hold
// before it allocates by it. The source stays
// the record: a snapshot that is missing, stale or unreadable is decoded
// afresh by the caller, and one that cannot be written is skipped.
//
// Users: esr/bench (LoadOptions.Snapshots: a benchmark's rows) and
// esr/lab (a suite's cached outcome rows).
package gobsnap

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/esrkit/esrkit/internal/mapfile"
	"github.com/esrkit/esrkit/internal/safefile"
)

// Header opens a snapshot.
type Header struct {
	Schema string   // Schema of the decoded type
	Sum    [32]byte // SHA-256 of the source file
	N      int      // how many values follow (the caller's count, or a marker of its own)
	Body   [32]byte // SHA-256 of the values' bytes (set by Write)
	// Size and ModTime are the source file's size and modification time
	// (Unix nanoseconds) when it was read, or 0 when unknown: OpenStat
	// trusts them in place of Sum.
	Size, ModTime int64
}

// Granularity is how long before its snapshot a source must have been last
// written for OpenStat to trust its modification time: a file rewritten
// with the same size within one tick of the clock keeps its time (git's
// "racily clean" rule).
const Granularity = time.Second

// Stamp sets head's Size and ModTime from the source's stat before it was
// read (before) and after (after); they stay 0, so OpenStat never trusts
// them, when the file changed in between.
func (head *Header) Stamp(before, after os.FileInfo) {
	if before == nil || after == nil || before.Size() != after.Size() || !before.ModTime().Equal(after.ModTime()) {
		return
	}
	head.Size, head.ModTime = before.Size(), before.ModTime().UnixNano()
}

// For is the header of a snapshot of source bytes data decoded as T (N 0).
func For[T any](data []byte) Header {
	return Header{Schema: Schema(reflect.TypeFor[T]()), Sum: sha256.Sum256(data)}
}

// Open reads the snapshot at path and, when its header has want's Schema
// and Sum and the values that follow it hash to its Body, returns that
// header and a decoder positioned at the values; ok is false for a missing,
// unreadable, stale or changed snapshot.
func Open(path string, want Header) (head Header, values *gob.Decoder, ok bool) {
	data, err := mapfile.Read(path)
	if err != nil {
		return Header{}, nil, false
	}
	// The header and the values are two gob streams, one after the other:
	// one bytes.Reader (an io.ByteReader, which gob reads without buffering
	// ahead) serves both decoders.
	r := bytes.NewReader(data)
	if err := gob.NewDecoder(r).Decode(&head); err != nil || head.Schema != want.Schema || head.Sum != want.Sum {
		return Header{}, nil, false
	}
	if sha256.Sum256(data[len(data)-r.Len():]) != head.Body {
		return Header{}, nil, false
	}
	return head, gob.NewDecoder(r), true
}

// StatTrusted reports whether a snapshot (its file's stat, snap) made from
// a source of size bytes last written at modTime (Unix nanoseconds; 0 for
// unknown) may be trusted for the source as it is now (its stat, src)
// without reading it: the size and time are unchanged and the source was
// last written more than Granularity before the snapshot.
func StatTrusted(src, snap os.FileInfo, size, modTime int64) bool {
	return src != nil && snap != nil && modTime != 0 && src.Size() == size && src.ModTime().UnixNano() == modTime &&
		modTime < snap.ModTime().Add(-Granularity).UnixNano()
}

// OldEnough reports whether a source last written at modTime (Unix
// nanoseconds; 0 for unknown) is older than Granularity, so that a snapshot
// of it written now will be trusted by its stat (StatTrusted).
func OldEnough(modTime int64) bool {
	return modTime != 0 && modTime < time.Now().Add(-Granularity).UnixNano()
}

// OpenStat is Open without reading the source: the snapshot at path is
// used when its header has schema and names the source's current size and
// modification time (src, its stat), and the source was last written more
// than Granularity before the snapshot was. A source rewritten since with
// another size or time fails it (the caller then reads and hashes the
// source, and uses Open); one rewritten with the same size and the same
// nanosecond time is not told apart, as make and git do not tell it.
func OpenStat(path, schema string, src os.FileInfo) (head Header, values *gob.Decoder, ok bool) {
	snap, err := os.Stat(path)
	if err != nil || src == nil {
		return Header{}, nil, false
	}
	data, err := mapfile.Read(path)
	if err != nil {
		return Header{}, nil, false
	}
	r := bytes.NewReader(data)
	if err := gob.NewDecoder(r).Decode(&head); err != nil || head.Schema != schema || !StatTrusted(src, snap, head.Size, head.ModTime) {
		return Header{}, nil, false
	}
	if sha256.Sum256(data[len(data)-r.Len():]) != head.Body {
		return Header{}, nil, false
	}
	return head, gob.NewDecoder(r), true
}

// Write writes head, with Body set to the SHA-256 of values, and then values
// (gob values written by one encoder) to path atomically, creating its
// folder.
func Write(path string, head Header, values []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	head.Body = sha256.Sum256(values)
	return safefile.Write(path, 0o644, func(w io.Writer) error {
		if err := gob.NewEncoder(w).Encode(head); err != nil {
			return err
		}
		_, err := w.Write(values)
		return err
	})
}

// Schema lists t's fields, recursively (names, types, struct tags), so a
// snapshot written by a build whose types differ is not read.
func Schema(t reflect.Type) string {
	var b strings.Builder
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		fmt.Fprintf(&b, "%s{", t)
		if seen[t] {
			b.WriteString("…}")
			return
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			if t.Kind() == reflect.Map {
				walk(t.Key())
			}
			walk(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				f := t.Field(i)
				fmt.Fprintf(&b, "%s %q:", f.Name, f.Tag)
				walk(f.Type)
				b.WriteByte(';')
			}
		}
		b.WriteByte('}')
	}
	walk(t)
	return b.String()
}
