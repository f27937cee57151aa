package sim

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/esr/reader"

	"github.com/esrkit/esrkit/esr"
)

// This file is the stochastic simulated reader ("sim:NAME"): the scripted
// reader's eyes and decision steps (internal/layout, scripted.go), with each
// capability a probability drawn per question instead of an all-or-nothing
// rule. Like the scripted readers it is a SIMULATION for teaching: it shows
// how a reader's skills move the render and mechanism terms, not what an
// LLM would score.

// Capability names of Profile, for Profile.Get/Set, sim:NAME@CAP=V
// specs and the phase diagram's axes.
const (
	Status       = "status"     // StatusSkill
	Date         = "date"       // DateSkill
	DateDecay    = "date-decay" // DateDecayPerRow
	Order        = "order"      // OrderSkill
	Lapse        = "lapse"      // Lapse
	FirstRow     = "first-row"  // FirstRowBias
	Abstain      = "abstain"    // AbstainOnConflict
	Rows         = "rows"       // RowBudget
	simTokens    = "tokens"     // TokenBudget
	simBoth      = "both"       // BothValues
	simHedge     = "hedge"      // Hedge
	simKeyStatus = "key-status" // KeyStatusSkill
	simProse     = "prose"      // ProseSkill
	Conflict     = "conflict"   // ConflictSkill
	// The reader model over render features (features.go, chances.go):
	// logit costs ≥ 0 of clutter, scaled per reader by clutter-scale.
	simClutterScale = "clutter-scale"   // ClutterScale
	simLengthCost   = "length-cost"     // LengthCost
	simRowsCost     = "rows-cost"       // RowsCost
	simFlatCost     = "flat-cost"       // FlatCost
	simDistractCost = "distractor-cost" // DistractorCost
	simProseCost    = "prose-date-cost" // ProseDateCost
	simNestCost     = "nest-cost"       // NestCost
	simParaCost     = "paraphrase-cost" // ParaphraseCost
)

// Capability documents one capability of a simulated reader: what it
// models and the published evidence for it. Evidence names the registry's
// points by id (evidence.json, docs/evidence.md) where the registry holds
// one, and says so where none exists.
type Capability struct {
	Name     string `json:"name"`  // the name Get/Set and specs use
	Field    string `json:"field"` // the Profile field
	Models   string `json:"models"`
	Evidence string `json:"evidence"`
}

