package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/esrkit/esrkit/internal/safefile"
)

// Timeouts of the actions that take none: long enough for a loaded machine
// (two cores compiling GoNB cells), short enough that a hung page fails the
// test with a message instead of hitting go test's global timeout.
const (
	NavigateTimeout = 60 * time.Second
	ActionTimeout   = 30 * time.Second
)

// pollInterval is how often WaitJS re-evaluates its expression.
const pollInterval = 100 * time.Millisecond

// do runs chromedp actions on the tab with a timeout of their own. The
// timeout context derives from the tab's, so it ends this call only and not
// the browser (see chromedp's docs/API.md, "Set a timeout for one action").
func (b *Browser) do(timeout time.Duration, actions ...chromedp.Action[chromedp.Void]) error {
	if b.isClosed() {
		return errClosed
	}
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	return chromedp.Do(ctx, actions...)
}

func (b *Browser) isClosed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closed
}

// Navigate loads url in the tab and waits for its load event.
func (b *Browser) Navigate(url string) error {
	if err := b.do(NavigateTimeout, chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("browser: navigating to %s: %w", short(url), err)
	}
	return nil
}

// Eval evaluates a JavaScript expression in the tab and decodes its value
// (JSON) into T; a promise is awaited. A thrown exception is an error with
// the exception's text. Use chromedp.Void as T to ignore the value.
//
// It is a function, not a method, because Go methods cannot have type
// parameters.
func Eval[T any](b *Browser, js string) (T, error) {
	var zero T
	if b.isClosed() {
		return zero, errClosed
	}
	ctx, cancel := context.WithTimeout(b.ctx, ActionTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		return zero, fmt.Errorf("browser: evaluating %s: %w", snippet(js), err)
	}
	return v, nil
}

// Do evaluates JavaScript for its effect, ignoring its value.
func (b *Browser) Do(js string) error {
	_, err := Eval[chromedp.Void](b, js)
	return err
}

// WaitJS polls a JavaScript boolean expression until it is true, or fails
// after timeout with the expression and the last exception it threw (an
// expression may throw while the page is still building what it reads, so
// exceptions count as "not yet").
//
// It polls from Go, not with chromedp.Poll, so that it survives navigations
// and reloads of the page (the notebook UI reloads when a kernel restarts).
func (b *Browser) WaitJS(expr string, timeout time.Duration) error {
	js := `(() => { try { return {ok: !!(` + expr + `), err: ""}; } catch (e) { return {ok: false, err: String(e)}; } })()`
	deadline := time.Now().Add(timeout)
	var last string
	for {
		if b.isClosed() {
			return errClosed
		}
		ctx, cancel := context.WithTimeout(b.ctx, min(ActionTimeout, max(time.Until(deadline), pollInterval)))
		r, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
			OK  bool   `json:"ok"`
			Err string `json:"err"`
		}](js))
		cancel()
		switch {
		case err == nil && r.OK:
			return nil
		case err == nil:
			last = r.Err
		case errors.Is(b.ctx.Err(), context.Canceled):
			return fmt.Errorf("browser: waiting for %s: %w", snippet(expr), err)
		default:
			last = err.Error() // e.g. no execution context during a navigation
		}
		if time.Now().After(deadline) {
			msg := fmt.Sprintf("browser: %s still not true after %s", snippet(expr), timeout)
			if last != "" {
				msg += " (last error: " + last + ")"
			}
			return errors.New(msg)
		}
		time.Sleep(pollInterval)
	}
}

// WaitSelector waits until an element matching the CSS selector is in the
// document (present, not necessarily visible).
func (b *Browser) WaitSelector(sel string, timeout time.Duration) error {
	return b.WaitJS("document.querySelector("+quote(sel)+") !== null", timeout)
}

// Text returns the rendered text (innerText) of the first element matching
// the CSS selector, or an error naming the selector when none does.
func (b *Browser) Text(sel string) (string, error) {
	s, err := Eval[*string](b, `(() => { const e = document.querySelector(`+quote(sel)+`); return e ? e.innerText : null; })()`)
	if err != nil {
		return "", err
	}
	if s == nil {
		return "", fmt.Errorf("browser: no element matches %s", sel)
	}
	return *s, nil
}

