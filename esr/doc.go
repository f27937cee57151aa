// Package esr is the core model of Evidence-State Revision (ESR): evidence
// streams of events, atoms extracted from them, the five-class relation
// alphabet between co-keyed atoms, and the ledger update operator ⊕ that says
// which value is in force, which atoms were superseded, and when no single
// answer is justified (ABSTAIN).
//
// The model follows "Presentation, Not Mechanism: A Render Confound in
// Deprecation-Aware Memory Evaluation" (arXiv 2607.16019), §2 and Appendix A
// (Proposition 2a), with the decisions recorded in the project's spec.
// Memory classes, renders, readers and experiments live in subpackages and
// depend on this package, never the other way round.
package esr
