// Package facets answers a question the paper names and leaves open (its
// limitations: "faceted state, where a value depends on platform or
// version, needs a finer composite key"): what does a single-valued key
// cost when the state it holds is faceted?
//
// On the Debian changelog benchmark (data/debian) a package's version is
// kept per target distribution ("distribution=experimental"); a faceted key
// keeps one state per distribution, and the single-valued baseline
// (memory.Options.MergeFacets, condition eval.SingleValuedKey) keeps one
// state for all of them, as the paper's keys do. Rows evaluates
// Classes both ways on the benchmark's faceted questions; Costs pairs
// them; Table and WhereTable report the cost and where it falls (when the
// latest upload went to another distribution than the one asked about);
// Sentences reads them.
//
// P1 and P2 (esr/theory) are stated for a single-valued key; the faceted
// case reduces to them per facet (memory's TestFacetedLedgerIsPerFacet), so
// they hold for each facet's own state, and say nothing about a state that
// merges facets.
package facets
