// Package lab runs the paper's experiments: the suites and the code that
// builds each one's tables and figures. A Suite is an Evaluate step that
// produces outcome rows (the expensive part) and a Report step that builds
// the section's tables and figures from them; a Result holds the only build
// of each table (Result.Table), which the CLI, the report and the notebooks
// show, looked up by a typed id (TableID, FigureID). AllSuites lists the
// suites, each named by a SuiteID constant (ParseSuiteID reads a name a
// user types). The rows' cache between processes, the tables kept beside
// it and the notebooks' preparation (`esr prepare`) are internal/rowcache's.
//
// Each suite is one file group, named by the suite, whose first file opens
// with the suite's declaration:
//
//   - confound*.go (render-confound, §4.1): is a structured memory's gain
//     its mechanism or its render? The render-matched decomposition (the
//     headline, Tables 2, 3 and 11 and their terms, Result.Terms; the
//     decomposition plot; Table2Versus), the staircase, the worked question
//     (Work, PickWorked), the flips, the clutter terms and the sentences
//     that read each result against the paper's.
//   - noise*.go (noise, §4.2, Appendix C): Table 13 and Figure 5 along
//     both noise sweeps (NoiseSweep, NoiseArmsTable, NoiseSentence).
//   - provenance*.go (provenance, §4.3): Figure 3 (provenance accuracy by
//     retention class, ProvenancePlot), the relation-type table and the
//     deployed render's reversal.
//   - strata*.go (strata, §4.4): the per-stratum table (Table 5) and
//     accuracy by stream-length bin (Table 12).
//   - boundary*.go (boundary, §4.4, Appendix B): the cross-source-conflict
//     chain (Tables 7–9), the REFINES recovery with a learned pair scorer
//     (Table 10) and the relation-scorer audits (Table 4).
//   - checks*.go (checks, Appendices G and H): does the measurement hold?
//     Permutation and Holm (Table 20), abstain calibration (Table 16) and
//     wording (Table 19), pair- against cluster-bootstrap intervals, the
//     stale-answer metric, and the judge (audit with planted answers, the
//     judge term, rejudging, flips).
//   - formats*.go (formats): the render-format ablation (Table 17).
//   - external.go (external, Appendix D): the external provenance table, the
//     snapshot ceiling and the DyKnow RAG table.
//   - deployed*.go (deployed): the deployed systems' models (Graphiti,
//     Mem0, an exec: adapter) under the render-matched protocol against
//     paper.DeployedBaseline (DeployedClasses), their assumptions and the
//     paraphrase curve. They are SIMULATED models of those systems, not the
//     systems.
//   - facets.go (facets): what a single-valued key costs when the state is
//     faceted on data/debian: per class, per distribution and over one
//     merged key (FacetCosts).
//
// Beside them, with no suite of their own:
//
//   - suite*.go: Suite, SuiteID, AllSuites, Setup, Result, the figures'
//     drawers, the table ids, the notebooks' default readers
//     (DefaultReaders) and the steps of `esr run all` (RunAllPlan).
//   - bench_*.go: the benchmark's descriptors (Table 1, coverage, lengths),
//     the generator's presets and the composition's effect (notebook 03).
//   - explore_*.go: the explorer's views, the sweeps and the phase diagram
//     over the simulated readers' capabilities (notebook 40).
//
// The readers' calibration to the paper's numbers is reader/sim's.
package lab
