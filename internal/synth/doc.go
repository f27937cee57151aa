// Package synth generates the synthetic ESR benchmark (named "synthetic"
// everywhere: sources synthetic-github, synthetic-wiki, synthetic-dyknow).
//
// Every stream is invented from a plan: a main key whose history realises one
// stratum of the paper (monotonic, reverted_revert, cross_source_conflict,
// refines), monotonic side keys, and clutter (unrelated comments, hedges such
// as "maybe 45 s?", restatements of stale values such as "as noted earlier,
// 60 s", value paraphrases such as "half a minute"). Prose imitates GitHub
// issues (opening post, comments, close / reopen / label / assign events,
// several actors, the spec's GitHub attribute inventory), Wikipedia revisions
// (edit summaries, infobox lines, anonymous vandal edits and their reverts,
// talk-page doubts) and DyKnow-style dated facts with passages.
//
// Gold comes from the plan, not from the text: each atom is tagged with the
// claim it came from; the gold relation of every co-keyed pair
// (relations.jsonl) follows from the claims' kinds; each key's gold snapshot,
// provenance and relation-type answers are computed by ⊕ under those gold
// relations and checked against the plan. Gold supporting events are the
// events of the live assertions; gold deprecated events are the events of
// superseded or refined assertions whose value differs from the current one
// (all closed assertions when the key is unresolved). Provenance QAs support
// with the prior value's events.
//
// Stratum conventions:
//   - monotonic: about half the keys have a single value ("pure-mono", the
//     no-deprecated-evidence split of the paper's Table 11; Rationale starts
//     "synthetic pure-mono"; PureMono tests it), the rest change one to three
//     times ("mono-deprecated").
//   - reverted_revert: v1 → v2 (→ v3) → v1, as in the paper's Figure 1; on
//     Wikipedia often an anonymous vandal edit and its revert.
//   - cross_source_conflict: two or three actors (sources) assert different
//     values and nothing resolves them; gold ABSTAIN; no provenance or
//     relation-type QA.
//   - refines: the last change narrows the value before it, never returned
//     to. Refinements come in kinds (RefineKind): more precise numbers
//     ("30 s" → "30.4 s", "4.3 million" → "4,312,586"), narrower places (a
//     region → a city in it), narrower versions ("downgrade to 2.x" →
//     "downgrade to 2.3.1"), narrower terms (label "bug" → "regression") and
//     qualifiers ("30 s" → "30 s on slow networks"). Only a qualifier is a
//     superstring of the value it refines, the shape the spec's §8 mining
//     rule and the rule scorer's containment cue detect; at most a third of
//     the refinements are qualifiers. The kind is recorded in the rationale
//     of the key's QAs ("(refines, precise-number)"; RefinementKind); gold
//     says REFINES for every kind.
//
// Atom modality is "assert" for assertions, "hedge" for speculation and
// "recall" for stale restatements; gold relations of hedges and recalls to a
// different value are UNRELATED, and the spec's mining rules apply to
// assertions only (its refines rule, a substring, finds only qualifier
// refinements: the stratum is planned, not mined).
//
// The rule scorer (package relate) sees realistic wording: each update,
// revert, conflict, hedge or recall is worded "friendly" (carrying the cue
// the rule needs) or "hostile" (missing it, or carrying a misleading one) at
// fixed rates, so the rule is imperfect while gold never depends on wording.
// A refinement says it narrows ("more precisely") or reads like any new
// value, also at a fixed rate.
//
// Extraction noise (Config.EventRecall, Config.CoKeyRecall) touches
// atoms.jsonl only; QAs and their gold stay as planned, so coverage metrics
// (package coverage) can be checked against the knobs. Stream lengths spread
// evenly over the paper's Table 12 bins (2–5, 5–6, 6–10, 10–20, 20–70
// events, right-closed).
//
// The bundled benchmark in data/synthetic is DefaultConfig. Regenerate it
// (byte-identical; TestBundledRegenerates checks) with:
//
//	go run ./cmd/esr gen --seed 20260716 --out data/synthetic
//
//go:generate go run ../../cmd/esr gen --seed 20260716 --out ../../data/synthetic
package synth
