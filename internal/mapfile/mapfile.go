// Package mapfile reads a file's bytes into memory of the process's own,
// for the caches a notebook cell reads in every cell (GoNB reruns a
// notebook's globals each time): a 14 MB snapshot read with os.ReadFile
// into a new process's heap costs a page fault per 4 KiB page; copied into
// one anonymous mapping whose pages are made present in a single call
// (huge pages where the kernel gives them) it costs a fifth of that
// (BenchmarkReadNewProcess on the 2-core machine of 2026-12-05: 118–153 ms
// against 23–28 ms, process start included).
//
// The bytes are a copy, never a view of the file: strings decoded from
// them may view them without a copy (flatsnap), and a file mapped in place
// (as this package did, 14–18 ms in the same runs) changes under those
// strings when rewritten in place and faults (SIGBUS) when truncated. The copy is read-only (a write faults) and stays
// for the life of the process. Reads of a file that has not changed (same
// device, inode, size and time) share one copy, so a long-running process
// that rereads its caches does not copy them again.
//
// Only regular files are read (regfile): a FIFO or a device is an error,
// not a hang, and so is a file larger than MaxSize. Small files and
// platforms without mmap are read into the Go heap.
package mapfile

import (
	"fmt"

	"github.com/esrkit/esrkit/internal/regfile"
)

// minMapped is the smallest file Read copies into a mapping of its own:
// below it, the Go heap is as cheap and is given back when unused.
const minMapped = 256 << 10

// MaxSize bounds the files Read reads (1 GiB; a suite's 100,000-row
// snapshot is 14 MB): a larger one is an error wrapping regfile.ErrTooLarge.
const MaxSize = 1 << 30

// Read returns the contents of the regular file at path, at most MaxSize
// bytes. The bytes must not be modified.
func Read(path string) ([]byte, error) {
	f, st, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > MaxSize {
		return nil, fmt.Errorf("%s: %w (%d bytes, more than %d)", path, regfile.ErrTooLarge, st.Size(), MaxSize)
	}
	if st.Size() >= minMapped {
		if data, ok, err := copied(f, st); ok {
			return data, err
		}
	}
	return regfile.ReadAll(f, st, path, MaxSize)
}
