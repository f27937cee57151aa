package safefile_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/internal/safefile"
)

// TestMain doubles as a helper process: with SAFEFILE_HOLD=PATH it locks
// PATH (OpenAppend), says "locked" and holds it for SAFEFILE_FOR.
func TestMain(m *testing.M) {
	if p := os.Getenv("SAFEFILE_HOLD"); p != "" {
		f, err := safefile.OpenAppend(p, safefile.Wait{})
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println("locked")
		d, _ := time.ParseDuration(os.Getenv("SAFEFILE_FOR"))
		time.Sleep(d)
		f.Close()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// hold starts a helper process that holds path's lock for d and returns
// once it holds it.
func hold(t *testing.T, path string, d time.Duration) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SAFEFILE_HOLD="+path, "SAFEFILE_FOR="+d.String())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "locked" {
		t.Fatalf("helper: %q", line)
	}
	return cmd
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// A write that fails midway leaves the previous file and no temporary
// file; a writer's temporary file left by a dead process is removed.
func TestWriteKeepsPreviousFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "requests.jsonl")
	if err := safefile.WriteFile(path, []byte("good\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk full")
	err := safefile.Write(path, 0o644, func(w io.Writer) error {
		w.Write([]byte(strings.Repeat("partial ", 100000)))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want the fill's", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "good\n" {
		t.Errorf("previous file changed: %q", b[:min(len(b), 40)])
	}
	if n := names(t, dir); len(n) != 1 {
		t.Errorf("files left: %v", n)
	}
	// A dead writer's temporary file (pid 2^22+1 does not run) goes with
	// the next write; a live one's stays.
	dead := filepath.Join(dir, ".requests.jsonl.tmp-4194305-123")
	live := filepath.Join(dir, ".requests.jsonl.tmp-"+strconv.Itoa(os.Getppid())+"-456")
	os.WriteFile(dead, []byte("x"), 0o644)
	os.WriteFile(live, []byte("x"), 0o644)
	if err := safefile.WriteFile(path, []byte("new\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("a dead writer's temporary file is left: %v", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a live writer's temporary file was removed: %v", err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
}

// A file locked by another process is refused with its pid and command,
// or waited for with one message.
func TestOpenAppendNamesHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rows.jsonl")
	cmd := hold(t, path, 700*time.Millisecond)
	_, err := safefile.OpenAppend(path, safefile.Wait{})
	var busy *safefile.BusyError
	if !errors.As(err, &busy) || !errors.Is(err, safefile.ErrBusy) {
		t.Fatalf("error %v, want a BusyError", err)
	}
	if want := "pid " + strconv.Itoa(cmd.Process.Pid) + ": " + os.Args[0]; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name the holder %q", err, want)
	}
	var notes []string
	start := time.Now()
	f, err := safefile.OpenAppend(path, safefile.Wait{Timeout: 10 * time.Second, Note: func(m string) { notes = append(notes, m) }})
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if len(notes) != 1 || !strings.Contains(notes[0], "waiting") || time.Since(start) < 300*time.Millisecond {
		t.Errorf("notes %q after %s", notes, time.Since(start))
	}
}

// Acquire's lock file goes with Release; a second Acquire waits for it.
func TestAcquireLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.lock")
	l, err := safefile.Acquire(path, safefile.Wait{})
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan error)
	go func() {
		l2, err := safefile.Acquire(path, safefile.Wait{Timeout: 5 * time.Second})
		if err == nil {
			err = l2.Release()
		}
		got <- err
	}()
	time.Sleep(150 * time.Millisecond)
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatal(err)
	}
	if n := names(t, dir); len(n) != 0 {
		t.Errorf("left behind: %v", n)
	}
	d, err := safefile.LockDir(dir, safefile.Wait{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := safefile.LockDir(dir, safefile.Wait{}); !errors.Is(err, safefile.ErrBusy) {
		t.Errorf("second LockDir: %v", err)
	}
	d.Unlock()
}