// SetSelect sets a <select>'s value (an option's value attribute) and fires
// "input" and "change" as a person's choice would, so the page's listeners
// (e.g. a GoNB widget's) see it. It fails, listing the options, when no
// option has that value.
func (b *Browser) SetSelect(sel, value string) error {
	return b.setControl(sel, value, "SELECT", "")
}

// SetRange sets an <input type=range>'s value and fires "input" and "change".
// It fails, leaving the control unchanged, when the browser would clamp or
// step the value (outside min..max, off the step): the page would then see
// another value than the test meant.
func (b *Browser) SetRange(sel string, value float64) error {
	return b.setControl(sel, strconv.FormatFloat(value, 'f', -1, 64), "INPUT", "range")
}

// setControl sets a form control's value in the page and fires input+change;
// the script returns "" or what went wrong.
func (b *Browser) setControl(sel, value, tag, typ string) error {
	js := fmt.Sprintf(`(() => {
	const el = document.querySelector(%s), value = %s;
	if (!el) return "no element matches the selector";
	if (el.tagName !== %s || (%s !== "" && el.type !== %s)) return "element is <" + el.tagName.toLowerCase() + (el.type ? " type=" + el.type : "") + ">, not the expected control";
	if (el.tagName === "SELECT" && ![...el.options].some(o => o.value === value))
		return "no option has value " + JSON.stringify(value) + "; options: " + JSON.stringify([...el.options].map(o => o.value + "=" + o.text));
	const old = el.value;
	el.value = value;
	if (el.type === "range" && Number(el.value) !== Number(value)) {
		const took = el.value;
		el.value = old; // leave the control as it was: no event was fired
		return "range would take value " + took + " (min " + el.min + ", max " + el.max + ", step " + (el.step || 1) + ")";
	}
	el.dispatchEvent(new Event("input", {bubbles: true}));
	el.dispatchEvent(new Event("change", {bubbles: true}));
	return "";
})()`, quote(sel), quote(value), quote(tag), quote(typ), quote(typ))
	msg, err := Eval[string](b, js)
	if err != nil {
		return err
	}
	if msg != "" {
		return fmt.Errorf("browser: setting %s to %q: %s", sel, value, msg)
	}
	return nil
}

// Click waits until an element matching the CSS selector is visible, then
// clicks its centre with real mouse events (scrolling it into view first).
func (b *Browser) Click(sel string, timeout time.Duration) error {
	if err := b.do(timeout, chromedp.Click(chromedp.CSS(sel), chromedp.NodeVisible)); err != nil {
		return fmt.Errorf("browser: clicking %s: %w", sel, err)
	}
	return nil
}

// Screenshot writes a PNG of the whole page (beyond the window) to path,
// creating its directory.
func (b *Browser) Screenshot(path string) error {
	if b.isClosed() {
		return errClosed
	}
	ctx, cancel := context.WithTimeout(b.ctx, ActionTimeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		return fmt.Errorf("browser: screenshot: %w", err)
	}
	return writeFile(path, png)
}

// ScreenshotElement writes a PNG of the first element matching the CSS
// selector, waiting up to timeout for it to be visible.
func (b *Browser) ScreenshotElement(sel, path string, timeout time.Duration) error {
	if b.isClosed() {
		return errClosed
	}
	ctx, cancel := context.WithTimeout(b.ctx, timeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(sel), chromedp.NodeVisible))
	if err != nil {
		return fmt.Errorf("browser: screenshot of %s: %w", sel, err)
	}
	return writeFile(path, png)
}

// SetViewport resizes the page's viewport to w×h CSS pixels. Pages that
// scroll inside a container (Jupyter's notebook does) clip an element
// screenshot to the viewport; a taller viewport takes the whole element.
func (b *Browser) SetViewport(w, h int64) error {
	if err := b.do(ActionTimeout, chromedp.EmulateViewport(w, h)); err != nil {
		return fmt.Errorf("browser: viewport %d×%d: %w", w, h, err)
	}
	return nil
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("browser: %w", err)
	}
	if err := safefile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("browser: %w", err)
	}
	return nil
}

// quote makes a Go string a JavaScript string literal (JSON is valid JS).
func quote(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}

// snippet shortens JavaScript for error messages.
func snippet(js string) string {
	const max = 120
	if len(js) > max {
		js = js[:max] + "…"
	}
	return "`" + js + "`"
}
