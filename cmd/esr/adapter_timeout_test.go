package main

import (
	"testing"
	"time"

	"github.com/esrkit/esrkit/internal/adapter"
)

// setTimeout shortens the adapter timeout for a test and returns the undo.
func setTimeout(t *testing.T) func() {
	old := adapter.Timeout
	adapter.Timeout = 300 * time.Millisecond
	return func() { adapter.Timeout = old }
}