// Capabilities are the capabilities of a simulated reader, with what
// each models and the published evidence for it.
var Capabilities = []Capability{
	{Status, "StatusSkill",
		"probability that the reader uses the rows' status when the render shows one (LIVE / DEPRECATED / REFINED cells, a Graphiti invalid_at) on a clean render; the length and nesting costs lower it",
		"stage 2 (the paper alone): no registry point measures 7–14B models honouring a status column (docs/evidence.md lists none); range 0.70–0.99, kept below 1 because the paper's readers act on a status cell poorly unless a strict prompt forces it (§4.4, Tables 8–9: +0.226 on cross-source conflict with the strict prompt)"},
	{simKeyStatus, "KeyStatusSkill",
		"probability that the reader abstains on a key whose header says \"status: unresolved\" (drawn with the status uniform: a reader that reads row status with p and key status with q does both with min(p, q)); the length cost lowers it; unset, it is the status skill",
		"stage 2 (the paper alone): no registry point measures a reader acting on an \"unresolved\" header; range 0.10–0.95; Table 16: RevisionLedger's abstain decisions agree with the gold abstain labels at κ 0.09–0.30, GraphRAG+abstain's at 0.02–0.10; §4.4: the paper's readers act on the header only under the strict prompt"},
	{Date, "DateSkill",
		"probability that the reader correctly orders two dated records (or, in undated raw text, two lines by their text order) and takes the newest as current, on a clean render; the clutter costs and rows-cost per doubling of the rows lower it",
		"stage 1, fitted with rows-cost to PI-LLM's updates-of-one-key curves (Wang & Sun 2025, arXiv 2506.08184; registry pi-llm/*): at 2 updates of each of 46 keys tracked at once, 0.890 (pi-llm/llama-3-1-8b/2), 0.872 (pi-llm/qwen3-8b/2), 0.981 (pi-llm/qwen3-14b/2); the clean pair, without the 45 other keys, is the skill; range 0.80–0.995"},
	{DateDecay, "DateDecayPerRow",
		"each dated record beyond two multiplies the date-sort probability by (1 − DateDecayPerRow): sorting gets worse as rows grow (the hand-set profiles' row factor; the calibrated panel uses rows-cost instead and has it at 0)",
		"App. C, Table 12: stream-length bins move the RevisionLedger − Graphiti gap (−0.204 → +0.023); App. D: the ordering residual is stream-length-dependent"},
	{Order, "OrderSkill",
		"probability that the reader reads the top row of a block whose layout declares its rows newest first (a ledger history, dated or not) as the current one, without sorting; a list that merely happens to be sorted (a shuffle) does not count; the length and nesting costs lower it",
		"stage 2 (the paper alone): reading the top row of a short table is a literal lookup, and the registry's nearest literal lookup is RULER's single-needle NIAH, 100.0 at 4K for Llama3.1 (8B) and Mistral-v0.2 (7B) (ruler-appx/llama3-1-8b/vanilla-niah/4k, ruler-appx/mistral-v0-2-7b/vanilla-niah/4k; RULER's README cells, 93.6–98.0 at 4K for these families, are 13-task averages, not lookups); range 0.85–0.995; App. D and §4.1: a pre-ordered history is easier than sorting unordered dated facts (the render term, +0.159)"},
	{FirstRow, "FirstRowBias",
		"when several candidate values remain (and, with a conflict skill, the reader did not see a conflict), probability that the reader takes the first one in the text",
		"stage 2 (the paper alone): a conflict style, not a skill; range 0.02–0.60; the registry's Lost in the Middle points show a primacy bias for a 13B model (LongChat-13B (16K): 72.1 with the answer document first of 10, 58.5 last; litm/longchat-13b-16k/llama-3.1-8b/first/9, .../last/9)"},
	{Abstain, "AbstainOnConflict",
		"without a conflict skill (the hand-set profiles): when several candidate values remain and it does not take the first, probability that the reader abstains (otherwise it takes the most frequent value; a tie abstains); unused by a reader with a conflict skill (the calibrated panel), whose abstaining on a disagreement is the conflict act",
		"a conflict style of the hand-set profiles; §4.1: GraphRAG+abstain \"can detect conflict, but without the supersession edge it often abstains\""},
	{Lapse, "Lapse",
		"having settled a snapshot's current value, probability that the reader answers another value the render shows for the key instead (the first differing one in the text): a stale or mixed-up answer, on a clean render; nesting and rows written as sentences raise it (a value read off the wrong member or sentence), never the number of rows nor the length, so no row count takes it out of what its range and the layout costs allow",
		"stage 2 (the paper alone): no registry point separates a stale answer given after finding the current value from a failed ordering (PI-LLM's stale answers are the latter, which rows-cost carries); range 0.005–0.10"},
	{simProse, "ProseSkill",
		"probability that the reader finds the asked key's lines in raw event text (direct context, RAG top-k, a deployed render's appended events), read by key: lines that state nothing for the key are distractors; it then reads what each of its lines states for the key (Input.Stated, the bench's extraction standing in for understanding the sentence) and takes undated lines' text order as a recency cue; otherwise it finds none and abstains. The length and distractor costs lower it. 0 (the hand-set profiles): the value patterns of the scripted readers instead, and unreadable where none fits",
		"stage 1, fitted to the registry's short-passage points: FaithEval's original-context accuracy (Ming et al. 2024, arXiv 2410.03727): 81.5 (faitheval-ic/llama-3-1-8b-instruct/original), 75.9 (Mistral-7B-Instruct-v0.3), 83.2 (gemma-2-9b-it, for the 7–8B Qwen families), 77.7 and 81.7 (Mistral-Nemo 12B, Phi-3-medium 14B, for Qwen3-14B); NoLiMa's base score, pooled over 250–1K tokens without literal overlap (Modarressi et al. 2025, arXiv 2502.05167): 76.7 (nolima/llama-3-1-8b/base), 87.4 (Gemma 3 12B, for Qwen3-14B); range 0.55–0.99"},
	{Conflict, "ConflictSkill",
		"probability that the reader sees a conflict the render shows and abstains: the key's values disagree and nothing retracts one (a status read keeps several in force, or the rows come from a layout with no order: a fact list, a shuffle, sources side by side; dates alone retract nothing); drawn before any date sort, so seeing a conflict does not depend on the sorting skill; the same draw abstains on a disagreement the reader cannot settle. The length cost lowers it",
		"stage 1, fitted to FaithEval's inconsistent-context accuracy, where 'multiple answers are supported by different documents' (Ming et al. 2024, arXiv 2410.03727): 37.2 (faitheval-ic/llama-3-1-8b-instruct/inconsistent), 23.2 (Mistral-7B-Instruct-v0.3), 27.1 (gemma-2-9b-it, for the 7–8B Qwen families), 50.2 and 4.0 (Mistral-Nemo 12B, Phi-3-medium 14B, for Qwen3-14B); range 0.02–0.70"},
	{Rows, "RowBudget",
		"the reader loses track past this many records of the asked key (and raw event lines); 0 reads them all",
		"App. A Conjecture 1: the reader term grows with the render's number of candidate fields"},
	{simTokens, "TokenBudget",
		"the reader reads only the first TokenBudget tokens of the context (whole lines); 0 reads everything",
		"App. A premise (R): decode capacity is non-increasing in render length; §4.3: appending raw events to the render reverses the provenance sign (−0.236)"},
	{simBoth, "BothValues",
		"probability that a snapshot answer states the prior value beside the current one, \"was A, now B\" (A: the first other value of the key the reader read; without one the answer stays B); 0 in every built-in profile",
		"LongMemEval's knowledge-update judge counts a response with \"previous information along with an updated answer\" as correct (xiaowu0162/LongMemEval, evaluate_qa.py); a judge that accepts it and one that does not score the same answer apart, so this capability makes the judge term visible (§4.1's DeepSeek vs MiniMax columns)"},
	{simHedge, "Hedge",
		"probability that a snapshot answer is hedged, \"probably B\" (drawn with the same uniform as BothValues: both iff u < BothValues, hedge iff BothValues ≤ u < BothValues + Hedge); 0 in every built-in profile",
		"App. E: abstention and hedging move with the prompt's wording (Tables 16, 19); a strict judge rejects a hedged value that a containment judge accepts"},
	{simClutterScale, "ClutterScale",
		"a switch in [0, 1] that can only turn the render's clutter down: every cost below is multiplied by it (0: the render's length and layout do not matter, the hand-set profiles; 1: the calibrated panel, whose per-family costs are the effective costs it feels)",
		"not fitted: each cost is fitted per family inside its own evidence range, so no multiplier can take the cost a reader feels out of that range"},
	{simLengthCost, "LengthCost",
		"logit cost per doubling of the whole render's length, x = log2(1 + tokens/1000), on every act (status, order, key header, date sort, finding the key in raw text, seeing a conflict)",
		"stage 1, fitted per family to the shape of the registry's length curves (each series' drop from its shortest point, in logit): RULER's README, 13-task averages (ruler/llama3-1-8b/4k 95.5 → /8k 93.8 → /16k 91.6); RULER's vanilla single-needle NIAH (ruler-appx/llama3-1-8b/vanilla-niah: 100.0 from 4K to 64K); NoLiMa without literal overlap (nolima/llama-3-1-8b/1k 65.7 → /2k 54.4 → /4k 44.1 → /8k 31.9); HELMET's synthetic recall (helmet/*); BABILong (babilong/*); range 0–0.8"},
	{simRowsCost, "RowsCost",
		"logit cost per doubling of the key's rows beyond two, on a date sort (or the ordering of an undated log)",
		"stage 1, fitted with the date skill to PI-LLM's updates-of-one-key curves (46 keys tracked at once, the answer the last value): 0.890 → 0.640 → 0.281 at 2, 4, 8 updates (pi-llm/llama-3-1-8b/2, /4, /8), 0.872 → 0.715 → 0.511 (pi-llm/qwen3-8b), 0.981 → 0.820 → 0.560 (pi-llm/qwen3-14b); the other keys' lines and the length carry part of that fall (distractor-cost, length-cost); range 0–2"},
	{simFlatCost, "FlatCost",
		"logit cost on a date sort when the key's rows are flat (each repeating entity and attribute, mixed with other keys' rows) rather than one block under a header",
		"stage 2 (the paper alone): §4.1, GraphRAG+abstain's \"flat entity-attribute groupings\" against the ledger's per-key block; no registry point measures flat against grouped rows; range 0–1.2"},
	{simDistractCost, "DistractorCost",
		"logit cost per doubling of the rows that are not the key's (1 + n): other keys' rows in a structured render, every line that states nothing for the key in raw text; on a date sort and on finding the key in raw text",
		"stage 1, fitted to the shape of Lost in the Middle's distractor-document curve (Liu et al. 2024, arXiv 2307.03172; LongChat-13B (16K), a stand-in for every family): 83.4 with the answer document alone (litm/longchat-13b-16k/llama-3.1-8b/first/0), 72.1, 68.6, 66.9 with it first among 10, 20, 30 documents; and RULER issue #100, a user's run of Llama-3.1-8B-Instruct at 4K: 100.0 with one needle and with three distractor needles (ruler-issue100/llama-3-1-8b-instruct/4k/*); range 0–0.5"},
	{simParaCost, "ParaphraseCost",
		"logit cost on finding the key in raw event text, times the share of the key's lines that name nothing the question names (a value stated in other words: \"+1, 15 s here as well\")",
		"stage 1, fitted to the registry's short-passage points, where the question and the passage share no words (NoLiMa's base score by construction, 76.7 for Llama 3.1 8B, nolima/llama-3-1-8b/base; FaithEval's original-context reading comprehension, 81.5 for Llama-3.1-8B-Instruct, faitheval-ic/llama-3-1-8b-instruct/original), set against the literal lookups at 4K (RULER's README 95.5, its single-needle NIAH 100.0); range 0–3"},
	{simProseCost, "ProseDateCost",
		"logit cost when the key's rows are sentences, dates inside prose (a sentence per row, \"[e3 2024-03-01] ...\" event lines, \"(as of ...)\") rather than a column or member: on reading a status or a declared order from them, on a date sort, and added to the lapse",
		"stage 2 (the paper alone): Table 17, the verbose ledger format gives the smallest ledger gain in every family; no registry point measures a prose serialisation of a table for these families (Sui et al. 2024 measured GPT-3.5 and GPT-4 only); range 0–1.2"},
	{simNestCost, "NestCost",
		"logit cost per level of JSON nesting of a row (an object 1, an object in a list 2, ...), on every act that reads the rows, and added to the lapse",
		"stage 2 (the paper alone): Table 17's JSON ledger format; the registry's one per-format run of a 7–14B model is a hobby benchmark (minemizer, Qwen3-VL-8B-Instruct-Q8_0, 50 queries per format at 36k–86k tokens): 0.40 pretty JSON, 0.44 minified JSON, 0.56 YAML, 0.46 TOON (minemizer/qwen3-vl-8b-instruct-q8-0/qwen3-8b/*), a single-record lookup the model has no act for (the card says so); He et al. 2024 measured GPT models only; range 0–0.3"},
}

