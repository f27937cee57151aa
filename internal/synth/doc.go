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
// (package coverage) can be checked against the knobs. Without
// Config.LengthWeights stream lengths spread evenly over the paper's Table
// 12 bins (2–5, 5–6, 6–10, 10–20, 20–70 events, right-closed).
//
// # Composition knobs
//
// One knob per statistic the paper publishes about ESR-Bench's make-up,
// each zero by default (the clean bench); lab.GenPreset("paper") sets them
// all (`esr gen --like paper`), and lab.ShapeTable shows what it
// aims at, measured on the written files by bench.MeasureShape:
//
//	knob              paper's value                           where the paper states it
//	Streams           99 RR, 88 CSC, 89 refines, 2,631 mono;  §3 (ESR-Bench), Table 1
//	                  GitHub 1,698 + MultiRepo 252, Wiki 848,
//	                  DyKnow 109 QAs
//	LengthWeights     questions spread over Table 12's bins    Table 12 (npaired 2,858 / 2,896 /
//	                  as quintiles                             2,875 / 2,591 / 2,392), App. C
//	AtomsPerEvent     "Mean 2.6 atoms/event"                   App. F, Extractor coverage
//	KeysPerStream     "3.7–4.2 distinct keys/stream"           App. F, Extractor coverage
//	EventRecall       0.86 (1770/2055, GitHub)                 App. F, Extractor coverage
//	CoKeyRecall       0.96 (585/609, GitHub)                   App. F, Extractor coverage
//	EventTokens,      none: "prose-like, hard-to-read streams  App. D; Limitations ("the
//	Register          (issue threads, revision histories)"     high-clutter prose setting")
//
// Streams sets the source and phenomenon mix (streams per source and
// stratum; a stream's main key carries its stratum, its side keys are
// monotonic). LengthWeights weighs Table 12's bins; the streams of each
// (source, stratum) are spread over them by systematic sampling. KeysPerStream
// adds distractor keys: unquestioned attributes of the stream's own
// entities (a GitHub issue's environment, versions and error; a country's
// language and calling code; a company's industry), mentioned in the
// stream's own events, given atoms and gold relations but no QA; streams
// with the fewest planned keys get them first. AtomsPerEvent adds extra
// mentions: an event restates the value in force of a key it does not yet
// mention (a distractor, or a questioned key after its first assertion and
// before any conflicting source; never the issue status), worded plainly
// ("Install method: uv.", "| calling_code = +372"), until the stream's
// atoms reach the target per event (AtomsOver: all events, or events with
// atoms, the paper's denominator being unstated). Gold is still computed by
// ⊕ from the plan and checked, so a restatement can add supporting or
// deprecated events, never change an answer. EventTokens pads events to a
// log-normal length with text in four registers (Register: issue-thread
// prose, fenced code, logs and tracebacks, quoted replies; their Wikipedia
// and DyKnow counterparts), which states no value except in quotes of
// earlier events. With these knobs on, co-key noise mis-keys whole events
// (all atoms of a key's supporting events), since events then carry several
// keys and any shared key meets co-key recall's test. The knobs draw from
// their own random stream, and are left out of MANIFEST.json when zero, so
// a clean configuration writes the same bytes as before they existed.
//
// The bundled benchmark in data/synthetic is the paper preset with its rare
// strata oversampled ×2 (`esr gen --like paper --rare-oversample 2`; Config.RareOversample).
// DefaultConfig is the clean preset, for small teaching examples.
// Regenerate the bundled bench (byte-identical; lab's
// TestBundledRegenerates checks) with:
//
//	go run ./cmd/esr gen --like paper --rare-oversample 2 --out data/synthetic
//
//go:generate go run ../../cmd/esr gen --like paper --rare-oversample 2 --out ../../data/synthetic
package synth
