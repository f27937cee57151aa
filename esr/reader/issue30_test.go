package reader_test

import (
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/reader"
)

// These tests each cover one failure found by the second attack (issue 30);
// each failed before its fix.

// Item 15 (sim half): sim:@FILE#NAME read the whole file, however long: on
// the zero device, 470 MB in 3 s and on. The read is bounded and the error
// names the file and the limit.
func TestSimFileReadIsBounded(t *testing.T) {
	done := make(chan error, 1)
	go func() {
		_, err := reader.ParseSim("@/dev/zero#x")
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "/dev/zero") || !strings.Contains(err.Error(), "MiB") {
			t.Errorf("sim:@/dev/zero#x: %v, want an error naming the file and the limit", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("sim:@/dev/zero#x still reading after 3 s")
	}
}
