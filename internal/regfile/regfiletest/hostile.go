// Package regfiletest makes the hostile files the readers of regular files
// are tested against: a FIFO (opening it for reading blocks until a writer
// comes) and a link to /dev/zero (endless), and runs a read under a
// deadline, so that a reader that hangs fails its test instead of hanging
// the suite.
package regfiletest

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// FIFO makes a FIFO at path, skipping the test where there are none.
func FIFO(t testing.TB, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
}

// ZeroLink makes path a symbolic link to /dev/zero, skipping the test where
// there is none.
func ZeroLink(t testing.TB, path string) {
	t.Helper()
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	if err := os.Symlink("/dev/zero", path); err != nil {
		t.Skipf("no symbolic link: %v", err)
	}
}

// Within runs fn and returns what it returns, failing the test if it has
// not returned within d. The FIFOs listed are then opened for writing and
// closed, which ends a read blocked on one (the reader sees its end), so a
// failing run does not leave a goroutine blocked for the rest of the suite.
// fn must not call t's methods (it may still run after the test ends).
func Within[T any](t testing.TB, d time.Duration, fn func() T, fifos ...string) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- fn() }()
	select {
	case v := <-done:
		return v
	case <-time.After(d):
		for _, p := range fifos {
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		}
		t.Fatalf("still running after %s (a read blocked on a FIFO or reading an endless file?)", d)
		panic("unreachable")
	}
}
