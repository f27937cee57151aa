// Package flatsnap keeps snapshots of slices of flat structs (every field a
// string, a bool, an integer or a value that writes and reads itself as
// text) decoded from a source file, to be read back
// far faster than the source decodes: a notebook cell (GoNB reruns the
// globals in every cell) reads a suite's 100,000 cached rows in a tenth of
// the time a gob snapshot took (BenchmarkRead).
//
// The snapshot is column-wise with every distinct string stored once: the
// strings are one block of the bytes read, viewed as a single Go string
// without a copy, and each field of each row is a substring of it, so
// decoding allocates the rows and little else. The bytes read are the
// process's own copy of the file (mapfile), so the rows do not change, nor
// fault, when the snapshot is later rewritten in place or truncated. Only a
// regular file is read, as a snapshot or as a source: a FIFO or a device is
// a miss, not a hang.
//
// A snapshot is used only for the source it was made from. It records the
// source's SHA-256 and stamp (snapfresh.Stamp: size, modification and
// change times, inode); while the stamp is the one recorded, the source is
// not read again (as git trusts its index). The stamp is trusted only when
// the source was last changed more than snapfresh.Granularity before the
// snapshot was written (git's "racily clean" rule): a file rewritten with
// the same size within one tick of the clock keeps its times, so a source
// written just before its snapshot is hashed on every read until a read
// rewrites the snapshot. When the stamp differs, the source is hashed and
// the snapshot is used only if the hash matches. The body carries a CRC-32C, so a damaged snapshot is
// not read, and the header names the struct's fields (snapfresh.Schema), so a
// snapshot of another version of the type is not read either.
//
// The source stays the record: a missing, stale or unreadable snapshot
// makes Read report false and the caller decodes the source.
package flatsnap

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"unsafe"

	"github.com/esrkit/esrkit/internal/mapfile"
	"github.com/esrkit/esrkit/internal/regfile"
	"github.com/esrkit/esrkit/internal/safefile"
	"github.com/esrkit/esrkit/internal/snapfresh"
)

// magic opens every snapshot; the digit is the format's version.
const magic = "esrkit flatsnap 1\n"

// Source describes the bytes a snapshot was made from.
type Source struct {
	Sum [32]byte // SHA-256 of the bytes
	// Stamp is the file's stat when it was read; its Size is the bytes'
	// length.
	snapfresh.Stamp
}

// ReadSource reads the regular file at path and describes it (a FIFO or a
// device is an error wrapping regfile.ErrNotRegular). ok is false when the
// file changed while it was read (its stat differs before and after): the
// data is still returned, but it must not be snapshotted.
func ReadSource(path string) (data []byte, src Source, ok bool, err error) {
	f, before, err := regfile.Open(path)
	if err != nil {
		return nil, Source{}, false, err
	}
	defer f.Close()
	data, err = io.ReadAll(f)
	if err != nil {
		return nil, Source{}, false, err
	}
	after, err := os.Stat(path)
	stamp := snapfresh.StampOf(before)
	ok = err == nil && snapfresh.StampOf(after) == stamp && int64(len(data)) == before.Size()
	stamp.Size = int64(len(data))
	return data, Source{Sum: sha256.Sum256(data), Stamp: stamp}, ok, nil
}

