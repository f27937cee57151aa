// Package mapfile reads a file's bytes by mapping it read-only into memory,
// for the caches a notebook cell reads in every cell (GoNB reruns a
// notebook's globals each time): a 14 MB snapshot read with os.ReadFile
// into a new process's heap costs a page fault per 4 KiB page (65–88 ms on
// the 2-core machine of 2026-12-05), mapped with MAP_POPULATE 7 ms
// (BenchmarkRead measures both in one run).
//
// The bytes must not be written to (the pages are read-only: a write
// faults), and they stay mapped for the life of the process, since strings
// decoded from them may view them without a copy (flatsnap). Reads of a
// file that has not changed (same device, inode, size and time) share one
// mapping, so a long-running process that rereads its caches does not map
// them again. A file must be replaced by renaming a new one onto it
// (safefile.Write), never rewritten in place: truncating a mapped file
// makes reading its lost pages fail with SIGBUS.
//
// Small files, empty files and platforms without mmap are read with
// os.ReadFile.
package mapfile

import "os"

// minMapped is the smallest file Read maps: below it, reading is as cheap
// as mapping and leaves no mapping behind.
const minMapped = 256 << 10

// Read returns the contents of the file at path, mapped read-only when the
// platform allows and the file is at least minMapped bytes long, else read
// with os.ReadFile. The bytes must not be modified.
func Read(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() < minMapped || int64(int(st.Size())) != st.Size() {
		return os.ReadFile(path)
	}
	if data, ok := mapped(f, st); ok {
		return data, nil
	}
	return os.ReadFile(path)
}
