package bench

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/esrkit/esrkit/internal/regfile"
)

// maxLine bounds one JSONL line (a long stream with all its events).
const maxLine = regfile.MaxLine

// eachLine calls fn with the 1-based number and bytes of every non-blank line
// of r, stopping at the first error. A line longer than maxLine is an error
// naming the file and line as soon as its bytes pass the bound: what is
// read of it is at most maxLine (so an endless line, such as a file linked
// to /dev/zero, ends in an error, not in memory exhausted).
func eachLine(name string, r io.Reader, fn func(line int, data []byte) error) error {
	br := bufio.NewReaderSize(r, 1<<20)
	for n := 1; ; n++ {
		data, err := regfile.ReadLine(br, maxLine)
		if errors.Is(err, regfile.ErrLineTooLong) {
			return &LineError{File: name, Line: n, Err: fmt.Errorf("line longer than %d bytes", maxLine)}
		}
		if t := bytes.TrimSpace(data); len(t) > 0 {
			if ferr := fn(n, t); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
}

// readFile opens path, which must be a regular file (a FIFO would block
// the open until something writes to it; a device such as /dev/zero never
// ends), and runs eachLine over it; sum is the SHA-256 of the bytes read
// (the whole file when err is nil).
func readFile(path string, fn func(line int, data []byte) error) (sum [32]byte, err error) {
	f, _, err := regfile.Open(path)
	if err != nil {
		return sum, err
	}
	defer f.Close()
	h := sha256.New()
	if err := eachLine(filepath.Base(path), io.TeeReader(f, h), fn); err != nil {
		return sum, err
	}
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// eachRow decodes every non-blank line of path into a T (decodeLine: errors
// name file, line and field) and calls fn with it, in file order, stopping
// at the first error: from pre[path] when the load read the file whole, else
// line by line from the file (a pipe or a device has no bound to read whole).
// sum is the SHA-256 of the bytes the rows were decoded from.
func eachRow[T any](path string, pre map[string][]byte, fn func(line int, row *T) error) (sum [32]byte, err error) {
	name := filepath.Base(path)
	each := func(line int, data []byte) error {
		var row T
		if err := decodeLine(name, line, data, &row); err != nil {
			return err
		}
		return fn(line, &row)
	}
	if data, ok := pre[path]; ok {
		return sha256.Sum256(data), eachLine(name, bytes.NewReader(data), each)
	}
	return readFile(path, each)
}