// Profile is a simulated reader's skills. The probabilities are drawn
// per question (see Sim); the budgets are hard limits.
type Profile struct {
	Name    string `json:"name"`
	Summary string `json:"summary,omitempty"`
	// StatusSkill: P(the reader uses the status column).
	StatusSkill float64 `json:"status_skill"`
	// DateSkill: P(a date sort of two dated records succeeds); 0 never sorts.
	DateSkill float64 `json:"date_skill"`
	// DateDecayPerRow: each dated record beyond two multiplies the sort
	// probability by (1 − DateDecayPerRow).
	DateDecayPerRow float64 `json:"date_decay_per_row"`
	// OrderSkill: P(a newest-first list of dated records is read as
	// ordered, without a sort).
	OrderSkill float64 `json:"order_skill,omitempty"`
	// Lapse: P(a settled snapshot answer is replaced by another value shown
	// for the key).
	Lapse float64 `json:"lapse,omitempty"`
	// FirstRowBias: P(take the first candidate in the text) when candidates
	// disagree.
	FirstRowBias float64 `json:"first_row_bias"`
	// AbstainOnConflict: P(abstain) when candidates disagree and the first
	// is not taken; otherwise the majority value (a tie abstains).
	AbstainOnConflict float64 `json:"abstain_on_conflict"`
	// RowBudget: only the first RowBudget records of the key (and raw event
	// lines) are read; 0 reads all.
	RowBudget int `json:"row_budget"`
	// TokenBudget: only the first TokenBudget tokens are read; 0 reads all.
	TokenBudget int `json:"token_budget"`
	// BothValues: P(a snapshot answer is "was A, now B"); Hedge: P(it is
	// "probably B"). Both are 0 in the built-in profiles (and omitted from
	// JSON then, so existing profiles keep their fingerprints).
	BothValues float64 `json:"both_values,omitempty"`
	Hedge      float64 `json:"hedge,omitempty"`
	// ProseSkill: P(the reader finds the key's values in raw event text);
	// 0 keeps the scripted readers' value patterns. A reader with a prose
	// skill reads raw text by key and takes the text order of undated
	// lines as a recency cue (the last is the newest).
	ProseSkill float64 `json:"prose_skill,omitempty"`
	// ConflictSkill: P(the reader sees a conflict the render shows, the
	// key's values disagreeing with nothing retracting one, and abstains),
	// drawn before any date sort; the same draw abstains on a disagreement
	// it cannot settle. Unset (the hand-set profiles), the conflict style
	// FirstRowBias / AbstainOnConflict decides instead, after the sort.
	ConflictSkill OptionalSkill `json:"conflict_skill,omitzero"`
	// KeyStatusSkill: P(the reader abstains on an unresolved key header);
	// unset, it is StatusSkill (the hand-set profiles: one status skill).
	KeyStatusSkill OptionalSkill `json:"key_status_skill,omitzero"`
	// The reader model over render features (chances.go): logit costs ≥
	// 0 of clutter and the reader's scale of them. All 0 in the hand-set
	// profiles, whose skills then do not depend on the layout.
	ClutterScale   float64 `json:"clutter_scale,omitempty"`
	LengthCost     float64 `json:"length_cost,omitempty"`
	RowsCost       float64 `json:"rows_cost,omitempty"`
	FlatCost       float64 `json:"flat_cost,omitempty"`
	DistractorCost float64 `json:"distractor_cost,omitempty"`
	ProseDateCost  float64 `json:"prose_date_cost,omitempty"`
	NestCost       float64 `json:"nest_cost,omitempty"`
	ParaphraseCost float64 `json:"paraphrase_cost,omitempty"`
}

