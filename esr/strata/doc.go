// Package strata answers §4.4's and Appendix B's question: in which strata
// does the gain hold, and where does it stop? It holds the per-stratum table
// (Table 5), the cross-source-conflict path chain and the REFINES recovery
// (Appendix B: Tables 4 and 7–10), and the benchmark's own descriptors
// (Table 1, coverage and stream lengths).
package strata
