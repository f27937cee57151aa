package reader

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

	"github.com/esrkit/esrkit/esr"
)

// This file is the stochastic simulated reader ("sim:NAME"): the scripted
// reader's eyes and decision steps (internal/layout, scripted.go), with each
// capability a probability drawn per question instead of an all-or-nothing
// rule. Like the scripted readers it is a SIMULATION for teaching: it shows
// how a reader's skills move the render and mechanism terms, not what an
// LLM would score.

// Capability names of SimProfile, for SimProfile.Get/Set, sim:NAME@CAP=V
// specs and the phase diagram's axes.
const (
	SimStatus    = "status"     // StatusSkill
	SimDate      = "date"       // DateSkill
	SimDateDecay = "date-decay" // DateDecayPerRow
	SimOrder     = "order"      // OrderSkill
	SimLapse     = "lapse"      // Lapse
	SimFirstRow  = "first-row"  // FirstRowBias
	SimAbstain   = "abstain"    // AbstainOnConflict
	SimRows      = "rows"       // RowBudget
	simTokens    = "tokens"     // TokenBudget
	simBoth      = "both"       // BothValues
	simHedge     = "hedge"      // Hedge
	// The reader model over render features (features.go, chances.go).
	SimKeyStatus  = "key-status"     // KeyStatusSkill
	SimDifficulty = "difficulty"     // DifficultyScale
	SimInlineCost = "inline-cost"    // InlineDateCost
	SimMemberCost = "member-cost"    // MemberDateCost
	SimFlatLoss   = "flat-sort-loss" // FlatSortLoss
	SimWindowLift = "window-lift"    // WindowStatusLift
)

// SimCapability documents one capability of a simulated reader: what it
// models and the paper's evidence for it.
type SimCapability struct {
	Name     string `json:"name"`  // the name Get/Set and specs use
	Field    string `json:"field"` // the SimProfile field
	Models   string `json:"models"`
	Evidence string `json:"evidence"`
}

