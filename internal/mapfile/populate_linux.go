package mapfile

import "golang.org/x/sys/unix"

// prefault asks Linux for every page of b at once, as huge pages where it
// can (one call instead of a fault per 4 KiB page). Either may fail on an
// older kernel; the pages then fault in as they are written.
func prefault(b []byte) {
	_ = unix.Madvise(b, unix.MADV_HUGEPAGE)
	_ = unix.Madvise(b, unix.MADV_POPULATE_WRITE)
}
