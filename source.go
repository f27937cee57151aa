// Package esrkit holds the module's own source, as it was when a program
// was built: internal/codefp hashes it to name the code that computed a
// cached result. The library itself is in esr/ and stats/.
package esrkit

import "embed"

// Source holds go.mod, go.sum and every Go file of the module's packages,
// embedded at build time: the bytes the program was compiled from (with
// its test files and testdata, which codefp leaves out of the hash). Keep
// the patterns in step with codefp's sourcePatterns (a test compares them);
// they name the package folders, not `*/*.go`, so that a folder of another
// module inside a checkout does not break the build.
//
//go:embed go.mod go.sum *.go cmd/*/*.go esr/*.go esr/*/*.go esr/*/*/*.go internal/*/*.go internal/*/*/*.go nbhelp/*.go stats/*.go
var Source embed.FS
