package debian_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/internal/debian"
	"github.com/esrkit/esrkit/internal/regfile"
	"github.com/esrkit/esrkit/internal/regfile/regfiletest"
)

// The importer reads only regular files: a package's changelog, copyright
// or SOURCE, or the package list, that is a FIFO (whose read used to wait
// for a writer forever) or a link to /dev/zero (read until memory ran out)
// is an error naming the file, returned at once.
func TestImportRefusesAFIFOOrADeviceAsAnInput(t *testing.T) {
	for _, file := range []string{debian.ChangelogFile, debian.CopyrightFile, debian.SourceFile, "packages.txt"} {
		for _, mk := range []func(testing.TB, string){regfiletest.FIFO, regfiletest.ZeroLink} {
			raw := copyTree(t, sampleRaw)
			list := filepath.Join(t.TempDir(), "packages.txt")
			if err := writeFile(list, "abseil\n"); err != nil {
				t.Fatal(err)
			}
			path := list
			if file != "packages.txt" {
				path = filepath.Join(raw, "abseil", file)
			}
			if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			mk(t, path)
			err := regfiletest.Within(t, 10*time.Second, func() error {
				_, err := debian.Import(raw, list, t.TempDir(), debian.Options{})
				return err
			}, path)
			if !errors.Is(err, regfile.ErrNotRegular) || !strings.Contains(err.Error(), file) {
				t.Errorf("%s: err = %v, want %s: not a regular file", file, err, file)
			}
		}
	}
}
