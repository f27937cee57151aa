package bench

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// maxLine bounds one JSONL line (a long stream with all its events).
const maxLine = 64 << 20

// eachLine calls fn with the 1-based number and bytes of every non-blank line
// of r, stopping at the first error.
func eachLine(name string, r io.Reader, fn func(line int, data []byte) error) error {
	br := bufio.NewReaderSize(r, 1<<20)
	for n := 1; ; n++ {
		data, err := br.ReadBytes('\n')
		if len(data) > maxLine {
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

// readFile opens path and runs eachLine over it.
func readFile(path string, fn func(line int, data []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return eachLine(filepath.Base(path), f, fn)
}
