// Package browser drives a real, headless Chromium (Debian's /usr/bin/chromium)
// through the Chrome DevTools Protocol (github.com/chromedp/chromedp), so that
// tests can check what a person would see: the static HTML report pages that
// `make report-html` writes, and live Jupyter notebooks with GoNB widgets.
//
// A [Browser] is one headless Chromium with one tab. It records the page's
// problems as they happen (uncaught JavaScript exceptions, console.error calls,
// browser-log errors and failed network requests), so a test can assert that a
// page loaded cleanly, not only that some element exists.
//
// The browser tests run only when ESRKIT_BROWSER_TESTS=1 (`make test` sets it);
// see [Strict] and the helpers in testing.go.
package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// ChromiumEnv names the environment variable that overrides the Chromium binary.
const ChromiumEnv = "ESRKIT_CHROMIUM"

// DefaultChromium is Debian's Chromium launcher, installed by scripts/setup.sh.
const DefaultChromium = "/usr/bin/chromium"

// Window size of the headless browser: wide enough for nbconvert's pages and
// the classic notebook UI without horizontal scrolling.
const (
	WindowWidth  = 1280
	WindowHeight = 1024
)

// startTimeout bounds starting Chromium and opening its first tab.
const startTimeout = 60 * time.Second

// ChromiumPath returns the Chromium binary to run: $ESRKIT_CHROMIUM if set,
// else /usr/bin/chromium.
func ChromiumPath() string {
	if p := os.Getenv(ChromiumEnv); p != "" {
		return p
	}
	return DefaultChromium
}

// Browser is a headless Chromium with one tab, recording the tab's problems.
// It is not safe for concurrent use by several goroutines (one tab, one
// sequence of actions), except for the problem and console accessors.
type Browser struct {
	ctx         context.Context // the tab's chromedp context
	cancelTab   context.CancelFunc
	cancelAlloc context.CancelFunc
	stderr      *lockedBuffer // Chromium's own output, for start-up errors
	stopAfter   func() bool   // unregisters the close-on-ctx-done hook
	closeOnce   sync.Once

	mu       sync.Mutex
	problems []string
	console  []string
	ignore   []string
	requests map[network.RequestID]string // request id → URL, for failures
	closed   bool
}

// New starts a headless Chromium (see [ChromiumPath]) with one tab, bound to
// ctx: when ctx ends the browser is closed, as by [Browser.Close].
//
// Chromium runs with --no-sandbox because the tests run as root (CI), where
// Chromium refuses to start sandboxed, and with background networking, QUIC
// and component updates off because this machine's network is closed: those
// connections would only fail and slow the start.
func New(ctx context.Context) (*Browser, error) {
	path := ChromiumPath()
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("browser: Chromium not found at %s (run scripts/setup.sh, or set %s): %w", path, ChromiumEnv, err)
	}
	b := &Browser{stderr: &lockedBuffer{}, requests: map[network.RequestID]string{}}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.WindowSize(WindowWidth, WindowHeight),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.CombinedOutput(b.stderr),
	)
	// The browser's contexts do not inherit ctx's cancellation: a cancelled
	// parent would make chromedp kill Chromium outright, leaving its
	// temporary files, and race a Close that a test's cleanup runs after the
	// test's own "defer cancel()". Instead the end of ctx calls Close, which
	// closes the browser gracefully, and every Close waits for that to finish.
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.WithoutCancel(ctx), opts...)
	tabCtx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithListener(b.record))
	b.ctx, b.cancelTab, b.cancelAlloc = tabCtx, cancelTab, cancelAlloc
	b.stopAfter = context.AfterFunc(ctx, b.Close)

	// The first Do starts the browser; its context must be the tab's own (not
	// one with a timeout), or the browser would die with that timeout.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(tabCtx) }()
	select {
	case err := <-started:
		if err != nil {
			b.Close()
			return nil, fmt.Errorf("browser: starting %s: %w%s", path, err, b.stderrTail())
		}
	case <-time.After(startTimeout):
		b.Close()
		return nil, fmt.Errorf("browser: %s did not start within %s%s", path, startTimeout, b.stderrTail())
	}
	return b, nil
}

// Context returns the tab's chromedp context, for chromedp actions that this
// package does not wrap: chromedp.Run(b.Context(), action).
func (b *Browser) Context() context.Context { return b.ctx }

// closeTimeout bounds a graceful close before Chromium is killed.
const closeTimeout = 10 * time.Second

// Close closes the browser and waits for its processes to end. It is safe to
// call more than once and from several goroutines: every call returns once
// the browser is gone.
func (b *Browser) Close() {
	b.closeOnce.Do(func() {
		b.mu.Lock()
		b.closed = true
		b.mu.Unlock()
		if b.stopAfter != nil {
			b.stopAfter()
		}
		// Cancel asks Chromium to close (it then removes its temporary
		// files) and waits for it to exit; past closeTimeout the allocator's
		// cancel kills it and waits, removing the temporary profile.
		done := make(chan struct{})
		go func() { _ = chromedp.Cancel(b.ctx); close(done) }()
		select {
		case <-done:
		case <-time.After(closeTimeout):
		}
		b.cancelTab()
		b.cancelAlloc()
	})
}

