package sim

import (
	"slices"
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

	// picks memoises pickKey by question: the features and the policy of
	// every family ask it of the same render and question (ten calls per
	// render in a deployed suite; choosing the key was a tenth of a read).
	mu    sync.Mutex
	picks map[string]keyPick
}

// keyPick is the rendered key a question is about (chooseKey over the
// view's records and the question's content words; ok false when none
// matches) and that key's records in render order. recs is shared by
// every reader of the render: callers only read it (it is clipped, so an
// append copies it).
type keyPick struct {
	label string
	ok    bool
	recs  []layout.Record
}

// pickKey is the keyPick of question on p's view, memoised.
func (p *parsedRender) pickKey(question string) keyPick {
	p.mu.Lock()
	k, ok := p.picks[question]
	p.mu.Unlock()
	if ok {
		return k
	}
	if len(p.view.Records) > 0 {
		k.label, k.ok = chooseKey(p.view.Records, contentWords(question))
	}
	if k.ok {
		for _, r := range p.view.Records {
			if r.Key == k.label {
				k.recs = append(k.recs, r)
			}
		}
		k.recs = slices.Clip(k.recs)
	}
	p.mu.Lock()
	if p.picks == nil {
		p.picks = map[string]keyPick{}
	}
	p.picks[question] = k
	p.mu.Unlock()
	return k
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
