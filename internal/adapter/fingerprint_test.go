package adapter_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/internal/adapter"
	"github.com/esrkit/esrkit/internal/regfile"
	"github.com/esrkit/esrkit/internal/regfile/regfiletest"
)

// helloNaming writes an adapter whose hello names files (JSON strings,
// quoted) and that answers every later request with no rows.
func helloNaming(t *testing.T, files string) string {
	answer := `{\"protocol\":\"esr-adapter/2\",\"id\":1,\"rows\":[],\"adapter\":{\"version\":\"v1\",\"files\":[` + files + `]}}`
	return script(t, "read l\necho \""+answer+"\"\nwhile read l; do echo '{\"protocol\":\"esr-adapter/2\",\"id\":2,\"rows\":[]}'; done\n")
}

// A file the hello names that is a FIFO, or a link to /dev/zero, is an
// error naming it, returned at once: opening the FIFO used to wait for a
// writer for ever (esr hung for over ten minutes), /dev/zero to be hashed
// until the byte budget ran out.
func TestFingerprintRefusesWhatIsNotARegularFile(t *testing.T) {
	defer adapter.CloseAll()
	dir := t.TempDir()
	fifo, zero := filepath.Join(dir, "pipe"), filepath.Join(dir, "zero")
	regfiletest.FIFO(t, fifo)
	regfiletest.ZeroLink(t, zero)
	for _, named := range []string{fifo, zero} {
		p := helloNaming(t, `\"`+named+`\"`)
		err := regfiletest.Within(t, 5*time.Second, func() error {
			_, _, err := adapter.Fingerprint(p)
			return err
		}, fifo)
		if !errors.Is(err, regfile.ErrNotRegular) || !strings.Contains(err.Error(), named) {
			t.Errorf("hello names %s: %v, want an error naming it as not a regular file", filepath.Base(named), err)
		}
	}
	// In a folder the hello names, such files are skipped, as links are.
	os.WriteFile(filepath.Join(dir, "impl.py"), []byte("print(1)\n"), 0o644)
	p := helloNaming(t, `\"`+dir+`\"`)
	err := regfiletest.Within(t, 5*time.Second, func() error {
		_, _, err := adapter.Fingerprint(p)
		return err
	}, fifo)
	if err != nil {
		t.Errorf("a folder holding a FIFO and a link to /dev/zero: %v", err)
	}
}

// Hashing the files the hello names is bounded by the adapter's Timeout,
// as its requests are: past it, Fingerprint fails saying so.
func TestFingerprintHashesWithinTheTimeout(t *testing.T) {
	defer adapter.CloseAll()
	defer func(d time.Duration) { adapter.Timeout = d }(adapter.Timeout)
	dir := t.TempDir()
	impl := filepath.Join(dir, "impl.py")
	os.WriteFile(impl, []byte("print(1)\n"), 0o644)
	p := helloNaming(t, `\"`+impl+`\"`)
	if _, _, err := adapter.Describe(p); err != nil { // asked once, within the usual timeout
		t.Fatal(err)
	}
	if _, _, err := adapter.Fingerprint(p); err != nil {
		t.Fatalf("within the timeout: %v", err)
	}
	adapter.Timeout = time.Nanosecond
	if _, _, err := adapter.Fingerprint(p); err == nil || !strings.Contains(err.Error(), "ESR_ADAPTER_TIMEOUT") {
		t.Errorf("hashing past the timeout: %v, want an error naming ESR_ADAPTER_TIMEOUT", err)
	}
}
