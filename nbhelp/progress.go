package nbhelp

import (
	"fmt"
	"html"
	"os"
	"strings"
	"sync"
	"time"
)

// Progress is a live-updating progress line in a notebook cell's output:
//
//	pr := nbhelp.newProgress("scoring items", len(items))
//	for i, it := range items {
//		score(it)
//		pr.Set(i + 1)
//	}
//	pr.Done()
//
// Updates are sent at most every [Progress.Every] (the last one always), so calling
// Set in a tight loop is cheap. It is safe for concurrent use. Outside a notebook it
// displays nothing; in a headless run (nonInteractiveEnv set: the executed copies
// that become the report) the line is cleared when the work is done, so a reader of
// the executed notebook sees results, not progress bars.
type Progress struct {
	// Every is the least time between two updates sent to the notebook.
	Every time.Duration

	mu       sync.Mutex
	label    string
	total    int
	done     int
	id       string
	start    time.Time
	lastSent time.Time
	now      func() time.Time
}

// newProgress shows a progress line "label: 0/total" and returns it. total <= 0 means
// unknown: the line then shows a count without percentage or estimate.
func newProgress(label string, total int) *Progress {
	p := &Progress{Every: 250 * time.Millisecond, label: label, total: total, id: newID(), now: time.Now}
	p.start = p.now()
	p.send(true)
	return p
}

// Set records that done items are finished and updates the line if due.
func (p *Progress) Set(done int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = done
	p.send(p.total > 0 && done >= p.total)
}

// Add records n more finished items, like Set(current+n).
func (p *Progress) Add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	p.send(p.total > 0 && p.done >= p.total)
}

// Done marks the work finished and leaves the line with the final count and time
// (interactively) or clears it (headless).
func (p *Progress) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.total > 0 && p.done < p.total {
		p.done = p.total
	}
	if headless() {
		out.UpdateHTML(p.id, "")
		return
	}
	p.send(true)
}

// headless reports a run whose outputs are kept as executed notebooks, not
// watched (nonInteractiveEnv).
func headless() bool { return os.Getenv(nonInteractiveEnv) != "" }

// send sends the current line if force or if Every has passed since the last one.
func (p *Progress) send(force bool) {
	now := p.now()
	if !force && now.Sub(p.lastSent) < p.Every {
		return
	}
	p.lastSent = now
	out.UpdateHTML(p.id, progressHTML(p.label, p.done, p.total, now.Sub(p.start)))
}

// progressHTML renders one progress line: the label, done/total, a bar, the
// percentage, the elapsed time and, while unfinished, an estimate of the time left.
func progressHTML(label string, done, total int, elapsed time.Duration) string {
	var b strings.Builder
	b.WriteString(`<div class="nbhelp-progress" style="font-family:monospace">`)
	b.WriteString(html.EscapeString(label))
	if total > 0 {
		frac := float64(done) / float64(total)
		frac = min(max(frac, 0), 1)
		const width = 30
		filled := int(frac*width + 0.5)
		fmt.Fprintf(&b, ": %d/%d [%s%s] %3.0f%% %s", done, total,
			strings.Repeat("█", filled), strings.Repeat("·", width-filled), 100*frac, roundDur(elapsed))
		if done > 0 && done < total {
			left := time.Duration(float64(elapsed) * float64(total-done) / float64(done))
			fmt.Fprintf(&b, ", ~%s left", roundDur(left))
		}
	} else {
		fmt.Fprintf(&b, ": %d %s", done, roundDur(elapsed))
	}
	b.WriteString("</div>")
	return b.String()
}

func roundDur(d time.Duration) time.Duration {
	if d < time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(100 * time.Millisecond)
}

// progressFunc adapts a progress line to the callback the library's long
// runs take (func(done, total int)): it shows one live line per pass and
// starts a new line when a run begins a new pass (done falls back).
func progressFunc(label string) func(done, total int) {
	var p *Progress
	last := 0
	return func(done, total int) {
		if p == nil || done < last {
			if p != nil {
				p.Done()
			}
			p = newProgress(label, total)
		}
		last = done
		p.Set(done)
		if done >= total {
			p.Done()
		}
	}
}
