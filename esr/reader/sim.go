package reader

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// This file is the stochastic simulated reader ("sim:NAME"): the scripted
// reader's eyes and decision steps (layout.go, scripted.go), with each
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
	SimFirstRow  = "first-row"  // FirstRowBias
	SimAbstain   = "abstain"    // AbstainOnConflict
	SimRows      = "rows"       // RowBudget
	SimTokens    = "tokens"     // TokenBudget
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
		"probability that the reader uses an explicit status column (LIVE / DEPRECATED, \"status: unresolved\", a Graphiti invalid_at) when the render shows one",
		"§4.4 and App. E, Tables 8–9: the ledger's unresolved status is on the rendered row yet the default decode ignores it; a strict prompt that says to read it moves CSC by +0.226 over the row-level oracle, and the same prompt does not move GraphRAG+abstain (+0.006): reading a status column is a reader skill, not a property of the memory"},
	{SimDate, "DateSkill",
		"probability that the reader correctly orders two dated records and takes the newest as current",
		"§3–4.1: the paper's time-only baselines (latest-only, timestamp reranking, temporal chain-of-thought) answer from dates alone; App. D: on TempLAMA streams \"sorting unordered closed edges is harder than reading a pre-ordered history\""},
	{SimDateDecay, "DateDecayPerRow",
		"each dated record beyond two multiplies the date-sort probability by (1 − DateDecayPerRow): sorting gets worse as rows grow",
		"App. C, Table 12: stream-length bins move the RevisionLedger − Graphiti gap monotonically (−0.204 → +0.023); App. D: the ordering residual is stream-length-dependent; App. A premise (R), render monotonicity: decode capacity is non-increasing in render length/complexity (Liu et al. 2024b)"},
	{SimFirstRow, "FirstRowBias",
		"when several candidate values remain, probability that the reader takes the first one in the text",
		"App. A premise (R) and Conjecture 1: the reader term grows with the position prior of the answer field (long-context position bias, Liu et al. 2024b); §4.1: the ledger's newest-first layout is \"easier for the answer-LLM to read\" than the d-blind control's unordered facts, the render term (+0.159)"},
	{SimAbstain, "AbstainOnConflict",
		"when several candidate values remain and it does not take the first, probability that the reader abstains (otherwise it takes the most frequent value; a tie abstains)",
		"§4.1: GraphRAG+abstain \"can detect conflict, but without the supersession edge it often abstains\"; App. E, Tables 16 and 19: prompt-only abstention is poorly calibrated and moves with the abstain wording; AbstentionBench (Kirichenko et al. 2026): abstention is brittle in current LLMs"},
	{SimRows, "RowBudget",
		"the reader loses track past this many records of the asked key (and raw event lines); 0 reads them all",
		"App. A Conjecture 1: the reader term grows with the render's number of candidate fields (distractor sensitivity, Cuconasu et al. 2024)"},
	{SimTokens, "TokenBudget",
		"the reader reads only the first TokenBudget tokens of the context (whole lines); 0 reads everything",
		"App. A premise (R): decode capacity is non-increasing in render length; §4.3: appending raw events to the render reverses the provenance sign (−0.236)"},
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

// SimProfileNamed returns the built-in profile called name.
func SimProfileNamed(name string) (SimProfile, error) {
	for _, p := range simProfiles {
		if p.Name == name {
			return p, nil
		}
	}
	return SimProfile{}, fmt.Errorf("unknown sim profile %q (want one of %s)", name, simProfileNames())
}

func simProfileNames() string {
	names := make([]string, len(simProfiles))
	for i, p := range simProfiles {
		names[i] = p.Name
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
	case SimFirstRow:
		return p.FirstRowBias, nil
	case SimAbstain:
		return p.AbstainOnConflict, nil
	case SimRows:
		return float64(p.RowBudget), nil
	case SimTokens:
		return float64(p.TokenBudget), nil
	}
	return 0, fmt.Errorf("unknown sim capability %q (want %s)", name, simCapNames())
}

