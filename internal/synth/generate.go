package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// Version names the generator; it is written into MANIFEST.json and changes
// whenever the same configuration would produce different files.
const Version = "esr-synth/2"

// Sources lists the synthetic sources in file order, by short name.
var Sources = []string{"github", "wiki", "dyknow"}

// SourceName is the QA/stream source label of a short source name:
// "synthetic-github", "synthetic-wiki", "synthetic-dyknow".
func SourceName(short string) string { return "synthetic-" + short }

var sourceShort = map[string]string{"github": "gh", "wiki": "wiki", "dyknow": "dk"}

// Config holds the generator's seed and knobs. The zero value is not
// usable; start from DefaultConfig.
type Config struct {
	Seed uint64 `json:"seed"`
	// PerStratum is the number of streams per (source, stratum) whose main
	// key carries that stratum.
	PerStratum int `json:"per_stratum"`
	// Clutter is the share of a stream's non-core events that carry no new
	// assertion: unrelated comments, hedges and stale restatements.
	Clutter float64 `json:"clutter"`
	// Restate is the share of clutter events that are hedges ("maybe 45 s?")
	// or restatements of stale values ("as noted earlier, 60 s") and so carry
	// an atom (modality hedge / recall, gold relation UNRELATED).
	Restate float64 `json:"restate"`
	// Paraphrase is the probability that prose writes a value with a
	// paraphrase ("30 seconds", "half a minute") instead of its canonical form.
	Paraphrase float64 `json:"paraphrase"`
	// Sources are short source names (see Sources).
	Sources []string `json:"sources"`
	// EventRecall: each event keeps its atoms with this probability (missed
	// events lose all their atoms).
	EventRecall float64 `json:"event_recall"`
	// CoKeyRecall: for each key with a gold current value and gold
	// deprecated evidence, with probability 1 − CoKeyRecall the atoms of its
	// current-value (supporting) events are written under a wrong attribute.
	CoKeyRecall float64 `json:"cokey_recall"`

	// The composition knobs below match the paper's ESR-Bench (see
	// lab.GenPreset("paper") and doc.go for each one's paper value and source). Their
	// zero values are the bundled clean bench's behaviour, and they are
	// left out of MANIFEST.json when zero, so a clean configuration writes
	// the same bytes as before they existed.

	// Streams, when set, replaces PerStratum: the number of streams per
	// source (short name) and stratum; a pair it omits gets none. It sets
	// the phenomenon and source mix (paper §3, Table 1).
	Streams map[string]map[esr.Phenomenon]int `json:"streams,omitempty"`
	// LengthWeights are the relative weights of the paper's Table 12
	// stream-length bins, (1,5], (5,6], (6,10], (10,20], (20,70] events, in
	// a stream's planned length; nil draws the five bins evenly.
	LengthWeights []float64 `json:"length_weights,omitempty"`
	// AtomsPerEvent is the target mean number of atoms per event in
	// atoms.jsonl, after extraction noise, over the events AtomsOver names
	// (App. F: "Mean 2.6 atoms/event"). The generator reaches it with extra
	// mentions: an event restates the value in force of a key it does not
	// already mention (a distractor key, or a questioned key before any
	// conflict on it; never the issue status). 0 adds none.
	AtomsPerEvent float64 `json:"atoms_per_event,omitempty"`
	// AtomsOver is AtomsPerEvent's denominator: AtomsOverAll (every event)
	// or AtomsOverWithAtoms (events carrying at least one atom; extra
	// mentions then go only to such events). App. F does not say which.
	AtomsOver string `json:"atoms_over,omitempty"`
	// KeysPerStream is the target mean number of distinct (entity,
	// attribute) keys per stream (App. F: "3.7–4.2 distinct keys/stream").
	// The generator adds distractor keys: unquestioned attributes of the
	// stream's own entities, mentioned in the stream's own events, so that
	// the mean over streams meets the target; streams with fewer planned
	// keys get more. 0 adds none.
	KeysPerStream float64 `json:"keys_per_stream,omitempty"`
	// EventTokens is the median length of an event's text in tokens (as the
	// generator estimates them: bytes/4); events shorter than their drawn
	// length (log-normal around it) are padded with text in the registers
	// Register weighs. 0 pads nothing. The paper gives no number: its
	// streams are "issue threads, revision histories" (App. D).
	EventTokens int `json:"event_tokens,omitempty"`
	// Register weighs the kinds of padding text (issue-thread prose, code,
	// logs, quoted replies); nil with EventTokens > 0 means DefaultRegister.
	Register *Register `json:"register,omitempty"`
	// RareOversample multiplies the streams of every stratum but monotonic
	// (reverted_revert, cross_source_conflict, refines) by this factor, for
	// per-stratum power; 0 and 1 leave the mix as Streams or PerStratum set
	// it. Per-stratum numbers do not depend on it; pooled ones do, and a
	// table pooled over strata says which mix it uses
	// (lab reads the factor back from MANIFEST.json).
	RareOversample int `json:"rare_oversample,omitempty"`
}