// KeySkill is the key-status skill: KeyStatusSkill, or StatusSkill when
// it is unset.
func (p Profile) KeySkill() float64 {
	if p.KeyStatusSkill.Set {
		return p.KeyStatusSkill.P
	}
	return p.StatusSkill
}

// OptionalSkill is a probability that may be left unset (then a profile
// falls back to another skill). In JSON it is a number, or absent.
type OptionalSkill struct {
	P   float64
	Set bool
}

// Skill is the set skill p.
func Skill(p float64) OptionalSkill { return OptionalSkill{P: p, Set: true} }

// IsZero reports an unset skill (omitted from JSON).
func (o OptionalSkill) IsZero() bool { return !o.Set }

// MarshalJSON writes the number.
func (o OptionalSkill) MarshalJSON() ([]byte, error) { return json.Marshal(o.P) }

// UnmarshalJSON reads a number and marks the skill set.
func (o *OptionalSkill) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &o.P); err != nil {
		return err
	}
	o.Set = true
	return nil
}

var simProfiles = []Profile{
	{Name: "careful", Summary: "reads status and dates reliably, sorting degrades slowly with rows; abstains on most unresolved conflicts",
		StatusSkill: 0.9, DateSkill: 0.95, DateDecayPerRow: 0.02, FirstRowBias: 0.1, AbstainOnConflict: 0.8},
	{Name: "date-sorter", Summary: "sorts by visible dates, worse on long tables; rarely reads a status column; leans on the first row when a sort fails",
		StatusSkill: 0.1, DateSkill: 0.85, DateDecayPerRow: 0.08, FirstRowBias: 0.5, AbstainOnConflict: 0.5},
	{Name: "status-reader", Summary: "reads status columns reliably; weak at sorting dates; abstains on most conflicts",
		StatusSkill: 0.9, DateSkill: 0.4, DateDecayPerRow: 0.1, FirstRowBias: 0.3, AbstainOnConflict: 0.7},
	{Name: "skimmer", Summary: "takes the first row it sees most of the time; weak at dates and status; loses track after 6 rows of a key",
		StatusSkill: 0.3, DateSkill: 0.3, DateDecayPerRow: 0.15, FirstRowBias: 0.8, AbstainOnConflict: 0.3, RowBudget: 6},
	{Name: "hedger", Summary: "middling status and date skills; abstains on almost every conflict it cannot settle",
		StatusSkill: 0.5, DateSkill: 0.5, DateDecayPerRow: 0.05, FirstRowBias: 0.05, AbstainOnConflict: 0.95},
}

