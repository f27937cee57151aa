//go:build linux || darwin || freebsd

package mapfile

import (
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
	mu   sync.Mutex
	maps = map[key][]byte{}
)

// mapped maps f (st its stat) read-only, reusing an earlier mapping of the
// same version of the file; ok is false when it cannot be mapped.
func mapped(f *os.File, st os.FileInfo) ([]byte, bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return nil, false
	}
	k := key{uint64(sys.Dev), uint64(sys.Ino), st.Size(), st.ModTime().UnixNano()}
	mu.Lock()
	defer mu.Unlock()
	if data, ok := maps[k]; ok {
		return data, true
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_PRIVATE|populate)
	if err != nil {
		return nil, false
	}
	maps[k] = data
	return data, true
}
