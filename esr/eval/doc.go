// Package eval is the paper's evaluation loop in the open: memory × reader ×
// judge → one outcome row, and the comparisons every table is built from.
//
// The loop. Run (or Evaluate, which keeps the rows in memory) builds each
// memory class of Config.Memories from a stream's atoms (esr/memory), renders
// it for each question, hands the render to each reader (esr/reader), scores
// the answer with the judge (esr/judge; exact match by default) and writes
// one Outcome per (qid, memory, reader, condition) to a Sink. FileSink
// appends rows to a JSONL file as they are produced, so a run that stops
// midway keeps everything it finished and a rerun resumes where it stopped
// (Config.Done). Your own memory joins by name (memory.Register, or an exec:
// adapter) and your own reader by implementing reader.Reader; ExampleEvaluate
// runs the loop with a reader written in twenty lines.
//
// The comparisons. Filters (And, QueryType, Phenomenon, Condition, Family,
// Source, QIDs) select rows; Compare pairs two memories question by question
// and reports the difference in accuracy with a bootstrap interval (paired or
// question-clustered, StatOptions) and a permutation p-value; CompareTerms
// and MechanismTerms compute named terms such as the render-matched
// decomposition's render and mechanism terms (TermRender,
// TermFineMechanism); Table lays the results out for Markdown, CSV and LaTeX.
// Package lab builds the paper's tables from these rows, one section at a
// time.
package eval