// Profiles lists the built-in simulated reader profiles.
func Profiles() []Profile { return append([]Profile(nil), simProfiles...) }

// ProfileNamed returns the built-in profile called name: a hand-set
// profile (Profiles) or a calibrated one (CalibratedProfiles,
// "fit-FAMILY").
func ProfileNamed(name string) (Profile, error) {
	for _, p := range append(Profiles(), CalibratedProfiles()...) {
		if p.Name == name {
			return p, nil
		}
	}
	return Profile{}, fmt.Errorf("unknown sim profile %q (want one of %s, or @FILE#NAME)", name, simProfileNames())
}

func simProfileNames() string {
	var names []string
	for _, p := range append(Profiles(), CalibratedProfiles()...) {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}

// Get returns the capability called name (see Capabilities).
func (p Profile) Get(name string) (float64, error) {
	switch name {
	case Status:
		return p.StatusSkill, nil
	case Date:
		return p.DateSkill, nil
	case DateDecay:
		return p.DateDecayPerRow, nil
	case Order:
		return p.OrderSkill, nil
	case Lapse:
		return p.Lapse, nil
	case FirstRow:
		return p.FirstRowBias, nil
	case Abstain:
		return p.AbstainOnConflict, nil
	case Rows:
		return float64(p.RowBudget), nil
	case simTokens:
		return float64(p.TokenBudget), nil
	case simBoth:
		return p.BothValues, nil
	case simHedge:
		return p.Hedge, nil
	case simKeyStatus:
		return p.KeySkill(), nil
	case simProse:
		return p.ProseSkill, nil
	case Conflict:
		return p.ConflictSkill.P, nil
	}
	if f := p.costField(name); f != nil {
		return *f, nil
	}
	return 0, fmt.Errorf("unknown sim capability %q (want %s)", name, simCapNames())
}

// maxSimBudget is the largest row or token budget.
const maxSimBudget = math.MaxInt32

// Set returns p with the capability called name set to v (budgets are
// rounded to whole rows or tokens, and must lie in [0, maxSimBudget]); the
// result is validated.
func (p Profile) Set(name string, v float64) (Profile, error) {
	switch name {
	case Status:
		p.StatusSkill = v
	case Date:
		p.DateSkill = v
	case DateDecay:
		p.DateDecayPerRow = v
	case Order:
		p.OrderSkill = v
	case Lapse:
		p.Lapse = v
	case FirstRow:
		p.FirstRowBias = v
	case Abstain:
		p.AbstainOnConflict = v
	case Rows, simTokens:
		if !(v >= 0 && v <= maxSimBudget) { // NaN fails too; int() of 1e300 was negative
			return p, fmt.Errorf("sim profile %q: %s = %v is not a budget in [0, %d]", p.Name, name, v, maxSimBudget)
		}
		if name == Rows {
			p.RowBudget = int(math.Round(v))
		} else {
			p.TokenBudget = int(math.Round(v))
		}
	case simBoth:
		p.BothValues = v
	case simHedge:
		p.Hedge = v
	case simKeyStatus:
		p.KeyStatusSkill = Skill(v)
	case simProse:
		p.ProseSkill = v
	case Conflict:
		p.ConflictSkill = Skill(v)
	default:
		f := p.costField(name)
		if f == nil {
			return p, fmt.Errorf("unknown sim capability %q (want %s)", name, simCapNames())
		}
		*f = v
	}
	return p, p.Validate()
}

func simCapNames() string {
	names := make([]string, len(Capabilities))
	for i, c := range Capabilities {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// Skills lists the profile's capabilities in Capabilities' order,
// "status = 0.9, date = 0.95, …".
func (p Profile) Skills() string {
	parts := make([]string, len(Capabilities))
	for i, c := range Capabilities {
		x, _ := p.Get(c.Name)
		parts[i] = fmt.Sprintf("%s = %g", c.Name, x)
	}
	return strings.Join(parts, ", ")
}

// Validate checks that every probability is in [0, 1], both + hedge is at
// most 1 and the budgets are not negative.
func (p Profile) Validate() error {
	for _, c := range []struct {
		name string
		v    float64
	}{{Status, p.StatusSkill}, {Date, p.DateSkill}, {DateDecay, p.DateDecayPerRow}, {Order, p.OrderSkill}, {Lapse, p.Lapse},
		{FirstRow, p.FirstRowBias}, {Abstain, p.AbstainOnConflict}, {simBoth, p.BothValues}, {simHedge, p.Hedge},
		{simKeyStatus, p.KeySkill()}, {simProse, p.ProseSkill}, {Conflict, p.ConflictSkill.P}} {
		if !(c.v >= 0 && c.v <= 1) {
			return fmt.Errorf("sim profile %q: %s = %v is not a probability in [0, 1]", p.Name, c.name, c.v)
		}
	}
	for _, name := range costNames {
		if v := *p.costField(name); !(v >= 0 && v <= maxCost) {
			return fmt.Errorf("sim profile %q: %s = %v is not a cost in [0, %g] (costs are ≥ 0 by the model's form)", p.Name, name, v, float64(maxCost))
		}
	}
	if p.ClutterScale > 1 {
		return fmt.Errorf("sim profile %q: %s = %v exceeds 1 (a switch that can only turn clutter down: the cost a reader feels never exceeds the cost's evidence range)", p.Name, simClutterScale, p.ClutterScale)
	}
	if p.BothValues+p.Hedge > 1 {
		return fmt.Errorf("sim profile %q: both + hedge = %v exceeds 1 (they share one draw)", p.Name, p.BothValues+p.Hedge)
	}
	if p.RowBudget < 0 || p.TokenBudget < 0 {
		return fmt.Errorf("sim profile %q: negative budget (rows %d, tokens %d)", p.Name, p.RowBudget, p.TokenBudget)
	}
	return nil
}

// maxCost bounds the clutter scale and costs (a logit cost of 50 already
// makes every act impossible on any render).
const maxCost = 50

// costNames are the clutter scale and costs, in Capabilities' order.
var costNames = []string{simClutterScale, simLengthCost, simRowsCost, simFlatCost, simDistractCost, simProseCost, simNestCost, simParaCost}

// costField is the field of the clutter scale or cost called name, nil
// for another name.
func (p *Profile) costField(name string) *float64 {
	switch name {
	case simClutterScale:
		return &p.ClutterScale
	case simLengthCost:
		return &p.LengthCost
	case simRowsCost:
		return &p.RowsCost
	case simFlatCost:
		return &p.FlatCost
	case simDistractCost:
		return &p.DistractorCost
	case simProseCost:
		return &p.ProseDateCost
	case simNestCost:
		return &p.NestCost
	case simParaCost:
		return &p.ParaphraseCost
	}
	return nil
}

// SortProb is the probability that the reader orders rows dated records
// correctly: 1 for fewer than two, DateSkill for two, and
// DateSkill·(1 − DateDecayPerRow)^(rows − 2) beyond.
func (p Profile) SortProb(rows int) float64 {
	if rows < 2 {
		return 1
	}
	return p.DateSkill * math.Pow(1-p.DateDecayPerRow, float64(rows-2))
}

// Sim is a stochastic simulated reader: a SIMULATION, not a language model.
// It reads the render text exactly like Scripted (same parser, key choice
// and decision steps) but with capabilities drawn per item:
//
//   - six uniforms u_status, u_sort, u_conflict, u_phrase, u_order, u_lapse
//     are drawn from a PCG seeded by hash(seed, profile name, qid). The memory is deliberately NOT
//     part of the seed: the same question gets the same draws under every
//     memory class, so paired differences between memories (the render and
//     mechanism terms) compare one reader state on two renders (a paired
//     design) and reflect the renders, not reader noise;
//   - the reader uses the status column iff u_status < StatusSkill;
//   - it takes a newest-first list of dated records as ordered, without a
//     sort, iff u_order < OrderSkill;
//   - having settled a snapshot's value, it answers another value shown
//     for the key instead iff u_lapse < Lapse;
//   - each date sort over n dated records succeeds iff u_sort <
//     SortProb(n); a failed sort leaves the records in text order, so the
//     conflict policy then sees them as if undated;
//   - when candidates still disagree it takes the first in the text iff
//     u_conflict < FirstRowBias, else abstains iff u_conflict < FirstRowBias
//   - (1 − FirstRowBias)·AbstainOnConflict, else takes the majority value;
//   - RowBudget and TokenBudget are hard limits;
//   - a snapshot value answer B becomes "was A, now B" iff u_phrase <
//     BothValues (A: the first other value of the key it read; none read,
//     B stays) and "probably B" iff BothValues ≤ u_phrase < BothValues +
//     Hedge. Both are 0 in the built-in profiles, which therefore answer
//     exactly as before these capabilities existed;
//   - a relation-type answer comes only from a status cell the reader read
//     (REFINED → refines, DEPRECATED → replaces); when the render shows no
//     type it answers "replaces", as a scripted reader does;
//   - a render it cannot read (raw event text with no value pattern for the
//     attribute) gives ABSTAIN marked reader.Output.Unreadable.
//
// Because a capability is used iff u < p with u fixed per question,
// raising a skill only turns failures into successes on the same questions
// (common random numbers): sweeps over a skill are monotone per question,
// and a profile whose capability is overridden (sim:NAME@CAP=V) keeps its
// draws. Every reader.Output.Note states the draws, e.g. "sim:careful: status read
// (p=0.90); date sort failed (p=0.62 at 7 rows); on conflict: pick-first
// (p=0.10) → key …".
type Sim struct {
	name string
	prof Profile
	seed uint64
}

// New makes a simulated reader of profile p with draw seed seed, named
// "sim:NAME" (with "@seed=S" when seed is not 0).
func New(p Profile, seed uint64) (*Sim, error) {
	if strings.TrimSpace(p.Name) == "" {
		return nil, fmt.Errorf("sim profile has no name")
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	name := p.Name
	if seed != 0 {
		name += "@seed=" + strconv.FormatUint(seed, 10)
	}
	return &Sim{name: name, prof: p, seed: seed}, nil
}

// Parse makes the simulated reader of a spec "PROFILE[@KEY=VALUE]...":
// PROFILE is a built-in profile (Profiles, CalibratedProfiles) or
// "@FILE#NAME", the profile NAME of a calibration file (`esr calibrate`),
// with optional overrides, KEY one of seed or a capability name
// (Capabilities), e.g. "careful@seed=7", "fit-qwen3-8b@status=0.5" or
// "@fits.json#fit-mistral-7b@seed=2" or "careful@both=0.3@hedge=0.2"
// (FILE may not contain "@"). The
// reader's spec is {KindSim, spec} (sim:SPEC).
func Parse(spec string) (*Sim, error) {
	spec = strings.TrimSpace(spec)
	parts := strings.Split(spec, "@")
	var p Profile
	var err error
	if parts[0] == "" && len(parts) > 1 {
		p, err = loadFileProfile("@" + parts[1])
		parts = parts[1:]
	} else {
		p, err = ProfileNamed(parts[0])
	}
	if err != nil {
		return nil, fmt.Errorf("sim reader %q: %w", spec, err)
	}
	var seed uint64
	given := map[string]bool{}
	for _, kv := range parts[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("sim reader %q: %q is not KEY=VALUE", spec, kv)
		}
		if given[k] {
			return nil, fmt.Errorf("sim reader %q: %s given twice", spec, k)
		}
		given[k] = true
		if k == Rows || k == simTokens {
			// A budget is a count of rows or tokens, written as one.
			n, err := strconv.ParseUint(v, 10, 31)
			if err != nil {
				return nil, fmt.Errorf("sim reader %q: %s=%s is not a whole number in [0, %d]", spec, k, v, maxSimBudget)
			}
			if p, err = p.Set(k, float64(n)); err != nil {
				return nil, fmt.Errorf("sim reader %q: %w", spec, err)
			}
			continue
		}
		if k == "seed" {
			if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
				return nil, fmt.Errorf("sim reader %q: seed %q is not a number ≥ 0", spec, v)
			}
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, fmt.Errorf("sim reader %q: %s=%q is not a number", spec, k, v)
		}
		if p, err = p.Set(k, f); err != nil {
			return nil, fmt.Errorf("sim reader %q: %w", spec, err)
		}
	}
	return &Sim{name: spec, prof: p, seed: seed}, nil
}

func (s *Sim) Spec() reader.Spec     { return reader.Spec{Kind: reader.KindSim, Name: s.name} }
func (s *Sim) Family() reader.Family { return reader.Family(s.Spec()) }

// ScriptedProfile is the reader's profile.
func (s *Sim) Profile() Profile { return s.prof }

// Seed is the reader's draw seed.
func (s *Sim) Seed() uint64 { return s.seed }

// Config of a sim reader is its whole profile and seed (result caches key
// on it).
func (s *Sim) Config() any {
	return struct {
		Profile Profile
		Seed    uint64
	}{s.prof, s.seed}
}

// Draws are the uniforms a sim reader draws for one question. Phrase,
// the fourth draw, decides how a snapshot answer is worded (BothValues,
// Hedge); drawing it after the others leaves their values unchanged.
type Draws struct {
	Status, Sort, Conflict, Phrase, Order, Lapse, Prose float64
}

// Draws are the reader's uniforms for question qid: from a PCG seeded by
// (seed, profile name, qid), never by the memory.
func (s *Sim) Draws(qid string) Draws {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], s.seed)
	h.Write(b[:])
	h.Write([]byte("\x00sim\x00" + s.prof.Name + "\x00" + qid))
	k := h.Sum64()
	r := rand.New(rand.NewPCG(k, k^0x9e3779b97f4a7c15^s.seed))
	// Phrase, Order and Lapse are drawn after the first three, in the order
	// the capabilities were added, so each earlier draw keeps its value.
	d := Draws{Status: r.Float64(), Sort: r.Float64(), Conflict: r.Float64(), Phrase: r.Float64()}
	d.Order, d.Lapse = r.Float64(), r.Float64()
	d.Prose = r.Float64()
	return d
}

