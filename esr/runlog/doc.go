// Package runlog reads the evaluation logs that other frameworks write and
// compares two of them sample by sample, as `esr compare` compares two
// esrkit runs.
//
// A user of Inspect, lm-evaluation-harness or promptfoo already holds two
// runs of one benchmark (a model, a prompt or a solver changed) and wants
// to know what changed, sample by sample, with an interval. Read turns a
// log into scores: one Score per sample, epoch and scorer, with the
// sample's id, its group (the cluster the bootstrap resamples whole: by
// default the sample itself, so a sample's epochs move together), the
// model and the value. Compare pairs the scores of two logs by sample and
// epoch and computes every difference B − A with eval.ComparePairs: the
// question-clustered bootstrap interval and the exact paired (sign) test of
// eval.Compare for scores in {0, 1}, the Monte Carlo sign-flip test for
// graded ones. The same scores written as esrkit outcome rows give the same
// digits.
//
// What each reader takes from its log:
//
//   - Inspect (Format Inspect): an eval log, JSON (.json) or archive
//     (.eval); every scorer's value for each sample and epoch, read as
//     Inspect's value_to_float reads it ("C" 1, "P" 0.5, "I" and "N" 0, yes
//     and true 1, no and false 0, numbers as they are; a dict value is one
//     scorer per key, "scorer/key"). Samples that errored or hold no score
//     are left out and counted.
//   - lm-evaluation-harness (LMEval): the per-task samples_TASK_DATE.jsonl
//     files of --log_samples, one file or a folder of them; every metric the
//     line lists, named as lm-eval names it in its results ("acc,none").
//     A metric whose per-sample value is not a number (the items a
//     corpus-level metric such as f1 or bleu aggregates) has no per-sample
//     score and is left out with a note.
//   - promptfoo (Promptfoo): the JSON that `promptfoo eval -o FILE.json`
//     writes; per test case its pass, its score, each named score and each
//     assertion's pass. The model is the provider (and the prompt, when the
//     run holds several).
//
// A sample's Key says what it is (lm-eval's doc_hash, Inspect's input and
// target, promptfoo's vars): two logs that hold one sample id with two
// different keys ran different benchmarks, and Compare refuses them. So it
// does logs whose sample sets or scorers differ (Options.Partial and
// Options.Scorers say what to compare instead), naming the ids.
package runlog
