// Package lab runs the paper's experiments: the suite machinery, every
// section's suite and the code that builds its tables and figures, one file
// group per section beside its suite. A Suite is an Evaluate step that
// produces outcome rows (the expensive part, cached by RunCached under a
// fingerprint of everything the rows depend on) and a Report step that
// builds the section's tables and figures; a Result holds the only build of
// each table (Result.Table), which the CLI, the report and the notebooks
// show, looked up by a typed id (TableID, FigureID in tableids.go).
// AllSuites and Suites list them; the steps of `esr run all` fill the
// LLM answer cache the notebooks read.
//
// By file prefix:
//
//   - suite*.go: Suite, Result, RunCached, the row cache and the notebooks'
//     default readers (DefaultReaders).
//   - confound_*.go, worked.go (§4.1): is a structured memory's gain its
//     mechanism or its render? The render-matched decomposition
//     (the headline, Tables 2, 3 and 11 and their terms (Result.Terms), the
//     decomposition plot; Table2Versus), the staircase, the worked question and the
//     flips, and the sentences that read each result against the paper's.
//   - noise*.go (§4.2, Appendix C): Table 13 and Figure 5 along both noise
//     sweeps, and Table 12 by stream-length bin.
//   - provenance*.go (§4.3): Figure 3 (provenance accuracy by retention
//     class), the relation-type table and the deployed render's
//     reversal.
//   - strata*.go (§4.4, Appendix B): the per-stratum table (Table 5), the
//     cross-source-conflict chain and the REFINES recovery (Tables 4 and
//     7–10), and the benchmark's descriptors (Table 1, coverage, lengths).
//   - deployed*.go: the deployed systems' models (Graphiti, Mem0, an exec:
//     adapter) under the render-matched protocol against
//     paper.DeployedBaseline (Evaluate, Decomposition, Classes), their
//     assumptions and the paraphrase curve. They are SIMULATED models of
//     those systems, not the systems.
//   - external.go (Appendix D): the external provenance table, the snapshot
//     ceiling and the DyKnow RAG table.
//   - facets.go: what a single-valued key costs when the state is faceted
//     on data/debian: per class, per distribution and over one merged key.
//   - explore_*.go: the explorer's views, the sweeps and the phase diagram
//     over the simulated readers' capabilities.
//   - checks*.go: does the measurement hold? Render formats (Table 17),
//     abstain wording (Table 19), pair- vs cluster-bootstrap intervals, the
//     stale-answer metric, and the judge (audit with planted answers, the
//     judge term, rejudging, flips).
//   - suites_*.go, lab.go, llmrun.go: each section's Suite and the run plan.
//
// The readers' calibration to the paper's numbers is reader/sim's.
package lab
