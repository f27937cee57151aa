// Package provenance answers §4.3's question: which retention classes can
// say what a value was before it changed? It holds Figure 3 (provenance
// accuracy by retention class, Plot and Table), the
// relation-type table, and the deployed render's reversal
// (DeployedReversalVerdict). The accuracies themselves are
// eval.ProvenanceAccuracy over paper.RetentionClasses.
package provenance
