// Package regfile opens and reads files that must be regular files: the
// caches and snapshots the kit reads back, and the files an adapter's hello
// names. Opening a FIFO for reading blocks until something writes to it,
// and a device such as /dev/zero never ends, so a path swapped for either
// would hang the reader or exhaust its memory; here both are an error, and
// a read is bounded by a size the caller gives.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// ErrNotRegular is wrapped by the error for a path that is not a regular
// file (after symbolic links).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is wrapped by the error for a file larger than the bound.
var ErrTooLarge = errors.New("file too large")

// Open opens path for reading, refusing anything but a regular file. The
// open does not block (O_NONBLOCK, which then changes nothing for a
// regular file's reads), and the type is taken from the opened file, so a
// path swapped between a check and the open is still caught.
func Open(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, st.Mode().Type())
	}
	return f, st, nil
}

// ReadFile reads the regular file at path, at most max bytes: a larger
// file, or one that grows past max while read, is ErrTooLarge.
func ReadFile(path string, max int64) ([]byte, error) {
	f, st, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, st, path, max)
}

// ReadAll reads f (st its stat, name for errors), at most max bytes.
func ReadAll(f *os.File, st os.FileInfo, name string, max int64) ([]byte, error) {
	if st.Size() > max {
		return nil, fmt.Errorf("%s: %w (%d bytes, more than %d)", name, ErrTooLarge, st.Size(), max)
	}
	data := make([]byte, 0, st.Size()+1)
	data, err := readAppend(data, io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: %w (grew past %d bytes while read)", name, ErrTooLarge, max)
	}
	return data, nil
}

// readAppend appends everything r holds to b (io.ReadAll into b).
func readAppend(b []byte, r io.Reader) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}
