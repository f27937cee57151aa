// Package reader turns a question and a memory's rendered context into an
// answer or ABSTAIN. Every reader implements Reader:
//
//   - Oracle reads the memory's structured state instead of the text (the
//     render-invariant upper bound);
//   - Scripted ("scripted:PROFILE") is a deterministic text reader with named
//     capabilities (status column, visible dates, conflict policy, token
//     budget): a SIMULATION for teaching and tests, never an LLM result;
//   - Sim ("sim:PROFILE") is the stochastic simulation: the scripted
//     reader's steps with each capability a probability drawn per question
//     (seeded per seed, profile and question; see SimCapabilities);
//   - LLM ("llm:MODEL") asks an OpenAI-compatible endpoint with the shared QA
//     template, cached (package llm).
//
// Parse and ParseList make readers from names; Catalog describes them (`esr
// readers`); ReadAll runs a batch concurrently with a progress hook.
package reader
