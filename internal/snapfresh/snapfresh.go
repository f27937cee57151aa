// Package snapfresh says whether a snapshot still stands for what it was
// made from: the type its values were decoded as (Schema), and the source
// file, by its stat (StatTrusted) when that can be trusted, as make and git
// trust a file's size and time. A caller that cannot trust the stat hashes
// the source instead.
//
// Users: esr/bench (a loaded benchmark's snapshot), internal/flatsnap and
// esr/lab (a suite's cached outcome rows).
package snapfresh

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"time"
)

// Granularity is how long before its snapshot a source must have been last
// written for StatTrusted to trust its modification time: a file rewritten
// with the same size within one tick of the clock keeps its time (git's
// "racily clean" rule).
const Granularity = time.Second

// StatTrusted reports whether a snapshot (its file's stat, snap) made from
// a source of size bytes last written at modTime (Unix nanoseconds; 0 for
// unknown) may be trusted for the source as it is now (its stat, src)
// without reading it: the size and time are unchanged and the source was
// last written more than Granularity before the snapshot. A source
// rewritten with the same size and the same nanosecond time is not told
// apart, as make and git do not tell it.
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
