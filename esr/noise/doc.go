// Package noise answers §4.2's and Appendix C's question: does the ledger's
// gain survive corrupted relations, dropped atoms and longer streams? It
// holds Table 13 and Figure 5 (fine − coarse along both noise sweeps, each
// arm's accuracy, the sentences), and Table 12 (fine − coarse by
// stream-length bin). The sweeps themselves are eval.SweepComparisons at
// paper.NoiseLevels.
package noise
