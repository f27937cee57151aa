package mapfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/esrkit/esrkit/internal/regfile"
	"github.com/esrkit/esrkit/internal/regfile/regfiletest"
)

// content is n deterministic bytes.
func content(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*31) + seed
	}
	return b
}

// Read returns the file's bytes whatever its size: empty, below minMapped
// (read into the heap), at and above it (copied into a mapping of its own
// where the platform maps).
func TestReadEqualsReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, minMapped - 1, minMapped, minMapped + 1, 3 << 20} {
		path := filepath.Join(dir, fmt.Sprint(n))
		want := content(n, 7)
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Read(path)
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%d bytes: Read differs from what was written", n)
		}
	}
	if _, err := Read(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("a missing file: err %v, want not-exist", err)
	}
}

// Rereading an unchanged file shares its copy; a file replaced by a
// rename (as safefile writes) is a new version and reads its new bytes,
// while the bytes read before stay valid.
func TestReadFollowsRenames(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("mappings are shared on Linux, darwin and freebsd; this test runs where CI runs")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "snap")
	first := content(minMapped*2, 1)
	os.WriteFile(path, first, 0o644)
	a, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Read(path)
	if &a[0] != &b[0] {
		t.Error("two reads of an unchanged file copied it twice")
	}
	second := content(minMapped*2, 2)
	tmp := filepath.Join(dir, "tmp")
	os.WriteFile(tmp, second, 0o644)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	c, _ := Read(path)
	if !bytes.Equal(c, second) {
		t.Error("after a rename onto the path, Read returned the old bytes")
	}
	if !bytes.Equal(a, first) {
		t.Error("the bytes read before the rename changed")
	}
}

// The bytes are read-only: writing to them faults (here turned into
// a panic), so a caller that breaks the rule finds out at once.
func TestReadMappedIsReadOnly(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("read-only mappings are checked on Linux, where CI runs")
	}
	path := filepath.Join(t.TempDir(), "snap")
	os.WriteFile(path, content(minMapped, 3), 0o644)
	data, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	faulted := func() (f bool) {
		defer func() { f = recover() != nil }()
		data[0]++
		return false
	}()
	if !faulted {
		t.Error("writing to the bytes Read returned did not fault")
	}
}

// faults reports whether reading every byte of data faults (a SIGBUS from
// a mapped file that lost its pages), turned into a panic and recovered so
// that the test fails instead of the process dying.
func faults(data []byte) (faulted bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() { faulted = recover() != nil }()
	sum := 0
	for _, b := range data {
		sum += int(b)
	}
	return sum < 0
}

// The bytes Read returned do not change, nor fault, when the file is then
// truncated or rewritten in place with the same size: they are the
// process's own copy, not a view of the file.
func TestReadBytesOutliveChangesInPlace(t *testing.T) {
	dir := t.TempDir()
	for _, change := range []string{"truncate", "rewrite"} {
		path := filepath.Join(dir, change)
		want := content(minMapped*4, 9)
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		if change == "truncate" {
			err = os.Truncate(path, 0)
		} else {
			err = rewriteInPlace(path, content(minMapped*4, 200))
		}
		if err != nil {
			t.Fatal(err)
		}
		if faults(got) {
			t.Errorf("%s: reading the bytes after the file changed faulted", change)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the bytes read before the file changed in place changed with it", change)
		}
	}
}

// rewriteInPlace writes data over the file at path from its start, without
// truncating or renaming (the same inode, the same size).
func rewriteInPlace(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// A FIFO, a link to /dev/zero and a file over MaxSize are errors, returned
// at once: opening a FIFO for reading used to wait for a writer forever,
// and /dev/zero never ends.
func TestReadRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo, zero := filepath.Join(dir, "fifo"), filepath.Join(dir, "zero")
	regfiletest.FIFO(t, fifo)
	regfiletest.ZeroLink(t, zero)
	for _, p := range []string{fifo, zero} {
		err := regfiletest.Within(t, 5*time.Second, func() error {
			_, err := Read(p)
			return err
		}, fifo)
		if !errors.Is(err, regfile.ErrNotRegular) {
			t.Errorf("%s: %v, want ErrNotRegular", filepath.Base(p), err)
		}
	}
	big := filepath.Join(dir, "big")
	f, _ := os.Create(big)
	f.Truncate(MaxSize + 1) // sparse: no disk used
	f.Close()
	if _, err := Read(big); !errors.Is(err, regfile.ErrTooLarge) {
		t.Errorf("a file over MaxSize: %v, want ErrTooLarge", err)
	}
}

// helperEnv makes the test binary a child that reads one file and exits
// (BenchmarkReadNewProcess).
const helperEnv = "MAPFILE_HELPER_READ"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helperRead(mode, os.Args[len(os.Args)-1]))
	}
	os.Exit(m.Run())
}

// helperRead reads path the way mode says and touches every page, as a
// decoder would.
func helperRead(mode, path string) int {
	var data []byte
	var err error
	if mode == "mapfile" {
		data, err = Read(path)
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		return 1
	}
	sum := 0
	for i := 0; i < len(data); i += 4096 {
		sum += int(data[i])
	}
	if sum < 0 {
		return 2
	}
	return 0
}

// BenchmarkReadNewProcess reads a 14 MB file (the size of the synthetic
// suite's row snapshot) in a new process, as a notebook cell does: the
// baseline os.ReadFile copies it into a fresh heap, a page fault per 4 KiB;
// Read copies it into a mapping of its own whose pages it asks for at
// once. Each iteration starts the test binary once, so both include the
// same process start.
//
//	go test ./internal/mapfile -run '^$' -bench ReadNewProcess
func BenchmarkReadNewProcess(b *testing.B) {
	path := filepath.Join(b.TempDir(), "snap")
	if err := os.WriteFile(path, content(14<<20, 5), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"readfile", "mapfile"} {
		b.Run(mode, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(os.Args[0], "-test.run=^$", path)
				cmd.Env = append(os.Environ(), helperEnv+"="+mode)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
			}
		})
	}
}