// Denominators of Config.AtomsPerEvent.
const (
	AtomsOverAll       = "events"
	AtomsOverWithAtoms = "events-with-atoms"
)

// Register weighs padding text by register. Each source writes each
// register its own way (register.go): GitHub prose, fenced code, log
// excerpts and quoted replies; Wikipedia article prose, wikitext markup,
// revision-history lines and talk-page replies; DyKnow-style passages in
// every register.
type Register struct {
	Prose float64 `json:"prose"`
	Code  float64 `json:"code"`
	Log   float64 `json:"log"`
	Quote float64 `json:"quote"`
}

// DefaultRegister is the register mix of padding when Config.Register is
// nil: mostly prose, as issue threads are.
var DefaultRegister = Register{Prose: 0.5, Code: 0.2, Log: 0.15, Quote: 0.15}

// streamsOf is the number of streams of source src and stratum p.
func (c *Config) streamsOf(src string, p esr.Phenomenon) int {
	n := c.PerStratum
	if c.Streams != nil {
		n = c.Streams[src][p]
	}
	if p != esr.Monotonic && c.RareOversample > 1 {
		n *= c.RareOversample
	}
	return n
}

// DefaultSeed is the seed of the bundled benchmark in data/synthetic.
const DefaultSeed = 20260716

// DefaultConfig is the clean preset (lab.PresetClean): equal strata,
// noise-free extraction (recalls 1), moderate clutter, short template
// prose. Small and easy to read, for teaching examples; the bundled
// data/synthetic is the paper preset with its rare strata ×2.
func DefaultConfig() Config {
	return Config{Seed: DefaultSeed, PerStratum: 60, Clutter: 0.4, Restate: 0.35, Paraphrase: 0.4,
		Sources: append([]string(nil), Sources...), EventRecall: 1, CoKeyRecall: 1}
}

// Validate checks ranges and source names.
func (c *Config) Validate() error {
	if c.Streams == nil && c.PerStratum < 1 {
		return fmt.Errorf("per-stratum must be at least 1, got %d", c.PerStratum)
	}
	if err := c.validateComposition(); err != nil {
		return err
	}
	for name, v := range map[string]float64{"clutter": c.Clutter, "restate": c.Restate, "paraphrase": c.Paraphrase,
		"event-recall": c.EventRecall, "cokey-recall": c.CoKeyRecall} {
		if !(v >= 0 && v <= 1) { // NaN fails too
			return fmt.Errorf("%s must be in [0, 1], got %g", name, v)
		}
	}
	if len(c.Sources) == 0 {
		return fmt.Errorf("no sources")
	}
	seen := map[string]bool{}
	for _, s := range c.Sources {
		if _, ok := sourceShort[s]; !ok {
			return fmt.Errorf("unknown source %q (want github, wiki or dyknow)", s)
		}
		if seen[s] {
			return fmt.Errorf("source %q listed twice", s)
		}
		seen[s] = true
	}
	return nil
}

