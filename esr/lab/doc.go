// Package lab stands above the section packages: it lists every suite of
// `esr run` and the notebooks (AllSuites, Suites: one per paper section, each
// a suite.Suite whose Report is the only builder of its tables and figures),
// and the steps of `esr run all`, which fill the LLM answer cache the
// notebooks read. No section imports it.
package lab
