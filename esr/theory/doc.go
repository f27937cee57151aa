// Package theory computes the numbers behind the paper's Appendix A
// ("Presentation, Not Mechanism", arXiv 2607.16019): each function
// instantiates one statement on generated or benchmark data and returns plain
// structs, and its tables and figure (tables.go: P1Table, FibrePlot (Figure
// 4), P2bTable, P2cTable, FanoTable, Corollary1Table, ScorerTable) lay them
// out, so the Appendix A notebook can print what the propositions predict
// next to what the kit's memory classes actually do.
//
//	P1Fibre, evalFibre, fibreSurfaces  Proposition 1: the symmetric-fibre ceiling of 1/2 for d-blind classes
//	P2bTypingBenefit                   Proposition 2b: b_type = I(v*; R | Π, values) = 0 (stats.ConditionalMutualInformation)
//	P2cLattice, latticeSurfaces        Proposition 2c: the strict lattice S_snap ⊏ S_prov ⊏ S_type
//	relate.AuditRelations, Fano              the scorer information floor C2 (Fano's inequality)
//	Corollary1, corollary1Noise        Corollary 1: Acc(F) − Acc(C) = β − κ
//
// P1 and P2 are stated for a single-valued key: one state per (entity,
// attribute). A faceted key (esr.Key.Facet, a Debian package's version per
// distribution) keeps one state per facet, and every keyed class answers a
// question about facet f as it would over f's atoms alone on a single-valued
// key (memory's TestFacetedLedgerIsPerFacet, a property test), so P1 and P2
// hold per facet; a state that merges the facets is outside them, and
// esr/lab (facets.go) measures what it costs.
//
// Every random draw comes from a seeded math/rand/v2 PCG, so each result is
// reproducible from its arguments. Answers are scored as judge.Exact does
// (see Correct).
package theory
