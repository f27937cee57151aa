package memory

// Hooks for the external tests (package memory_test).
const DedupAll = dedupAll

var Displays = classDisplays
