package sim

import (
	"sync"

	"github.com/esrkit/esrkit/esr/reader"

	"github.com/esrkit/esrkit/internal/layout"
)

// parsedRender is a render parsed once: its layout view and its length in
// tokens (reader.CountTokens). It is read-only once built: readers on several
// goroutines share it.
type parsedRender struct {
	view   *layout.View
	tokens int
}

// memoSize bounds renderMemo: the evaluation loop asks every reader family
// about one render in turn, on a few worker goroutines at once.
const memoSize = 16

// renderMemo holds the renders parsed last. Parsing a long render (a
// Debian changelog's, tens of kilobytes) cost more than the rest of a
// read; the five default families read each render once each.
var renderMemo struct {
	sync.Mutex
	texts []string
	vals  []*parsedRender
}

// parseRender is layout.Parse and reader.CountTokens of text, from renderMemo
// when text was parsed lately. The comparison is by content (the same
// render string is usually the same pointer, which Go compares first).
func parseRender(text string) *parsedRender {
	renderMemo.Lock()
	for i, t := range renderMemo.texts {
		if t == text {
			p := renderMemo.vals[i]
			renderMemo.Unlock()
			return p
		}
	}
	renderMemo.Unlock()
	p := &parsedRender{view: layout.Parse(text), tokens: reader.CountTokens(text)}
	renderMemo.Lock()
	if len(renderMemo.texts) >= memoSize {
		renderMemo.texts, renderMemo.vals = renderMemo.texts[1:], renderMemo.vals[1:]
	}
	renderMemo.texts = append(renderMemo.texts, text)
	renderMemo.vals = append(renderMemo.vals, p)
	renderMemo.Unlock()
	return p
}
