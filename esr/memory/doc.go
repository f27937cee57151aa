// Package memory implements the nine memory classes the paper compares
// (spec §3), each with its structured read-out (what the oracle reader uses)
// and its render (what an answer model sees):
//
//	direct-context    raw events, newest first
//	rag-topk          top-k events by BM25 relevance to the question
//	latest-only       the latest atom per key
//	graphrag-lite     atoms grouped by key; never abstains
//	graphrag-abstain  unordered values per key; abstains on disagreement (the d-blind control)
//	coarse-discard    binary invalidation, closed edges dropped
//	coarse-retain     binary invalidation, closed edges kept with valid_at/invalid_at (Graphiti/Zep)
//	fine-ledger       typed relations, ⊕ ledger rows with status (RevisionLedger)
//	render-only       fine-ledger's render with every relation forced to SAME_STATE
//
// render-only and fine-ledger share one render function; they differ only in
// the status cells.
//
// Four more classes reproduce deployed systems (DeployedNames: graphiti,
// graphiti-current, mem0-v3, mem0-update). They take what upstream an LLM or
// the integrator decides as parameters in their name,
// NAME@KEY=VALUE…[~render-only] (Spec, ParseSpec,
// ClassParams), report the atoms they kept (KeptAtoms), and have a
// content-matched d-blind baseline, graphrag-abstain@kept=NAME
// (ContentMatched).
package memory
