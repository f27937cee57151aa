//go:build darwin || freebsd

package mapfile

// prefault: only Linux makes a range's pages present in one call; elsewhere
// they fault in as they are written.
func prefault([]byte) {}
