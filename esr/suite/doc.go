// Package suite is the base every section's experiment stands on: a Suite
// is an Evaluate step that produces outcome rows (the expensive part,
// cached by RunCached under a fingerprint of everything the rows depend on)
// and a Report step that builds the section's tables and figures from them.
// A Result holds the only build of each table (Result.Table); the CLI, the
// report and the notebooks all show that build. The package also holds the
// notebooks' default readers. The list of every suite is package lab's.
package suite
