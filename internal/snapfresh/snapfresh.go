// Package snapfresh says whether a snapshot still stands for what it was
// made from: the type its values were decoded as (Schema), and the source
// file, by its stat (StatTrusted) when that can be trusted, as git trusts
// its index. A caller that cannot trust the stat hashes the source instead.
//
// Users: esr/bench (a loaded benchmark's snapshot), internal/flatsnap and
// esr/lab (a suite's cached outcome rows, their seal and snapshot).
package snapfresh

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"time"
)

// Granularity is how long before its snapshot a source must have been last
// changed for StatTrusted to trust its stat: a file rewritten with the same
// size within one tick of the clock keeps its times (git's "racily clean"
// rule).
const Granularity = time.Second

// Stamp is what a file's stat says of its bytes without reading them: its
// size, modification time, status-change time (ctime) and inode number
// (times in Unix nanoseconds, 0 for unknown). A user can give a changed file
// back its size and modification time (cp -p, touch -r, an archive, a
// network file system), not its ctime: a write, a rename or a chmod sets it
// to the clock's now, and a file put in place of another has a new inode.
// make compares modification times only; git's index, like this, all four.
type Stamp struct {
	Size, ModTime, Change, Inode int64
}

// StampOf is fi's stamp; Change and Inode are 0 where the system's stat
// does not give them (statChange), and StatTrusted then never trusts it.
func StampOf(fi os.FileInfo) Stamp {
	s := Stamp{Size: fi.Size(), ModTime: fi.ModTime().UnixNano()}
	s.Change, s.Inode = statChange(fi)
	return s
}

// StatTrusted reports whether a snapshot (its file's stat, snap) made from
// a source stamped was may be trusted for the source as it is now (its
// stat, src) without reading it: every field of the stamp is known and
// unchanged, and the source was last modified and last changed more than
// Granularity before the snapshot was written. A source given back its
// bytes' length and both times within one tick of the clock is not told
// apart, as git does not tell it.
func StatTrusted(src, snap os.FileInfo, was Stamp) bool {
	if src == nil || snap == nil || !was.known() || StampOf(src) != was {
		return false
	}
	before := snap.ModTime().Add(-Granularity).UnixNano()
	return was.ModTime < before && was.Change < before
}

// known reports whether s has both times (a stamp from a system without
// ctime, or from a snapshot written before stamps had it, has not).
func (s Stamp) known() bool { return s.ModTime != 0 && s.Change != 0 }

// OldEnough reports whether a source stamped s was last modified and last
// changed more than Granularity ago, so that a snapshot of it written now
// will be trusted by its stat (StatTrusted).
func OldEnough(s Stamp) bool {
	before := time.Now().Add(-Granularity).UnixNano()
	return s.known() && s.ModTime < before && s.Change < before
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