// Ignore makes the browser drop problems that contain any of substrings: known,
// understood noise (each caller documents why), which then shows in
// [Browser.ConsoleLog] marked "(ignored)" instead of in [Browser.Problems].
func (b *Browser) Ignore(substrings ...string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ignore = append(b.ignore, substrings...)
}

// Problems returns what went wrong in the tab since the start or the last
// [Browser.ResetProblems]: uncaught exceptions and unhandled rejections,
// console.error calls, browser-log errors (e.g. a blocked resource) and failed
// network requests (load failures and HTTP status >= 400), one line each.
func (b *Browser) Problems() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.problems...)
}

// ResetProblems forgets the problems recorded so far (e.g. before navigating
// to the next page), and the console log with them.
func (b *Browser) ResetProblems() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.problems, b.console = nil, nil
}

// ConsoleLog returns every console message and problem of the tab, in order,
// as "TYPE: text", for failure messages.
func (b *Browser) ConsoleLog() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.console...)
}

// record is the tab's event listener. chromedp calls it in the tab's read
// loop, in the order the events arrive and before the reply of any later
// command, so Problems is complete as soon as an action that follows returns.
// It must return fast and must not run commands.
func (b *Browser) record(ev any) {
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		b.add("exception", exceptionText(ev.ExceptionDetails), true)
	case *runtime.EventConsoleAPICalled:
		text := argsText(ev.Args)
		if st := ev.StackTrace; st != nil && len(st.CallFrames) > 0 && st.CallFrames[0].URL != "" {
			f := st.CallFrames[0]
			text += fmt.Sprintf(" (%s:%d)", short(f.URL), f.LineNumber+1)
		}
		b.add("console."+string(ev.Type), text, ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert)
	case *log.EventEntryAdded:
		e := ev.Entry
		text := e.Text
		if e.URL != "" {
			text += " (" + short(e.URL) + ")"
		}
		// A failed request also arrives as a network event, with its URL and
		// reason: record it once, from there.
		isProblem := e.Level == log.EntryLevelError && e.Source != log.EntrySourceNetwork
		b.add("log."+string(e.Source)+"."+string(e.Level), text, isProblem)
	case *network.EventRequestWillBeSent:
		if ev.Request != nil {
			b.mu.Lock()
			b.requests[ev.RequestID] = short(ev.Request.URL) // data: URIs can be megabytes
			b.mu.Unlock()
		}
	case *network.EventResponseReceived:
		if r := ev.Response; r != nil && r.Status >= 400 {
			b.add("network", fmt.Sprintf("HTTP %d %s: %s", r.Status, r.StatusText, short(r.URL)), true)
		}
	case *network.EventLoadingFailed:
		if ev.Canceled { // navigation away, or the page dropped it: not a fault
			return
		}
		b.mu.Lock()
		url := b.requests[ev.RequestID]
		delete(b.requests, ev.RequestID)
		b.mu.Unlock()
		text := fmt.Sprintf("request failed (%s): %s", ev.ErrorText, url)
		if ev.BlockedReason != "" {
			text += " blocked: " + string(ev.BlockedReason)
		}
		b.add("network", text, true)
	case *network.EventLoadingFinished:
		b.mu.Lock()
		delete(b.requests, ev.RequestID)
		b.mu.Unlock()
	}
}

// add records one console line, and a problem unless it is ignored.
func (b *Browser) add(kind, text string, problem bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	line := kind + ": " + text
	if problem {
		for _, s := range b.ignore {
			if strings.Contains(line, s) {
				b.console = append(b.console, line+" (ignored)")
				return
			}
		}
		b.problems = append(b.problems, line)
	}
	b.console = append(b.console, line)
}

// exceptionText is the message of an uncaught exception, with where it was thrown.
func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "(no details)"
	}
	text := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		desc, _, _ := strings.Cut(d.Exception.Description, "\n    at ")
		text += " " + desc
	}
	url := d.URL
	if url == "" && d.StackTrace != nil && len(d.StackTrace.CallFrames) > 0 {
		url = d.StackTrace.CallFrames[0].URL
	}
	return fmt.Sprintf("%s (%s:%d)", text, short(url), d.LineNumber+1)
}

// argsText renders console arguments roughly as DevTools does: strings as
// they are, other values by their JSON or description.
func argsText(args []*runtime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		var s string
		switch {
		case a.Type == runtime.RemoteObjectTypeString && json.Unmarshal([]byte(a.Value), &s) == nil:
		case len(a.Value) > 0:
			s = string(a.Value)
		case a.UnserializableValue != "":
			s = string(a.UnserializableValue)
		case a.Description != "":
			s = a.Description
		default:
			s = string(a.Type)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// short trims long URLs (data: URIs of inline figures run to megabytes) and
// hides a Jupyter token in them.
func short(url string) string {
	const max = 160
	url = redactURL(url)
	if len(url) <= max {
		return url
	}
	return url[:max] + "…"
}

// stderrTail is the end of Chromium's own output, for start-up errors.
func (b *Browser) stderrTail() string {
	s := strings.TrimSpace(b.stderr.String())
	if s == "" {
		return ""
	}
	if len(s) > 2000 {
		s = "…" + s[len(s)-2000:]
	}
	return "\nChromium's output:\n" + s
}

// lockedBuffer collects a process's output from several goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// errClosed is returned by actions on a closed browser.
var errClosed = errors.New("browser: closed")