// Read answers from the render text with the capabilities drawn for
// in.QID.
func (s *Sim) Read(ctx context.Context, in reader.Input) (reader.Output, error) {
	if err := ctx.Err(); err != nil {
		return reader.Output{}, err
	}
	d, note, tokens := s.decide(in)
	return reader.Output{Answer: d.answer, Raw: d.answer.String(), ContextTokens: tokens,
		Note: s.Spec().String() + ": " + note, Decision: d.note, Unreadable: d.why == unreadable}, nil
}

// decide also returns the render's length in tokens (reader.CountTokens), which
// its features measured. The features and the policy share one parse of
// the render (parseRender).
func (s *Sim) decide(in reader.Input) (decision, string, int) {
	p := s.prof
	u := s.Draws(in.QID)
	f := featuresOf(in, parseRender(in.Context))
	ch := p.Chances(f)
	var steps []string
	if p.ClutterScale > 0 {
		steps = append(steps, fmt.Sprintf("render clutter %.2f logit", ch.Clutter))
	}
	// Row and key status share the status draw: a reader that reads one
	// with the smaller probability reads the other too.
	caps := ScriptedCapabilities{UsesStatus: u.Status < ch.Row, SortsByTime: p.DateSkill > 0, TokenBudget: p.TokenBudget}
	keyStatus := u.Status < ch.Key
	if caps.UsesStatus {
		steps = append(steps, fmt.Sprintf("status read (p=%.2f)", ch.Row))
	} else {
		steps = append(steps, fmt.Sprintf("status not read (p=%.2f)", ch.Row))
	}
	if p.KeyStatusSkill.Set {
		steps = append(steps, fmt.Sprintf("key status %s (p=%.2f)", map[bool]string{true: "read", false: "not read"}[keyStatus], ch.Key))
	}
	caps.OnConflict = p.conflictOf(u.Conflict, ch)
	pFirst, pAbstain := p.conflictPolicy(ch)
	switch caps.OnConflict {
	case ConflictFirst:
		steps = append(steps, fmt.Sprintf("on conflict: pick-first (p=%.2f)", pFirst))
	case ConflictAbstain:
		if p.ConflictSkill.Set {
			steps = append(steps, fmt.Sprintf("sees a conflict (p=%.2f)", pAbstain))
		} else {
			steps = append(steps, fmt.Sprintf("on conflict: abstain (p=%.2f)", pAbstain))
		}
	default:
		steps = append(steps, fmt.Sprintf("on conflict: majority (p=%.2f)", 1-pFirst-pAbstain))
	}
	if p.TokenBudget > 0 {
		steps = append(steps, fmt.Sprintf("reads %d tokens", p.TokenBudget))
	}
	readsOrder := u.Order < ch.Order
	if p.OrderSkill > 0 {
		if readsOrder {
			steps = append(steps, fmt.Sprintf("reads declared newest-first order (p=%.2f)", ch.Order))
		} else {
			steps = append(steps, fmt.Sprintf("does not read order (p=%.2f)", ch.Order))
		}
	}
	lapse := u.Lapse < ch.Lapse
	if ch.Lapse > 0 {
		steps = append(steps, fmt.Sprintf("lapse %s (p=%.2f)", map[bool]string{true: "drawn", false: "not drawn"}[lapse], ch.Lapse))
	}
	proseOK := u.Prose < ch.Prose
	pol := policy{caps: caps, rowStatus: caps.UsesStatus, keyStatus: keyStatus, rowBudget: p.RowBudget, readsOrder: readsOrder, lapse: lapse,
		prose: p.ProseSkill > 0, proseOK: proseOK, proseP: ch.Prose, textOrder: p.ProseSkill > 0, conflictAct: p.ConflictSkill.Set,
		sortOK: func(n int) bool {
			q := ch.Sort(n)
			ok := u.Sort < q
			what := "failed"
			if ok {
				what = "ok"
			}
			steps = append(steps, fmt.Sprintf("date sort %s (p=%.2f at %d rows)", what, q, n))
			return ok
		}}
	if p.DateSkill == 0 {
		steps = append(steps, "no date sort (p=0)")
	}
	d := pol.decide(in)
	steps = append(steps, pol.notes...)
	if w, how := s.phrase(d, u.Phrase, queryType(in)); how != "" {
		d.answer = w
		d.note += "; " + how
	}
	return d, strings.Join(steps, "; ") + " → " + d.note, f.Tokens
}

