// Package experiment turns outcome rows into the paper's comparisons: paired
// accuracy differences between memory classes with bootstrap intervals and
// permutation p-values, the render-matched decomposition (§4.1), per-stratum
// and per-source breakdowns, and the named experiments behind each notebook.
//
// Pairs are (question id, answer family, condition), as in the paper's
// paired bootstrap over (question id, answer family) pairs.
package experiment
