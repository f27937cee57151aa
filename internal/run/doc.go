// Package run is the kit's runs: the suites (one per notebook, each an
// Evaluate step that produces outcome rows and a Report step that turns
// them into the section's tables and figures), the row cache keyed by
// everything rows depend on, the notebooks' default readers, and the LLM
// fills of `esr run all`. It is the CLI's and the notebook helpers'
// business; the tables themselves are experiment's, the loop eval's.
package run