// SimCapabilities are the capabilities of a simulated reader, with what
// each models and the paper's evidence for it.
var SimCapabilities = []SimCapability{
	{SimStatus, "StatusSkill",
		"probability that the reader uses the rows' status when the render shows one (LIVE / DEPRECATED / REFINED cells, a Graphiti invalid_at), before render difficulty (see difficulty)",
		"§4.4 and App. E, Tables 8–9: the ledger's unresolved status is on the rendered row yet the default decode ignores it; a strict prompt that says to read it moves CSC by +0.226 over the row-level oracle, and the same prompt does not move GraphRAG+abstain (+0.006): reading a status column is a reader skill, not a property of the memory"},
	{SimKeyStatus, "KeyStatusSkill",
		"probability that the reader abstains on a key whose header says \"status: unresolved\" (drawn with the status uniform: a reader that reads row status with p and key status with q does both with min(p, q)); unset, it is the status skill",
		"Table 16: RevisionLedger's abstain decisions agree with gold abstention (κ 0.09–0.30 per family) where GraphRAG+abstain's do not (κ 0.02–0.10): the unresolved header is read, by some families more than others; §E: the rule-scored unresolved path is the brittle decoder case (a false unresolved costs an answer)"},
	{SimDate, "DateSkill",
		"probability that the reader correctly orders two dated records and takes the newest as current",
		"§3–4.1: the paper's time-only baselines (latest-only, timestamp reranking, temporal chain-of-thought) answer from dates alone; App. D: on TempLAMA streams \"sorting unordered closed edges is harder than reading a pre-ordered history\""},
	{SimDateDecay, "DateDecayPerRow",
		"each dated record beyond two multiplies the date-sort probability by (1 − DateDecayPerRow): sorting gets worse as rows grow",
		"App. C, Table 12: stream-length bins move the RevisionLedger − Graphiti gap monotonically (−0.204 → +0.023); App. D: the ordering residual is stream-length-dependent; App. A premise (R), render monotonicity: decode capacity is non-increasing in render length/complexity (Liu et al. 2024b)"},
	{SimOrder, "OrderSkill",
		"probability that the reader reads the top row of a block whose layout declares its rows newest first (a ledger history, dated or not) as the current one, without sorting; a list that merely happens to be sorted (a shuffle) does not count; before render difficulty",
		"App. D: \"sorting unordered closed edges is harder than reading a pre-ordered history\"; §4.1: the ledger's layout is easier to read than the d-blind control's shuffled facts with the same dates, the render term (+0.159); premise (R)"},
	{SimFirstRow, "FirstRowBias",
		"when several candidate values remain, probability that the reader takes the first one in the text",
		"App. A premise (R) and Conjecture 1: the reader term grows with the position prior of the answer field (long-context position bias, Liu et al. 2024b); §4.1: the ledger's newest-first layout is \"easier for the answer-LLM to read\" than the d-blind control's unordered facts, the render term (+0.159)"},
	{SimAbstain, "AbstainOnConflict",
		"when several candidate values remain and it does not take the first, probability that the reader abstains (otherwise it takes the most frequent value; a tie abstains)",
		"§4.1: GraphRAG+abstain \"can detect conflict, but without the supersession edge it often abstains\"; App. E, Tables 16 and 19: prompt-only abstention is poorly calibrated and moves with the abstain wording; AbstentionBench (Kirichenko et al. 2026): abstention is brittle in current LLMs"},
	{SimLapse, "Lapse",
		"having settled a snapshot's current value, probability that the reader answers another value the render shows for the key instead (the first differing one in the text): a stale or mixed-up answer; render difficulty raises it (1 − (1 − lapse)·ease)",
		"Table 5: the answer models stay far below the oracle on every class (RevisionLedger .408 on reverted-revert, .343 on monotonic) although the ledger shows which row is live; DyKnow's \"outdated\" answer label; App. A premise (R): a decode gap that no render removes"},
	{SimRows, "RowBudget",
		"the reader loses track past this many records of the asked key (and raw event lines); 0 reads them all",
		"App. A Conjecture 1: the reader term grows with the render's number of candidate fields (distractor sensitivity, Cuconasu et al. 2024)"},
	{simTokens, "TokenBudget",
		"the reader reads only the first TokenBudget tokens of the context (whole lines); 0 reads everything",
		"App. A premise (R): decode capacity is non-increasing in render length; §4.3: appending raw events to the render reverses the provenance sign (−0.236)"},
	{simBoth, "BothValues",
		"probability that a snapshot answer states the prior value beside the current one, \"was A, now B\" (A: the first other value of the key the reader read; without one the answer stays B); 0 in every built-in profile",
		"LongMemEval's knowledge-update judge counts a response with \"previous information along with an updated answer\" as correct (xiaowu0162/LongMemEval, evaluate_qa.py); a judge that accepts it and one that does not score the same answer apart, so this capability makes the judge term visible (§4.1's DeepSeek vs MiniMax columns)"},
	{simHedge, "Hedge",
		"probability that a snapshot answer is hedged, \"probably B\" (drawn with the same uniform as BothValues: both iff u < BothValues, hedge iff BothValues ≤ u < BothValues + Hedge); 0 in every built-in profile",
		"App. E: abstention and hedging move with the prompt's wording (Tables 16, 19); a strict judge rejects a hedged value that a containment judge accepts"},
	{SimDifficulty, "DifficultyScale",
		"how much render difficulty costs this reader: every reading skill (status, order, date sort) is multiplied, and the chance of not lapsing too, by ease = exp(−difficulty·h), h = tokens/1000 + inline-cost·[dates inline] + member-cost·[dates in a JSON member]; 0: the layout's length and date placement do not matter",
		"App. A premise (R): decode capacity is non-increasing in render length/complexity (Liu et al. 2024b); Table 17: the render format moves the ledger's gain by 0.06–0.15 within a family, most for the family with the largest gain (Qwen3-8B), so the cost scales per family"},
	{SimInlineCost, "InlineDateCost",
		"difficulty a render adds when its dates stand inside prose (verbose ledger rows, event lines, latest-only's \"as of\"), in thousands of tokens' worth; shared by the paper panel",
		"Table 17: the verbose format, one sentence per row, gives the smallest ledger gain in every family (0.041–0.170 against 0.072–0.312 for the others)"},
	{SimMemberCost, "MemberDateCost",
		"difficulty a render adds when its dates are JSON members (ledger json rows, Graphiti facts, Mem0 memories); shared by the paper panel",
		"Table 17: the json format's gain against compact's, the same rows as members; §4.3: a heavier deployed render hurts"},
	{SimFlatLoss, "FlatSortLoss",
		"share of date sorts lost when a key's rows are flat (each repeating entity and attribute, mixed with other keys' rows) rather than one block under a header; shared by the paper panel",
		"§4.1: the ledger's layout is easier to read than GraphRAG+abstain's \"flat entity-attribute groupings\" with the same dates (the render term, +0.159); App. D: \"sorting unordered closed edges is harder than reading a pre-ordered history\""},
	{SimWindowLift, "WindowStatusLift",
		"logit shift of the status skill when the status is shown as a validity window (invalid_at \"present\" or a closing date) rather than a status word; shared by the paper panel; may be negative",
		"Table 2: coarse-d invalidation pays (+0.087 over the render-matched control) where the fine ledger's status cells do not (+0.025); Tables 8–9: a status word is acted on poorly unless a strict prompt forces it"},
}

