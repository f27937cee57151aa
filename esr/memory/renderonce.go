package memory

import "sync"

// renderOnce memoises the render of a state whose render depends on the
// state only, not on the query: every question of a stream is shown the
// same string, built once (a deployed suite rendered each stream's long
// JSON and fact lists once per question and memory). States do not change
// once built, so the string stays current.
type renderOnce struct {
	once sync.Once
	s    string
}

// get is build's string, built on the first call.
func (r *renderOnce) get(build func() string) string {
	if !memoRenders {
		return build()
	}
	r.once.Do(func() { r.s = build() })
	return r.s
}

// memoRenders and perStateRenders are false only in
// BenchmarkStreamRenders's baseline (a render per query).
var (
	memoRenders     = true
	perStateRenders = true
)
