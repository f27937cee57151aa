//go:build linux || darwin || freebsd

package mapfile

import (
	"fmt"
	"os"
	"sync"
	"syscall"
)

// key names one version of a file: a rename onto the path gives another
// inode, a rewrite in place another size or time.
type key struct {
	dev, ino uint64
	size     int64
	mtime    int64
}

var (
	mu     sync.Mutex
	copies = map[key][]byte{}
)

// copied reads f (st its stat) into an anonymous mapping made read-only
// once filled, reusing an earlier copy of the same version of the file.
// ok is false when no mapping can be made (the caller reads into the
// heap); err is set when the file changed while it was read.
func copied(f *os.File, st os.FileInfo) (data []byte, ok bool, err error) {
	sys, isStat := st.Sys().(*syscall.Stat_t)
	if !isStat {
		return nil, false, nil
	}
	k := key{uint64(sys.Dev), uint64(sys.Ino), st.Size(), st.ModTime().UnixNano()}
	mu.Lock()
	defer mu.Unlock()
	if data, ok := copies[k]; ok {
		return data, true, nil
	}
	n := int(st.Size())
	data, err = syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return nil, false, nil
	}
	prefault(data)
	// A file truncated, grown or rewritten while read gives a short read
	// or another stat: an error (the caller's snapshot is a miss), not a
	// mix of two versions kept for good.
	got, rerr := f.ReadAt(data, 0)
	after, serr := f.Stat()
	if rerr != nil || got != n || serr != nil || after.Size() != st.Size() || !after.ModTime().Equal(st.ModTime()) {
		syscall.Munmap(data)
		return nil, true, fmt.Errorf("%s: changed while read", f.Name())
	}
	if syscall.Mprotect(data, syscall.PROT_READ) != nil {
		syscall.Munmap(data)
		return nil, false, nil
	}
	copies[k] = data
	return data, true, nil
}