// SimProfile is a simulated reader's skills. The probabilities are drawn
// per question (see Sim); the budgets are hard limits.
type SimProfile struct {
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
	// KeyStatusSkill: P(the reader abstains on an unresolved key header);
	// unset, it is StatusSkill (the hand-set profiles: one status skill).
	KeyStatusSkill OptionalSkill `json:"key_status_skill,omitzero"`
	// The reader model over render features (chances.go): all 0 in the
	// hand-set profiles, whose skills then do not depend on the layout.
	DifficultyScale  float64 `json:"difficulty_scale,omitempty"`
	InlineDateCost   float64 `json:"inline_date_cost,omitempty"`
	MemberDateCost   float64 `json:"member_date_cost,omitempty"`
	FlatSortLoss     float64 `json:"flat_sort_loss,omitempty"`
	WindowStatusLift float64 `json:"window_status_lift,omitempty"`
}

// KeySkill is the key-status skill: KeyStatusSkill, or StatusSkill when
// it is unset.
func (p SimProfile) KeySkill() float64 {
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

var simProfiles = []SimProfile{
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

// SimProfiles lists the built-in simulated reader profiles.
func SimProfiles() []SimProfile { return append([]SimProfile(nil), simProfiles...) }

// SimProfileNamed returns the built-in profile called name: a hand-set
// profile (SimProfiles) or a calibrated one (CalibratedProfiles,
// "fit-FAMILY").
func SimProfileNamed(name string) (SimProfile, error) {
	for _, p := range append(SimProfiles(), CalibratedProfiles()...) {
		if p.Name == name {
			return p, nil
		}
	}
	return SimProfile{}, fmt.Errorf("unknown sim profile %q (want one of %s, or @FILE#NAME)", name, simProfileNames())
}

func simProfileNames() string {
	var names []string
	for _, p := range append(SimProfiles(), CalibratedProfiles()...) {
		names = append(names, p.Name)
	}
	return strings.Join(names, ", ")
}

// Get returns the capability called name (see SimCapabilities).
func (p SimProfile) Get(name string) (float64, error) {
	switch name {
	case SimStatus:
		return p.StatusSkill, nil
	case SimDate:
		return p.DateSkill, nil
	case SimDateDecay:
		return p.DateDecayPerRow, nil
	case SimOrder:
		return p.OrderSkill, nil
	case SimLapse:
		return p.Lapse, nil
	case SimFirstRow:
		return p.FirstRowBias, nil
	case SimAbstain:
		return p.AbstainOnConflict, nil
	case SimRows:
		return float64(p.RowBudget), nil
	case simTokens:
		return float64(p.TokenBudget), nil
	case simBoth:
		return p.BothValues, nil
	case simHedge:
		return p.Hedge, nil
	case SimKeyStatus:
		return p.KeySkill(), nil
	case SimDifficulty:
		return p.DifficultyScale, nil
	case SimInlineCost:
		return p.InlineDateCost, nil
	case SimMemberCost:
		return p.MemberDateCost, nil
	case SimFlatLoss:
		return p.FlatSortLoss, nil
	case SimWindowLift:
		return p.WindowStatusLift, nil
	}
	return 0, fmt.Errorf("unknown sim capability %q (want %s)", name, simCapNames())
}

// maxSimBudget is the largest row or token budget.
const maxSimBudget = math.MaxInt32

// Set returns p with the capability called name set to v (budgets are
// rounded to whole rows or tokens, and must lie in [0, maxSimBudget]); the
// result is validated.
func (p SimProfile) Set(name string, v float64) (SimProfile, error) {
	switch name {
	case SimStatus:
		p.StatusSkill = v
	case SimDate:
		p.DateSkill = v
	case SimDateDecay:
		p.DateDecayPerRow = v
	case SimOrder:
		p.OrderSkill = v
	case SimLapse:
		p.Lapse = v
	case SimFirstRow:
		p.FirstRowBias = v
	case SimAbstain:
		p.AbstainOnConflict = v
	case SimRows, simTokens:
		if !(v >= 0 && v <= maxSimBudget) { // NaN fails too; int() of 1e300 was negative
			return p, fmt.Errorf("sim profile %q: %s = %v is not a budget in [0, %d]", p.Name, name, v, maxSimBudget)
		}
		if name == SimRows {
			p.RowBudget = int(math.Round(v))
		} else {
			p.TokenBudget = int(math.Round(v))
		}
	case simBoth:
		p.BothValues = v
	case simHedge:
		p.Hedge = v
	case SimKeyStatus:
		p.KeyStatusSkill = Skill(v)
	case SimDifficulty:
		p.DifficultyScale = v
	case SimInlineCost:
		p.InlineDateCost = v
	case SimMemberCost:
		p.MemberDateCost = v
	case SimFlatLoss:
		p.FlatSortLoss = v
	case SimWindowLift:
		p.WindowStatusLift = v
	default:
		return p, fmt.Errorf("unknown sim capability %q (want %s)", name, simCapNames())
	}
	return p, p.Validate()
}

func simCapNames() string {
	names := make([]string, len(SimCapabilities))
	for i, c := range SimCapabilities {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// Skills lists the profile's capabilities in SimCapabilities' order,
// "status = 0.9, date = 0.95, …".
func (p SimProfile) Skills() string {
	parts := make([]string, len(SimCapabilities))
	for i, c := range SimCapabilities {
		x, _ := p.Get(c.Name)
		parts[i] = fmt.Sprintf("%s = %g", c.Name, x)
	}
	return strings.Join(parts, ", ")
}

// Validate checks that every probability is in [0, 1], both + hedge is at
// most 1 and the budgets are not negative.
func (p SimProfile) Validate() error {
	for _, c := range []struct {
		name string
		v    float64
	}{{SimStatus, p.StatusSkill}, {SimDate, p.DateSkill}, {SimDateDecay, p.DateDecayPerRow}, {SimOrder, p.OrderSkill}, {SimLapse, p.Lapse},
		{SimFirstRow, p.FirstRowBias}, {SimAbstain, p.AbstainOnConflict}, {simBoth, p.BothValues}, {simHedge, p.Hedge},
		{SimKeyStatus, p.KeySkill()}, {SimFlatLoss, p.FlatSortLoss}} {
		if !(c.v >= 0 && c.v <= 1) {
			return fmt.Errorf("sim profile %q: %s = %v is not a probability in [0, 1]", p.Name, c.name, c.v)
		}
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{SimDifficulty, p.DifficultyScale}, {SimInlineCost, p.InlineDateCost}, {SimMemberCost, p.MemberDateCost}} {
		if !(c.v >= 0 && c.v <= maxCost) {
			return fmt.Errorf("sim profile %q: %s = %v is not a cost in [0, %g]", p.Name, c.name, c.v, float64(maxCost))
		}
	}
	if !(math.Abs(p.WindowStatusLift) <= maxCost) {
		return fmt.Errorf("sim profile %q: %s = %v is not a logit shift in [−%g, %g]", p.Name, SimWindowLift, p.WindowStatusLift, float64(maxCost), float64(maxCost))
	}
	if p.BothValues+p.Hedge > 1 {
		return fmt.Errorf("sim profile %q: both + hedge = %v exceeds 1 (they share one draw)", p.Name, p.BothValues+p.Hedge)
	}
	if p.RowBudget < 0 || p.TokenBudget < 0 {
		return fmt.Errorf("sim profile %q: negative budget (rows %d, tokens %d)", p.Name, p.RowBudget, p.TokenBudget)
	}
	return nil
}

// maxCost bounds the render-difficulty parameters (a cost of 50 already
// makes every skill 0 on any render).
const maxCost = 50

// SortProb is the probability that the reader orders rows dated records
// correctly: 1 for fewer than two, DateSkill for two, and
// DateSkill·(1 − DateDecayPerRow)^(rows − 2) beyond.
func (p SimProfile) SortProb(rows int) float64 {
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
//     attribute) gives ABSTAIN with ReasonUnreadable in the note.
//
// Because a capability is used iff u < p with u fixed per question,
// raising a skill only turns failures into successes on the same questions
// (common random numbers): sweeps over a skill are monotone per question,
// and a profile whose capability is overridden (sim:NAME@CAP=V) keeps its
// draws. Every Output.Note states the draws, e.g. "sim:careful: status read
// (p=0.90); date sort failed (p=0.62 at 7 rows); on conflict: pick-first
// (p=0.10) → key …".
type Sim struct {
	name string
	prof SimProfile
	seed uint64
}

// NewSim makes a simulated reader of profile p with draw seed seed, named
// "sim:NAME" (with "@seed=S" when seed is not 0).
func NewSim(p SimProfile, seed uint64) (*Sim, error) {
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

// ParseSim makes the simulated reader of a spec "PROFILE[@KEY=VALUE]...":
// PROFILE is a built-in profile (SimProfiles, CalibratedProfiles) or
// "@FILE#NAME", the profile NAME of a calibration file (`esr calibrate`),
// with optional overrides, KEY one of seed or a capability name
// (SimCapabilities), e.g. "careful@seed=7", "fit-qwen3-8b@status=0.5" or
// "@fits.json#fit-mistral-7b@seed=2" or "careful@both=0.3@hedge=0.2"
// (FILE may not contain "@"). The
// reader's name is "sim:" + spec.
func ParseSim(spec string) (*Sim, error) {
	spec = strings.TrimSpace(spec)
	parts := strings.Split(spec, "@")
	var p SimProfile
	var err error
	if parts[0] == "" && len(parts) > 1 {
		p, err = loadFileProfile("@" + parts[1])
		parts = parts[1:]
	} else {
		p, err = SimProfileNamed(parts[0])
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
		if k == SimRows || k == simTokens {
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

func (s *Sim) Name() string   { return Spec{KindSim, s.name}.String() }
func (s *Sim) Family() string { return s.Name() }

// Profile is the reader's profile.
func (s *Sim) Profile() SimProfile { return s.prof }

// Seed is the reader's draw seed.
func (s *Sim) Seed() uint64 { return s.seed }

// Config of a sim reader is its whole profile and seed (result caches key
// on it).
func (s *Sim) Config() any {
	return struct {
		Profile SimProfile
		Seed    uint64
	}{s.prof, s.seed}
}

// SimDraws are the uniforms a sim reader draws for one question. Phrase,
// the fourth draw, decides how a snapshot answer is worded (BothValues,
// Hedge); drawing it after the others leaves their values unchanged.
type SimDraws struct {
	Status, Sort, Conflict, Phrase, Order, Lapse float64
}

// Draws are the reader's uniforms for question qid: from a PCG seeded by
// (seed, profile name, qid), never by the memory.
func (s *Sim) Draws(qid string) SimDraws {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], s.seed)
	h.Write(b[:])
	h.Write([]byte("\x00sim\x00" + s.prof.Name + "\x00" + qid))
	k := h.Sum64()
	r := rand.New(rand.NewPCG(k, k^0x9e3779b97f4a7c15^s.seed))
	// Phrase, Order and Lapse are drawn after the first three, in the order
	// the capabilities were added, so each earlier draw keeps its value.
	d := SimDraws{Status: r.Float64(), Sort: r.Float64(), Conflict: r.Float64(), Phrase: r.Float64()}
	d.Order, d.Lapse = r.Float64(), r.Float64()
	return d
}

// Read answers from the render text with the capabilities drawn for
// in.QID.
func (s *Sim) Read(ctx context.Context, in Input) (Output, error) {
	if err := ctx.Err(); err != nil {
		return Output{}, err
	}
	d, note, tokens := s.decide(in)
	return Output{Answer: d.answer, Raw: d.answer.String(), ContextTokens: tokens,
		Note: s.Name() + ": " + note, Decision: d.note}, nil
}

// decide also returns the render's length in tokens (CountTokens), which
// its features measured. The features and the policy share one parse of
// the render (parseRender).
func (s *Sim) decide(in Input) (decision, string, int) {
	p := s.prof
	u := s.Draws(in.QID)
	f := featuresOf(in, parseRender(in.Context))
	ch := p.Chances(f)
	var steps []string
	if p.DifficultyScale > 0 {
		steps = append(steps, fmt.Sprintf("render difficulty %.2f, ease %.2f", ch.Difficulty, ch.Ease))
	}
	// Row and key status share the status draw: a reader that reads one
	// with the smaller probability reads the other too.
	caps := Capabilities{UsesStatus: u.Status < ch.Row, SortsByTime: p.DateSkill > 0, TokenBudget: p.TokenBudget}
	keyStatus := u.Status < ch.Key
	if caps.UsesStatus {
		steps = append(steps, fmt.Sprintf("status read (p=%.2f)", ch.Row))
	} else {
		steps = append(steps, fmt.Sprintf("status not read (p=%.2f)", ch.Row))
	}
	if p.KeyStatusSkill.Set {
		steps = append(steps, fmt.Sprintf("key status %s (p=%.2f)", map[bool]string{true: "read", false: "not read"}[keyStatus], ch.Key))
	}
	pFirst := p.FirstRowBias
	pAbstain := (1 - p.FirstRowBias) * p.AbstainOnConflict
	switch {
	case u.Conflict < pFirst:
		caps.OnConflict = ConflictFirst
		steps = append(steps, fmt.Sprintf("on conflict: pick-first (p=%.2f)", pFirst))
	case u.Conflict < pFirst+pAbstain:
		caps.OnConflict = ConflictAbstain
		steps = append(steps, fmt.Sprintf("on conflict: abstain (p=%.2f)", pAbstain))
	default:
		caps.OnConflict = ConflictMajority
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
	pol := policy{caps: caps, rowStatus: caps.UsesStatus, keyStatus: keyStatus, rowBudget: p.RowBudget, readsOrder: readsOrder, lapse: lapse, sortOK: func(n int) bool {
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

// Phrase kinds of a sim reader's snapshot answer (the u_phrase draw).
const (
	phrasePlain = ""
	phraseBoth  = "both"
	phraseHedge = "hedge"
)

// phraseOf is the phrase kind u_phrase = u chooses: both values iff
// u < BothValues, a hedge iff BothValues ≤ u < BothValues + Hedge.
func (p SimProfile) phraseOf(u float64) string {
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
func worded(p SimProfile, d decision, k string) (esr.Answer, string) {
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
