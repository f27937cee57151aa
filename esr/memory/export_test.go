package memory

// Hooks for the external tests (package memory_test).
const DedupAll = dedupAll

var Displays = classDisplays

// RendersPerQuery turns both render memos off (on is false), for a
// benchmark's baseline; it returns a function that turns them back on.
func RendersPerQuery() (restore func()) {
	memoRenders, perStateRenders = false, false
	return func() { memoRenders, perStateRenders = true, true }
}
