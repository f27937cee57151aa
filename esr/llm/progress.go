package llm

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// TerminalProgress returns a progress hook (func(done, total int)) that
// draws a one-line bar on w, redrawn at most ten times a second and finished
// with a newline when done reaches total. When w is not a terminal it
// returns a hook that does nothing, so logs and pipes stay clean. The hook is
// safe for concurrent use.
func TerminalProgress(w io.Writer, label string) func(done, total int) {
	if !isTerminal(w) {
		return func(int, int) {}
	}
	return newBar(w, label)
}

// newBar draws unconditionally (TerminalProgress checks for a terminal).
func newBar(w io.Writer, label string) func(done, total int) {
	var mu sync.Mutex
	var last time.Time
	start := time.Now()
	finished := false
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		final := total > 0 && done >= total
		if finished || !final && time.Since(last) < 100*time.Millisecond {
			return
		}
		last = time.Now()
		const width = 30
		var b strings.Builder
		b.WriteString("\r" + label + " ")
		if total > 0 {
			n := done * width / total
			if n > width {
				n = width
			}
			b.WriteString("[" + strings.Repeat("#", n) + strings.Repeat(".", width-n) + "]")
			fmt.Fprintf(&b, " %d/%d %3d%%", done, total, done*100/total)
			if el := time.Since(start); done > 0 && !final {
				eta := time.Duration(float64(el) * float64(total-done) / float64(done))
				fmt.Fprintf(&b, " eta %s", eta.Round(time.Second))
			}
		} else {
			fmt.Fprintf(&b, "%d", done)
		}
		b.WriteString("\x1b[K")
		if final {
			b.WriteString("\n")
			finished = true
		}
		io.WriteString(w, b.String())
	}
}
