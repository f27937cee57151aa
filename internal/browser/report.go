package browser

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"
)

// ReportDirEnv names the environment variable giving the folder of the static
// report (`make report-html` writes report/: index.html and one page per
// executed notebook, from Debian's nbconvert).
const ReportDirEnv = "ESRKIT_REPORT_DIR"

// ReportDir returns $ESRKIT_REPORT_DIR ("" when unset).
func ReportDir() string { return os.Getenv(ReportDirEnv) }

// FileURL returns the file:// URL of a local path (made absolute).
func FileURL(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("browser: %w", err)
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(), nil
}

// errorOutputSelector finds error outputs and stderr streams in nbconvert's
// HTML. Debian's nbconvert (6.x, "lab" template, the default) renders both an
// error output and a stderr stream as
//
//	<div class="jp-RenderedText jp-OutputArea-output" data-mime-type="application/vnd.jupyter.stderr">
//
// (checked on a converted page); the "classic" template's .output_error and
// .output_stderr are matched too, so a change of template keeps the check.
const errorOutputSelector = `.jp-RenderedText[data-mime-type="application/vnd.jupyter.stderr"], .output_error, .output_stderr`

// ErrorOutputs returns the error outputs and stderr streams of the static
// notebook page in the tab, each as "cell N: TEXT" where N counts the page's
// cells from 0 (markdown cells included, as in the .ipynb).
func (b *Browser) ErrorOutputs() ([]string, error) {
	js := `[...document.querySelectorAll(` + quote(errorOutputSelector) + `)].map(e => {
	const cell = e.closest(".jp-Cell, .cell");
	const cells = [...document.querySelectorAll(".jp-Cell, .cell")];
	return "cell " + (cell ? cells.indexOf(cell) : "?") + ": " + e.innerText.trim().slice(0, 1000);
})`
	out, err := Eval[[]string](b, js)
	if err != nil {
		return nil, fmt.Errorf("browser: finding error outputs: %w", err)
	}
	return out, nil
}

// brokenImagesJS waits for every <img> to settle, then lists each that did
// not decode and each inline <svg> that draws nothing. img.decode() rejects
// for an image that failed to load or decode, which also covers data: URIs;
// naturalWidth == 0 catches the rest. An inline SVG is broken when it has no
// shapes (an empty or truncated figure) or takes no room on the page.
// gonum/plot figures come out of GoNB as inline <svg> elements in the
// converted pages, and thumbnails and PNG figures as <img>.
const brokenImagesJS = `(async () => {
	const what = e => (e.getAttribute("alt") || "") + " src=" + (e.getAttribute("src") || "").slice(0, 100);
	const broken = [];
	await Promise.all([...document.images].map(async img => {
		try { await img.decode(); } catch (e) { broken.push("img " + what(img) + ": " + e.message); return; }
		if (img.naturalWidth === 0) broken.push("img " + what(img) + ": naturalWidth 0");
	}));
	for (const svg of document.querySelectorAll("svg")) {
		if (svg.closest("defs, symbol, mask, clipPath, pattern")) continue;
		const shapes = svg.querySelectorAll("path, text, rect, line, polyline, polygon, circle, ellipse, image, use");
		const r = svg.getBoundingClientRect();
		if (shapes.length === 0) broken.push("svg (" + Math.round(r.width) + "x" + Math.round(r.height) + "): no shapes");
		else if (r.width === 0 || r.height === 0) broken.push("svg with " + shapes.length + " shapes takes no room (" + r.width + "x" + r.height + ")");
	}
	return broken;
})()`

// BrokenImages returns the page's images that did not decode and inline SVGs
// that draw nothing (see brokenImagesJS), after waiting up to timeout for
// every <img> to finish loading.
func (b *Browser) BrokenImages(timeout time.Duration) ([]string, error) {
	if err := b.WaitJS(`[...document.images].every(i => i.complete)`, timeout); err != nil {
		return nil, fmt.Errorf("browser: images still loading: %w", err)
	}
	out, err := Eval[[]string](b, brokenImagesJS)
	if err != nil {
		return nil, fmt.Errorf("browser: checking images: %w", err)
	}
	return out, nil
}

// Links returns the absolute URLs (resolved href) of the <a> elements matching
// the CSS selector, e.g. Links("a.card") for the report index's cards.
func (b *Browser) Links(sel string) ([]string, error) {
	out, err := Eval[[]string](b, `[...document.querySelectorAll(`+quote(sel)+`)].map(a => a.href)`)
	if err != nil {
		return nil, fmt.Errorf("browser: reading links %s: %w", sel, err)
	}
	return out, nil
}
