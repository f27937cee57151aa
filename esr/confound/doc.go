// Package confound answers §4.1's question: is a structured memory's gain
// on reverted-revert its mechanism or its render? It holds the
// render-matched decomposition (RenderMatchedTerms: the headline, Tables 2,
// 3 and 11), the staircase and the worked question's steps, the reader
// capabilities and the flips, and the sentences that read each result
// against the paper's (DominanceVersusPaper, RenderOrMechanism).
//
// It stands on the base (esr, bench, memory, reader, judge, eval, suite,
// paper, stats) and imports no other section: the comparisons are eval's,
// the paper's numbers and design are paper's.
package confound
