package safefile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/esrkit/esrkit/internal/safefile"
)

// Target.Check: an output inside an input (through a link too), or an
// output folder holding an input, is refused; a folder is accepted when
// empty, marked by the same writer or recognised as an earlier output, and
// refused when another writer marked it; a file when empty or its own.
func TestTargetCheck(t *testing.T) {
	root := t.TempDir()
	bench := filepath.Join(root, "fig1")
	os.MkdirAll(bench, 0o755)
	os.WriteFile(filepath.Join(bench, "qa.jsonl"), []byte("{}\n"), 0o644)
	os.Symlink(bench, filepath.Join(root, "link"))
	in := []safefile.Input{{Flag: "--bench", Path: bench}}
	ours := func(h []byte) bool { return strings.HasPrefix(string(h), "OURS") }
	file := func(p string) safefile.Target {
		return safefile.Target{Flag: "--out", Path: p, Writer: "esr x", Inputs: in, Ours: ours}
	}
	dir := func(p string) safefile.Target {
		return safefile.Target{Flag: "--out", Path: p, Writer: "esr x", Inputs: in, Dir: true}
	}
	var inside *safefile.InsideError
	for _, tg := range []safefile.Target{file(filepath.Join(bench, "qa.jsonl")), file(filepath.Join(root, "link", "new.jsonl")),
		dir(bench), dir(root)} {
		if err := tg.Check(); !errors.As(err, &inside) || !errors.Is(err, safefile.ErrForeign) {
			t.Errorf("%s: %v, want an InsideError", tg.Path, err)
		}
	}
	mine := filepath.Join(root, "out.txt")
	os.WriteFile(mine, nil, 0o644)
	if err := file(mine).Check(); err != nil {
		t.Errorf("empty file: %v", err)
	}
	os.WriteFile(mine, []byte("OURS 1\n"), 0o644)
	if err := file(mine).Check(); err != nil {
		t.Errorf("own file: %v", err)
	}
	os.WriteFile(mine, []byte("thesis\n"), 0o644)
	if err := file(mine).Check(); !errors.Is(err, safefile.ErrForeign) || !strings.Contains(err.Error(), "remove it, or choose another --out") {
		t.Errorf("foreign file: %v", err)
	}
	out := filepath.Join(root, "out")
	if err := dir(out).Mark(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(out, "t.csv"), []byte("x"), 0o644)
	if err := dir(out).Check(); err != nil {
		t.Errorf("marked folder: %v", err)
	}
	other := dir(out)
	other.Writer = "esr y"
	if err := other.Check(); !errors.Is(err, safefile.ErrForeign) || !strings.Contains(err.Error(), "esr x wrote it") {
		t.Errorf("another writer's folder: %v", err)
	}
	os.Remove(filepath.Join(out, safefile.MarkerFile))
	if err := dir(out).Check(); !errors.Is(err, safefile.ErrForeign) || !strings.Contains(err.Error(), "t.csv") {
		t.Errorf("unmarked folder: %v", err)
	}
	legacy := dir(out)
	legacy.Legacy = func(string) bool { return true }
	legacy.Owned = func(n string, _ bool) bool { return strings.HasSuffix(n, ".md") }
	if err := legacy.Check(); err == nil || !strings.Contains(err.Error(), "holds t.csv, which esr x does not write") {
		t.Errorf("legacy folder with an entry not owned: %v", err)
	}
}

// An output of the wrong kind (a folder where a file goes, a file where a
// folder goes, a FIFO) is refused for what it is, and is not called "not
// empty" when it is empty.
func TestTargetOfTheWrongKindIsRefusedForWhatItIs(t *testing.T) {
	root := t.TempDir()
	emptyDir, emptyFile, fifo := filepath.Join(root, "empty-dir"), filepath.Join(root, "empty-file"), filepath.Join(root, "fifo")
	os.Mkdir(emptyDir, 0o755)
	os.WriteFile(emptyFile, nil, 0o644)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tg   safefile.Target
		want string
	}{
		{safefile.Target{Flag: "--out", Path: emptyDir, Writer: "esr x"}, "--out " + emptyDir + " is a folder, and esr x writes a file there"},
		{safefile.Target{Flag: "--out", Path: emptyFile, Writer: "esr x", Dir: true}, "--out " + emptyFile + " is a file, and esr x writes a folder there"},
		{safefile.Target{Flag: "--out", Path: fifo, Writer: "esr x"}, "--out " + fifo + " is not a regular file (a FIFO, device or socket), and esr x writes a file there"},
	} {
		err := c.tg.Check()
		if err == nil || !errors.Is(err, safefile.ErrForeign) {
			t.Errorf("%s: %v, want it refused", c.tg.Path, err)
			continue
		}
		if strings.Contains(err.Error(), "not empty") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %q, want %q", c.tg.Path, err, c.want)
		}
	}
}
