package regfile_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/esrkit/esrkit/internal/regfile"
	"github.com/esrkit/esrkit/internal/regfile/regfiletest"
)

// A regular file reads whole; one over the bound, a FIFO, a link to
// /dev/zero and a folder are errors, returned at once.
func TestReadFileRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	os.WriteFile(plain, []byte("0123456789"), 0o644)
	if b, err := regfile.ReadFile(plain, 10); err != nil || !bytes.Equal(b, []byte("0123456789")) {
		t.Fatalf("a regular file: %q, %v", b, err)
	}
	if _, err := regfile.ReadFile(plain, 9); !errors.Is(err, regfile.ErrTooLarge) {
		t.Errorf("a file over the bound: %v, want ErrTooLarge", err)
	}
	fifo, zero := filepath.Join(dir, "fifo"), filepath.Join(dir, "zero")
	regfiletest.FIFO(t, fifo)
	regfiletest.ZeroLink(t, zero)
	for _, p := range []string{fifo, zero, dir} {
		err := regfiletest.Within(t, 5*time.Second, func() error {
			_, err := regfile.ReadFile(p, 1<<20)
			return err
		}, fifo)
		if !errors.Is(err, regfile.ErrNotRegular) {
			t.Errorf("%s: %v, want ErrNotRegular", filepath.Base(p), err)
		}
	}
}
