//go:build linux || openbsd

package snapfresh

import (
	"os"
	"syscall"
)

// statChange is fi's ctime and inode number, from the system's stat.
func statChange(fi os.FileInfo) (change, inode int64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return st.Ctim.Nano(), int64(st.Ino)
}
