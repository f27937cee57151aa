// Package nbhelp holds the small helpers that esrkit's GoNB notebooks use to show
// results: HTML tables (from a gota DataFrame or from plain strings), gonum/plot
// figures inline (SVG or PNG) and saved under figures/, Markdown, and a live
// progress line.
//
// nbhelp is the only esrkit package that imports GoNB's gonbui (and gota), so the
// library packages stay free of notebook concerns. Every Show* function is a no-op
// outside a GoNB kernel (gonbui checks for the kernel's pipe), while the functions
// that build HTML, SVG or PNG work anywhere and are what the unit tests exercise.
//
// Notebooks find the repository with [Root]: `make reproduce` and `make test` set
// ESRKIT_ROOT; an interactive session falls back to walking up to esrkit's go.mod.
package nbhelp
