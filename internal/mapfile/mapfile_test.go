package mapfile

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
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
// (read), at and above it (mapped where the platform maps).
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

// Rereading an unchanged file shares its mapping; a file replaced by a
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
		t.Error("two reads of an unchanged file mapped it twice")
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

// The mapped bytes are read-only: writing to them faults (here turned into
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
		t.Error("writing to the mapped bytes did not fault")
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
// Read maps it. Each iteration starts the test binary once, so both
// include the same process start.
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