// conflictPolicy is the probability of each way the conflict draw
// u_conflict goes, first in text and abstain (the rest: the majority), on
// a render with chances c.
//
// With a conflict skill the reader first sees the conflict or not: it
// abstains iff u < c.Conflict, and otherwise takes the first value with
// FirstRowBias, else the majority (a tie: the first); so raising the
// conflict skill only turns picks into abstentions on the same questions.
// Without one, the hand-set conflict style: first iff u < FirstRowBias,
// else abstain with AbstainOnConflict, else the majority (a tie
// abstains).
func (p Profile) conflictPolicy(c Chances) (pFirst, pAbstain float64) {
	if p.ConflictSkill.Set {
		return (1 - c.Conflict) * p.FirstRowBias, c.Conflict
	}
	return p.FirstRowBias, (1 - p.FirstRowBias) * p.AbstainOnConflict
}

// conflictOf is the conflict policy the draw u_conflict = u gives on a
// render with chances c (see conflictPolicy for the split).
func (p Profile) conflictOf(u float64, c Chances) string {
	pFirst, pAbstain := p.conflictPolicy(c)
	if p.ConflictSkill.Set {
		switch {
		case u < pAbstain:
			return ConflictAbstain
		case u < pAbstain+pFirst:
			return ConflictFirst
		}
		return ConflictMajority
	}
	switch {
	case u < pFirst:
		return ConflictFirst
	case u < pFirst+pAbstain:
		return ConflictAbstain
	}
	return ConflictMajority
}

