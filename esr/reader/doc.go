// Package reader turns a question and a memory's rendered context into an
// answer or ABSTAIN. Every reader implements Reader:
//
//   - Oracle reads the memory's structured state instead of the text (the
//     render-invariant upper bound);
//   - the simulated readers, "scripted:PROFILE" and "sim:PROFILE", are
//     package reader/sim's (it builds on this one);
//   - LLM ("llm:MODEL") asks an OpenAI-compatible endpoint with the shared QA
//     template, cached (package llm).
//
// Parse and ParseList make readers from names, given the simulations
// (sim.Readers) for the scripted and sim kinds; Catalog describes them (`esr
// readers`); ReadAll runs a batch concurrently with a progress hook.
package reader