// ParseSources splits a comma-separated source list.
func ParseSources(list string) []string {
	var out []string
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// PureMono reports whether q is a "pure-mono" item (paper Table 11): a
// monotonic QA with no deprecated evidence.
func PureMono(q *esr.QA) bool {
	return q.Phenomenon == esr.Monotonic && len(q.GoldDeprecatedEventIDs) == 0
}

// streamOut is one generated stream: events, atoms (with the claim each
// came from), the co-key noise's alternative attribute names, and QAs.
type streamOut struct {
	stream *esr.Stream
	atoms  []esr.Atom
	claims map[string]*claim // by atom id
	alt    map[esr.Key]string
	qas    []esr.QA
}

// Generate builds the benchmark in memory: streams, atoms (after the
// extraction-noise model), QAs (gold, untouched by noise) and the gold
// relation of every co-keyed atom pair.
func Generate(cfg Config) (*bench.Bench, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var gens []*streamGen
	for _, src := range cfg.Sources {
		n := 0
		for _, p := range esr.Phenomena {
			bins := stratifiedBins(&cfg, src, p)
			for i := 0; i < cfg.streamsOf(src, p); i++ {
				n++
				id := fmt.Sprintf("syn-%s-%04d", sourceShort[src], n)
				seed2 := stratumSeed(src, p, i)
				g := &streamGen{cfg: &cfg, src: src, phen: p, sty: styleFor(src), id: id,
					r: rand.New(rand.NewPCG(cfg.Seed, seed2)),
					// The composition knobs draw from their own stream, so
					// the plan's draws do not depend on them.
					rx: rand.New(rand.NewPCG(splitmix(cfg.Seed^0x636f6d706f736974), seed2))}
				if bins != nil {
					g.bin = bins[i]
				}
				if err := g.plan(); err != nil {
					return nil, fmt.Errorf("stream %s: %w", id, err)
				}
				gens = append(gens, g)
			}
		}
	}
	if len(gens) == 0 {
		return nil, fmt.Errorf("no streams: every source × stratum count is 0")
	}
	allocateDistractors(gens, cfg.KeysPerStream)
	var outs []*streamOut
	for _, g := range gens {
		if err := g.decorate(); err != nil {
			return nil, fmt.Errorf("stream %s: %w", g.id, err)
		}
		g.stamp()
		g.render()
		g.pad()
		o, err := g.assemble()
		if err != nil {
			return nil, fmt.Errorf("stream %s: %w", g.id, err)
		}
		outs = append(outs, o)
	}
	streams := make([]*esr.Stream, 0, len(outs))
	atoms := map[string][]esr.Atom{}
	var qas []esr.QA
	for _, o := range outs {
		o.applyNoise(&cfg)
		streams = append(streams, o.stream)
		atoms[o.stream.ID] = o.atoms
		qas = append(qas, o.qas...)
	}
	b := bench.New(streams, atoms, qas)
	b.Relations = map[string]map[esr.AtomPair]esr.Relation{}
	for _, o := range outs {
		rels := o.relations(b.Atoms[o.stream.ID])
		if len(rels) > 0 {
			b.Relations[o.stream.ID] = rels
		}
	}
	return b, nil
}

// assemble writes the planned events and atoms, runs ⊕ under the gold
// relations for every key, checks the result against the plan and writes
// the key's QAs.
func (g *streamGen) assemble() (*streamOut, error) {
	s := &esr.Stream{ID: g.id, Source: SourceName(g.src)}
	o := &streamOut{stream: s, claims: map[string]*claim{}, alt: map[esr.Key]string{}}
	for i, ev := range g.events {
		e := esr.Event{ID: fmt.Sprintf("e%d", i+1), Kind: ev.kind, Timestamp: esr.Time{Time: ev.at},
			Text: ev.text, Role: g.role(ev)}
		if ev.actor >= 0 {
			name := g.actors[ev.actor].name
			e.Actor = &name
		}
		s.Events = append(s.Events, e)
		for _, c := range ev.claims {
			id := fmt.Sprintf("%s-a%d", g.id, len(o.atoms)+1)
			c.atomID, c.eventIdx = id, i
			o.claims[id] = c
			o.atoms = append(o.atoms, esr.Atom{ID: id, StreamID: g.id, EventID: e.ID, EventIndex: i,
				EventKind: e.Kind, Timestamp: e.Timestamp, Actor: e.Actor, Role: e.Role, Modality: c.kind.modality(),
				Entity: c.key.key.Entity, Attribute: c.key.key.Attribute, Value: c.value, Polarity: esr.Positive,
				Confidence: c.kind.confidence()})
		}
	}
	g.header(s)
	for _, k := range g.keys {
		o.alt[k.key] = k.a.alt
		qas, err := g.keyQAs(s, k, o)
		if err != nil {
			return nil, err
		}
		if !k.distractor { // a distractor key is checked, never asked about
			o.qas = append(o.qas, qas...)
		}
	}
	return o, nil
}

func (g *streamGen) header(s *esr.Stream) {
	s.CreatedAt = s.Events[0].Timestamp
	switch g.src {
	case "github":
		s.Repo, s.IssueNumber = g.repo, g.issue
		s.Title = g.comp + ": " + g.symptom
		s.CurrentState = "open"
		for _, k := range g.keys {
			e := k.expect()
			switch k.a.special {
			case "status":
				s.CurrentState = e.current
				if e.current == "closed" {
					for i := len(k.seq) - 1; i >= 0; i-- {
						if k.seq[i].value == "closed" && k.seq[i].kind.assertive() {
							s.ClosedAt = s.Events[k.seq[i].eventIdx].Timestamp
							break
						}
					}
				}
			case "labels":
				if e.current != "" {
					s.CurrentLabels = strings.Split(e.current, ", ")
				}
			}
		}
		for _, e := range s.Events {
			if e.Kind == "comment" {
				s.NComments++
			}
		}
	case "wiki":
		s.Title = g.entName
	default:
		s.Title = g.entName + ": " + g.keys[0].a.phrase
	}
}

var questionForms = map[esr.QueryType][]string{
	esr.Snapshot: {"What {attr} is currently in force for {ent}?", "What is the current {attr} of {ent}?",
		"Which {attr} currently applies to {ent}?"},
	esr.Provenance: {"Which {attr} was in force for {ent} immediately before the current one?",
		"What was the {attr} of {ent} immediately before its current value?"},
	esr.RelationType: {"Did the last change to the {attr} of {ent} refine or replace the prior value?"},
}

var relationAliases = map[string][]string{
	esr.AnswerRefines:  {"refined", "refinement", "it refines the prior value"},
	esr.AnswerReplaces: {"replaced", "replacement", "it replaces the prior value", "superseded"},
}

// keyQAs runs ⊕ over the key's clean atoms under the gold relations, checks
// it against the plan, and writes the key's snapshot QA and, when the value
// changed, its provenance and relation-type QAs.
func (g *streamGen) keyQAs(s *esr.Stream, k *keyPlan, o *streamOut) ([]esr.QA, error) {
	var kl esr.KeyLedger
	rel := func(a, b *esr.Atom) esr.Relation { return goldRelation(o.claims[a.ID], o.claims[b.ID]) }
	for i := range o.atoms {
		if o.atoms[i].Key() == k.key {
			kl.Add(&o.atoms[i], rel)
		}
	}
	want := k.expect()
	snap := kl.Snapshot()
	if snap.Abstain != want.abstain || !snap.Abstain && esr.NormalizeValue(snap.Value) != esr.NormalizeValue(want.current) {
		return nil, fmt.Errorf("key %v: ⊕ gives %v, plan says %q (abstain %v)", k.key, snap, want.current, want.abstain)
	}
	assert := func(i int) bool { return o.claims[kl.Atoms[i].ID].kind.assertive() }
	cur := ""
	if !snap.Abstain {
		cur = esr.StateOf(snap.Value, esr.Positive)
	}
	support, deprecated := map[string]bool{}, map[string]bool{}
	for _, i := range kl.Active {
		if assert(i) {
			support[kl.Atoms[i].EventID] = true
		}
	}
	for i, st := range kl.Status {
		if (st == esr.Deprecated || st == esr.Refined) && assert(i) && kl.Atoms[i].State() != cur {
			deprecated[kl.Atoms[i].EventID] = true
		}
	}
	supIDs, depIDs := sortedEventIDs(s, support), sortedEventIDs(s, deprecated)
	tag := string(k.phen)
	if k.phen == esr.Monotonic {
		tag = "mono-deprecated"
		if len(depIDs) == 0 {
			tag = "pure-mono"
		}
	}
	role := "side key"
	if k.main {
		role = "main key"
	}
	rationale := fmt.Sprintf("synthetic %s (%s): %s", tag, role, g.history(k))
	mk := func(qt esr.QueryType, short, gold string, sup []string, aliases []string) esr.QA {
		q := pick(g.r, questionForms[qt])
		q = strings.NewReplacer("{attr}", k.key.Attribute, "{ent}", k.key.Entity).Replace(q)
		return esr.QA{QID: fmt.Sprintf("%s-k%d-%s", s.ID, k.idx+1, short), StreamID: s.ID, Question: q,
			GoldAnswer: gold, GoldSupportingEventIDs: sup, GoldDeprecatedEventIDs: depIDs,
			Phenomenon: k.phen, Confidence: 1, Rationale: rationale, QueryType: qt, Source: SourceName(g.src),
			Entity: k.key.Entity, Attribute: k.key.Attribute, Aliases: aliases}
	}
	gold := esr.AbstainText
	if !snap.Abstain {
		gold = snap.Value
	}
	out := []esr.QA{mk(esr.Snapshot, "snap", gold, supIDs, g.aliases(k.a, gold))}
	if want.change == "" {
		if p := kl.Prior(); !p.Abstain {
			return nil, fmt.Errorf("key %v: ⊕ has a prior value %q the plan does not", k.key, p.Value)
		}
		return out, nil
	}
	prior := kl.Prior()
	if prior.Abstain || esr.NormalizeValue(prior.Value) != esr.NormalizeValue(want.prior) {
		return nil, fmt.Errorf("key %v: ⊕ prior %v, plan says %q", k.key, prior, want.prior)
	}
	if lc := kl.LastChange(); lc.Value != want.change {
		return nil, fmt.Errorf("key %v: ⊕ last change %v, plan says %q", k.key, lc, want.change)
	}
	priorState := esr.StateOf(prior.Value, esr.Positive)
	provSup := map[string]bool{}
	for i, st := range kl.Status {
		if (st == esr.Deprecated || st == esr.Refined) && assert(i) && kl.Atoms[i].State() == priorState {
			provSup[kl.Atoms[i].EventID] = true
		}
	}
	out = append(out, mk(esr.Provenance, "prov", prior.Value, sortedEventIDs(s, provSup), g.aliases(k.a, prior.Value)))
	out = append(out, mk(esr.RelationType, "rel", want.change, supIDs, relationAliases[want.change]))
	return out, nil
}

func (g *streamGen) aliases(a *attr, v string) []string {
	if v == esr.AbstainText {
		return nil
	}
	nv := esr.NormalizeValue(v)
	var out []string
	for _, s := range a.surfacesOf(v) {
		if esr.NormalizeValue(s) != nv {
			out = append(out, s)
		}
	}
	if a.special == "owner" {
		out = append(out, "@"+v)
	}
	return dedupe(out)
}

// history is the key's assertion history as the rationale states it.
func (g *streamGen) history(k *keyPlan) string {
	var parts []string
	last := ""
	for _, c := range k.seq {
		if !c.kind.assertive() || c.value == last {
			continue
		}
		p := c.value
		switch c.kind {
		case kRefine:
			p += " (refines, " + string(c.refineKind) + ")"
		case kConflict:
			p += " (conflicting source)"
		case kRevert:
			p += " (restored)"
		}
		parts = append(parts, p)
		last = c.value
	}
	return strings.Join(parts, " → ")
}

// applyNoise applies the extraction-noise model to the atoms only: missed
// events (all atoms of an event dropped with probability 1 − EventRecall)
// and mis-keyed evidence (with probability 1 − CoKeyRecall per key with
// gold supporting and deprecated evidence, the key's atoms in its
// supporting events take the attribute's alternative name). With extra
// mentions or distractor keys (Config.AtomsPerEvent, KeysPerStream) events
// carry several keys, and any key an event shares with the earlier ones
// meets co-key recall's test; there the extractor mis-keys the whole event:
// every atom of the key's supporting events takes its attribute's
// alternative name. (Without those knobs this is esr-synth/2's model,
// unchanged, so earlier configurations write the same files.) Draws hash
// (seed, ids), so lowering a recall only ever loses more.
func (o *streamOut) applyNoise(cfg *Config) {
	if cfg.EventRecall >= 1 && cfg.CoKeyRecall >= 1 {
		return
	}
	sid := o.stream.ID
	wholeEvent := cfg.AtomsPerEvent > 0 || cfg.KeysPerStream > 0
	rekey := map[esr.Key]map[string]bool{} // key → supporting event ids to rekey
	events := map[string]bool{}            // wholeEvent: event ids to rekey
	if cfg.CoKeyRecall < 1 {
		for _, q := range o.qas {
			if q.Type() != esr.Snapshot || len(q.GoldSupportingEventIDs) == 0 || len(q.GoldDeprecatedEventIDs) == 0 {
				continue
			}
			if unitHash(cfg.Seed, "cokey-recall", sid, q.Entity, q.Attribute) < cfg.CoKeyRecall {
				continue
			}
			m := map[string]bool{}
			for _, id := range q.GoldSupportingEventIDs {
				m[id] = true
				events[id] = true
			}
			rekey[esr.Key{Entity: q.Entity, Attribute: q.Attribute}] = m
		}
	}
	kept := o.atoms[:0]
	for _, a := range o.atoms {
		if cfg.EventRecall < 1 && unitHash(cfg.Seed, "event-recall", sid, a.EventID) >= cfg.EventRecall {
			continue
		}
		if m := rekey[a.Key()]; m != nil && m[a.EventID] || wholeEvent && events[a.EventID] {
			if alt := o.alt[a.Key()]; alt != "" {
				a.Attribute = alt
			}
		}
		kept = append(kept, a)
	}
	o.atoms = kept
}

// relations labels every co-keyed pair of the written atoms (transaction
// order) with its gold relation.
func (o *streamOut) relations(atoms []esr.Atom) map[esr.AtomPair]esr.Relation {
	m := map[esr.AtomPair]esr.Relation{}
	for i := range atoms {
		for j := i + 1; j < len(atoms); j++ {
			if atoms[i].Key() != atoms[j].Key() {
				continue
			}
			m[esr.AtomPair{A: atoms[i].ID, B: atoms[j].ID}] = goldRelation(o.claims[atoms[i].ID], o.claims[atoms[j].ID])
		}
	}
	return m
}

// Counts tallies a benchmark's QAs by source, stratum and query type.
func Counts(qas []esr.QA) map[string]map[string]map[string]int {
	out := map[string]map[string]map[string]int{}
	for _, q := range qas {
		s := out[q.Source]
		if s == nil {
			s = map[string]map[string]int{}
			out[q.Source] = s
		}
		p := s[string(q.Phenomenon)]
		if p == nil {
			p = map[string]int{}
			s[string(q.Phenomenon)] = p
		}
		p[string(q.Type())]++
	}
	return out
}
