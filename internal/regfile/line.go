package regfile

import (
	"bufio"
	"bytes"
	"errors"
)

// MaxLine bounds one line of the kit's JSON-lines files (a long stream
// with all its events, one outcome row).
const MaxLine = 64 << 20

// ErrLineTooLong is ReadLine's error for a line past its bound.
var ErrLineTooLong = errors.New("line too long")

// ReadLine reads one line, with its newline, into a slice of its own (as
// bufio.Reader.ReadBytes does, errors alike), or fails with ErrLineTooLong
// once the line passes max bytes, having read no more than max plus one
// buffer of it: an endless line (a file linked to /dev/zero, a sparse
// file) ends in an error, not in memory exhausted. The pieces of a long
// line are kept apart and joined once at its end, so a line of n bytes
// allocates about 2n, never append's regrowths.
func ReadLine(r *bufio.Reader, max int) ([]byte, error) {
	var pieces [][]byte
	total := 0
	for {
		frag, err := r.ReadSlice('\n')
		if total += len(frag); total > max {
			return nil, ErrLineTooLong
		}
		if err != bufio.ErrBufferFull {
			if pieces == nil {
				return bytes.Clone(frag), err
			}
			line := make([]byte, 0, total)
			for _, p := range pieces {
				line = append(line, p...)
			}
			return append(line, frag...), err
		}
		pieces = append(pieces, bytes.Clone(frag))
	}
}
