package adapter_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/esrkit/esrkit/internal/adapter"
)

// Two evaluations beside each other hold one adapter process: the first
// to end leaves it running for the other, and the last one closes it.
func TestAdapterHeldUntilTheLastRelease(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	p := script(t, "echo $$ > "+pidFile+"\nwhile read l; do :; done\n")
	first, second := adapter.Hold(), adapter.Hold()
	if _, err := adapter.Get(p); err != nil {
		t.Fatal(err)
	}
	pid := childPid(t, pidFile)
	first()
	first() // a release twice counts once
	time.Sleep(100 * time.Millisecond)
	if gone(pid) {
		t.Fatal("the adapter ended while an evaluation still held it")
	}
	second()
	for end := time.Now().Add(3 * time.Second); !gone(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			syscallKill(pid)
			t.Fatal("the adapter outlived the last release")
		}
	}
}