// Phrase kinds of a sim reader's snapshot answer (the u_phrase draw).
const (
	phrasePlain = ""
	phraseBoth  = "both"
	phraseHedge = "hedge"
)

// phraseOf is the phrase kind u_phrase = u chooses: both values iff
// u < BothValues, a hedge iff BothValues ≤ u < BothValues + Hedge.
func (p Profile) phraseOf(u float64) string {
	switch {
	case u < p.BothValues:
		return phraseBoth
	case u < p.BothValues+p.Hedge:
		return phraseHedge
	}
	return phrasePlain
}

// phrase words a snapshot value answer as "was A, now B" (u < BothValues)
// or "probably B" (BothValues ≤ u < BothValues + Hedge); how is "" when
// the answer stays as it is.
func (s *Sim) phrase(d decision, u float64, qt esr.QueryType) (esr.Answer, string) {
	p := s.prof
	if qt != esr.Snapshot || d.answer.Abstain || p.BothValues+p.Hedge == 0 {
		return d.answer, ""
	}
	return worded(p, d, p.phraseOf(u))
}

// worded is d's answer in phrase kind k, with what happened.
func worded(p Profile, d decision, k string) (esr.Answer, string) {
	b := d.answer.Value
	switch k {
	case phraseBoth:
		for _, v := range d.values {
			if !sameValue(v, b) {
				return esr.Says("was " + v + ", now " + b), fmt.Sprintf("states both values (p=%.2f)", p.BothValues)
			}
		}
		return d.answer, fmt.Sprintf("would state both values (p=%.2f) but read no other value", p.BothValues)
	case phraseHedge:
		return esr.Says("probably " + b), fmt.Sprintf("hedges (p=%.2f)", p.Hedge)
	}
	return d.answer, ""
}
