//go:build !(linux || darwin || freebsd)

package mapfile

import "os"

// mapped: this platform's files are read with os.ReadFile.
func mapped(*os.File, os.FileInfo) ([]byte, bool) { return nil, false }