// header opens a snapshot, after magic.
type header struct {
	Schema  string // snapfresh.Schema of the row type
	Source  Source
	N       int    // rows
	Strings int    // distinct strings
	Body    int    // bytes of the body that follows
	CRC     uint32 // CRC-32C (Castagnoli) of the body
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrUnsupported is returned by Write for a type that is not a struct of
// string, bool, integer and text fields.
var ErrUnsupported = errors.New("flatsnap: not a struct of string, bool, integer and text fields")

// textKind marks a text field: a value that is an encoding.TextMarshaler
// and whose pointer is an encoding.TextUnmarshaler (a typed identity such
// as a memory spec). It is stored as its text, like a string, and read
// back once per distinct text.
const textKind = reflect.Interface

var (
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// fields lists t's fields, or fails for a type flatsnap does not store.
func fields(t reflect.Type) ([]reflect.Kind, error) {
	if t.Kind() != reflect.Struct {
		return nil, ErrUnsupported
	}
	kinds := make([]reflect.Kind, t.NumField())
	for i := range kinds {
		f := t.Field(i)
		if !f.IsExported() {
			return nil, fmt.Errorf("%w: field %s is unexported", ErrUnsupported, f.Name)
		}
		switch k := f.Type.Kind(); {
		case f.Type.Implements(textMarshaler) && reflect.PointerTo(f.Type).Implements(textUnmarshaler):
			kinds[i] = textKind
		case k == reflect.String, k == reflect.Bool, k == reflect.Int, k == reflect.Int8, k == reflect.Int16, k == reflect.Int32, k == reflect.Int64:
			kinds[i] = k
		default:
			return nil, fmt.Errorf("%w: field %s is a %s", ErrUnsupported, f.Name, f.Type)
		}
	}
	return kinds, nil
}

// Write writes a snapshot of rows, made from src, to path atomically
// (creating its folder).
func Write[T any](path string, src Source, rows []T) error {
	t := reflect.TypeFor[T]()
	kinds, err := fields(t)
	if err != nil {
		return err
	}
	// The string table: each distinct string once, numbered in order of
	// first use (so the same rows give the same bytes).
	index := map[string]uint64{}
	var lengths, blob, cols []byte
	rv := reflect.ValueOf(rows)
	for f, k := range kinds {
		for i := range len(rows) {
			v := rv.Index(i).Field(f)
			switch k {
			case reflect.String, textKind:
				s := ""
				if k == textKind {
					b, err := v.Interface().(encoding.TextMarshaler).MarshalText()
					if err != nil {
						return err
					}
					s = string(b)
				} else {
					s = v.String()
				}
				id, ok := index[s]
				if !ok {
					id = uint64(len(index))
					index[s] = id
					lengths = binary.AppendUvarint(lengths, uint64(len(s)))
					blob = append(blob, s...)
				}
				cols = binary.AppendUvarint(cols, id)
			case reflect.Bool:
				b := uint64(0)
				if v.Bool() {
					b = 1
				}
				cols = binary.AppendUvarint(cols, b)
			default:
				cols = binary.AppendVarint(cols, v.Int())
			}
		}
	}
	body := make([]byte, 0, len(lengths)+len(cols)+len(blob))
	body = append(append(append(body, lengths...), cols...), blob...)
	h := header{Schema: snapfresh.Schema(t), Source: src, N: len(rows), Strings: len(index), Body: len(body),
		CRC: crc32.Checksum(body, castagnoli)}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return safefile.Write(path, 0o644, func(w io.Writer) error {
		if _, err := io.WriteString(w, magic); err != nil {
			return err
		}
		if err := gob.NewEncoder(w).Encode(h); err != nil {
			return err
		}
		_, err := w.Write(body)
		return err
	})
}

// Read returns the rows of the snapshot at path when it was made from the
// file at source as it is now (see the package comment), else ok false.
// hashed is nil when the source's stat was trusted; otherwise the source
// was read and hashed to tell, and hashed describes it as read (nil too if
// it changed while read): the caller may Write the snapshot again with it,
// so that later reads skip the hash.
func Read[T any](path, source string) (rows []T, hashed *Source, ok bool) {
	t := reflect.TypeFor[T]()
	kinds, err := fields(t)
	if err != nil {
		return nil, nil, false
	}
	// The rows' strings view these bytes: mapfile's copy, which nothing
	// changes or unmaps.
	data, err := mapfile.Read(path)
	if err != nil || !bytes.HasPrefix(data, []byte(magic)) {
		return nil, nil, false
	}
	r := bytes.NewReader(data[len(magic):])
	var h header
	if gob.NewDecoder(r).Decode(&h) != nil || h.Schema != snapfresh.Schema(t) || r.Len() != h.Body || h.N < 0 || h.Strings < 0 {
		return nil, nil, false
	}
	body := data[len(data)-h.Body:]
	hashed, matches := sourceMatches(path, source, h.Source)
	if !matches || crc32.Checksum(body, castagnoli) != h.CRC {
		return nil, nil, false
	}
	rows, err = decode[T](body, h, kinds)
	if err != nil {
		return nil, nil, false
	}
	return rows, hashed, true
}

// sourceMatches reports whether the file at source holds the bytes src
// describes: by its stat when that can be trusted (snapfresh.StatTrusted;
// hashed nil), else by its hash (hashed the source as read, when it was
// stable while read).
func sourceMatches(snapPath, source string, src Source) (hashed *Source, matches bool) {
	st, err := os.Stat(source)
	if err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	if snap, err := os.Stat(snapPath); err == nil && snapfresh.StatTrusted(st, snap, src.Stamp) {
		return nil, true
	}
	_, now, stable, err := ReadSource(source)
	if err != nil || now.Sum != src.Sum || now.Size != src.Size {
		return nil, false
	}
	if stable {
		hashed = &now
	}
	return hashed, true
}

// decode reads rows from a snapshot's body.
func decode[T any](body []byte, h header, kinds []reflect.Kind) ([]T, error) {
	bad := errors.New("flatsnap: damaged body")
	// Each value takes at least one byte: bound the counts by the body
	// before allocating by them.
	if h.Strings > len(body) || (len(kinds) > 0 && h.N > len(body)/len(kinds)) {
		return nil, bad
	}
	pos := 0
	uvarint := func() (uint64, error) {
		v, n := binary.Uvarint(body[pos:])
		if n <= 0 {
			return 0, bad
		}
		pos += n
		return v, nil
	}
	lengths := make([]uint64, h.Strings)
	total := uint64(0)
	for i := range lengths {
		l, err := uvarint()
		if err != nil {
			return nil, err
		}
		lengths[i], total = l, total+l
	}
	colStart := pos
	// The columns end where the blob of strings begins.
	if total > uint64(len(body)-colStart) {
		return nil, bad
	}
	// The strings share the bytes read (mapfile's copy, which nothing
	// writes after the read): one string over them, no copy.
	var blob string
	if total > 0 {
		blob = unsafe.String(&body[len(body)-int(total)], int(total))
	}
	strs := make([]string, h.Strings)
	off := uint64(0)
	for i, l := range lengths {
		strs[i] = blob[off : off+l]
		off += l
	}
	end := len(body) - int(total)
	body = body[:end]
	// The columns follow one another: find where each begins (every value
	// is one varint), so that the rows can be filled one after the other.
	starts := make([]int, len(kinds))
	for f := range kinds {
		starts[f] = pos
		for range h.N {
			_, n := binary.Uvarint(body[pos:]) // a Varint is as long as its Uvarint
			if n <= 0 {
				return nil, bad
			}
			pos += n
		}
	}
	if pos != end {
		return nil, bad
	}
	rows := make([]T, h.N)
	if h.N == 0 {
		return rows, nil
	}
	// Each value is written in place, at its field's offset in its row,
	// row after row: through reflect.Value, or column after column, the
	// writes were most of a cell's read of a suite's rows (584-byte rows,
	// 50,700 of them for render-confound). fields has checked every kind.
	t := reflect.TypeFor[T]()
	type column struct {
		kind  reflect.Kind
		typ   reflect.Type
		off   uintptr
		size  uintptr
		texts map[uint64]reflect.Value // a text field's values, by string
	}
	cols := make([]column, len(kinds))
	for f, k := range kinds {
		field := t.Field(f)
		cols[f] = column{kind: k, typ: field.Type, off: field.Offset, size: field.Type.Size()}
		if k == textKind {
			cols[f].texts = map[uint64]reflect.Value{}
		}
	}
	base, size := unsafe.Pointer(&rows[0]), t.Size()
	for i := range h.N {
		row := unsafe.Add(base, uintptr(i)*size)
		for f := range cols {
			c := &cols[f]
			at := unsafe.Add(row, c.off)
			switch c.kind {
			case textKind:
				id, n := binary.Uvarint(body[starts[f]:])
				starts[f] += n
				if id >= uint64(len(strs)) {
					return nil, bad
				}
				x, ok := c.texts[id]
				if !ok {
					p := reflect.New(c.typ)
					if p.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(strs[id])) != nil {
						return nil, bad
					}
					x = p.Elem()
					c.texts[id] = x
				}
				reflect.NewAt(c.typ, at).Elem().Set(x)
			case reflect.String:
				id, n := binary.Uvarint(body[starts[f]:])
				starts[f] += n
				if id >= uint64(len(strs)) {
					return nil, bad
				}
				*(*string)(at) = strs[id]
			case reflect.Bool:
				b, n := binary.Uvarint(body[starts[f]:])
				starts[f] += n
				if b > 1 {
					return nil, bad
				}
				*(*bool)(at) = b == 1
			default:
				x, n := binary.Varint(body[starts[f]:])
				starts[f] += n
				switch c.size {
				case 1:
					if x != int64(int8(x)) {
						return nil, bad
					}
					*(*int8)(at) = int8(x)
				case 2:
					if x != int64(int16(x)) {
						return nil, bad
					}
					*(*int16)(at) = int16(x)
				case 4:
					if x != int64(int32(x)) {
						return nil, bad
					}
					*(*int32)(at) = int32(x)
				default:
					*(*int64)(at) = x
				}
			}
		}
	}
	return rows, nil
}