// Set returns p with the capability called name set to v (budgets are
// rounded to whole rows or tokens); the result is validated.
func (p SimProfile) Set(name string, v float64) (SimProfile, error) {
	switch name {
	case SimStatus:
		p.StatusSkill = v
	case SimDate:
		p.DateSkill = v
	case SimDateDecay:
		p.DateDecayPerRow = v
	case SimFirstRow:
		p.FirstRowBias = v
	case SimAbstain:
		p.AbstainOnConflict = v
	case SimRows:
		p.RowBudget = int(math.Round(v))
	case SimTokens:
		p.TokenBudget = int(math.Round(v))
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

// Validate checks that every probability is in [0, 1] and the budgets are
// not negative.
func (p SimProfile) Validate() error {
	for _, c := range []struct {
		name string
		v    float64
	}{{SimStatus, p.StatusSkill}, {SimDate, p.DateSkill}, {SimDateDecay, p.DateDecayPerRow},
		{SimFirstRow, p.FirstRowBias}, {SimAbstain, p.AbstainOnConflict}} {
		if !(c.v >= 0 && c.v <= 1) {
			return fmt.Errorf("sim profile %q: %s = %v is not a probability in [0, 1]", p.Name, c.name, c.v)
		}
	}
	if p.RowBudget < 0 || p.TokenBudget < 0 {
		return fmt.Errorf("sim profile %q: negative budget (rows %d, tokens %d)", p.Name, p.RowBudget, p.TokenBudget)
	}
	return nil
}

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
//   - three uniforms u_status, u_sort, u_conflict are drawn from a PCG
//     seeded by hash(seed, profile name, qid). The memory is deliberately NOT
//     part of the seed: the same question gets the same draws under every
//     memory class, so paired differences between memories (the render and
//     mechanism terms) compare one reader state on two renders (a paired
//     design) and reflect the renders, not reader noise;
//   - the reader uses the status column iff u_status < StatusSkill;
//   - each date sort over n dated records succeeds iff u_sort <
//     SortProb(n); a failed sort leaves the records in text order, so the
//     conflict policy then sees them as if undated;
//   - when candidates still disagree it takes the first in the text iff
//     u_conflict < FirstRowBias, else abstains iff u_conflict < FirstRowBias
//   - (1 − FirstRowBias)·AbstainOnConflict, else takes the majority value;
//   - RowBudget and TokenBudget are hard limits;
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

// ParseSim makes the simulated reader of a spec "NAME[@KEY=VALUE]...":
// a built-in profile (SimProfiles) with optional overrides, KEY one of
// seed or a capability name (status, date, date-decay, first-row, abstain,
// rows, tokens), e.g. "careful@seed=7" or "date-sorter@status=0.5". The
// reader's name is "sim:" + spec.
func ParseSim(spec string) (*Sim, error) {
	spec = strings.TrimSpace(spec)
	parts := strings.Split(spec, "@")
	p, err := SimProfileNamed(parts[0])
	if err != nil {
		return nil, err
	}
	var seed uint64
	for _, kv := range parts[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("sim reader %q: %q is not KEY=VALUE", spec, kv)
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

func (s *Sim) Name() string   { return "sim:" + s.name }
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

// SimDraws are the uniforms a sim reader draws for one question.
type SimDraws struct {
	Status, Sort, Conflict float64
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
	return SimDraws{Status: r.Float64(), Sort: r.Float64(), Conflict: r.Float64()}
}

// Read answers from the render text with the capabilities drawn for
// in.QID.
func (s *Sim) Read(ctx context.Context, in Input) (Output, error) {
	if err := ctx.Err(); err != nil {
		return Output{}, err
	}
	d, note := s.decide(in)
	return Output{Answer: d.answer, Raw: d.answer.String(), ContextTokens: CountTokens(in.Context),
		Note: s.Name() + ": " + note}, nil
}

func (s *Sim) decide(in Input) (decision, string) {
	p := s.prof
	u := s.Draws(in.QID)
	var steps []string
	caps := Capabilities{UsesStatus: u.Status < p.StatusSkill, SortsByTime: p.DateSkill > 0, TokenBudget: p.TokenBudget}
	if caps.UsesStatus {
		steps = append(steps, fmt.Sprintf("status read (p=%.2f)", p.StatusSkill))
	} else {
		steps = append(steps, fmt.Sprintf("status not read (p=%.2f)", p.StatusSkill))
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
	pol := policy{caps: caps, rowBudget: p.RowBudget, sortOK: func(n int) bool {
		q := p.SortProb(n)
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
	return d, strings.Join(steps, "; ") + " → " + d.note
}
