package memory

import (
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/relate"
)

// Class names, as the CLI and outcome tables use them (untyped, so they
// serve as a Class; SpecOf, Specs and Spec.Is make them specs).
const (
	DirectContext   = "direct-context"
	RAGTopK         = "rag-topk"
	LatestOnly      = "latest-only"
	GraphRAGLite    = "graphrag-lite"
	GraphRAGAbstain = "graphrag-abstain"
	CoarseDiscard   = "coarse-discard"
	CoarseRetain    = "coarse-retain"
	FineLedger      = "fine-ledger"
	RenderOnly      = "render-only"
)

// Names lists every class in the paper's order of increasing structure.
var Names = []Class{DirectContext, RAGTopK, LatestOnly, GraphRAGLite, GraphRAGAbstain,
	CoarseDiscard, CoarseRetain, FineLedger, RenderOnly}

// Options configure how a class builds its state.
type Options struct {
	// Relator labels co-keyed pairs for the classes that use relations
	// (coarse-discard, coarse-retain, fine-ledger). render-only always uses
	// relate.SameState. Nil means the rule scorer.
	Relator esr.Relator
	// TopK is how many events rag-topk retrieves (default 5).
	TopK int
	// Deployed appends the raw events to every render: the "deployed render"
	// of the paper's §4.3.
	Deployed bool
	// ForceStatus overrides fine-ledger's status for the given keys ("ok" or
	// "unresolved"): the row-level oracle of the paper's Tables 7–9, which
	// forces the rendered row to carry the target status whatever the scorer
	// did. Other classes ignore it.
	ForceStatus map[esr.Key]string
	// MechanismOff builds the render-matched control of the class (paper
	// §4.1; spec §3): every co-keyed relation SAME_STATE, so no supersedes,
	// no contradicts and no unresolved status; every row shows live or
	// neutral, and the layout and ids stay those of the class. Build
	// enforces it for every class, built-in or registered, by replacing
	// Relator with relate.SameState and dropping ForceStatus before the
	// class's build runs; ledgers built under that source say "neutral".
	// render-only is fine-ledger with MechanismOff.
	MechanismOff bool
	// FactFormat is how graphrag-abstain lays out its fact table: "dated"
	// (the default: id|entity|attribute|value|time, the d-blind control of
	// the paper's §3 with the same atoms and timestamps as the ledger) or
	// "dateless" (id|entity|attribute|value, a sensitivity variant that
	// measures how much of a render term is "dates visible at all").
	FactFormat string
	// RenderSeed seeds the order of graphrag-abstain's rows: a permutation
	// drawn per (seed, stream, key), independent of time, so the dates are
	// there for the reader while the order says nothing.
	RenderSeed uint64
	// LedgerFormat is how fine-ledger and render-only lay out their rows
	// (the render-format ablation of the paper's Table 17): "compact" (the
	// default time | event | value | status table), "verbose" (one sentence
	// per row), "minimal" (value | status, no time, no event) or "json" (one
	// JSON object per row). Both classes always share the format.
	LedgerFormat string
	// MergeFacets builds the class over single-valued keys: every atom's
	// facet is dropped (Atom.Facet), so one state holds the values of every
	// facet, and a question about a facet reads that merged state. It is
	// the single-valued baseline that a faceted key (esr.Key.Facet) is
	// measured against: on Debian's per-suite version streams it answers
	// the latest upload, whichever suite that went to.
	MergeFacets bool
}

// Ledger formats of fine-ledger and render-only (Options.LedgerFormat).
const (
	LedgerCompact = "compact"
	LedgerVerbose = "verbose"
	LedgerMinimal = "minimal"
	LedgerJSON    = "json"
)

// LedgerFormats are the formats LedgerFormat accepts, default first.
var LedgerFormats = []string{LedgerCompact, LedgerVerbose, LedgerMinimal, LedgerJSON}

// Fact formats of graphrag-abstain (Options.FactFormat), default first.
const (
	FactsDated    = "dated"
	FactsDateless = "dateless"
)

// FactFormats are the formats FactFormat accepts, default first.
var FactFormats = []string{FactsDated, FactsDateless}

func (o Options) relator() esr.Relator {
	if o.Relator == nil {
		return DefaultRelator()
	}
	return o.Relator
}

// State is what a memory class keeps for one stream.
type State interface {
	// Class is the class name.
	Class() string
	// Answer is the class's structured read-out for q: the render-invariant
	// answer the oracle reader gives.
	Answer(q esr.Query) esr.Answer
	// Render is the context an answer model sees for q.
	Render(q esr.Query) string
	// MayAbstain reports whether the class tells its reader it may abstain
	// (graphrag-lite does not).
	MayAbstain() bool
	// Rows describes the state per key for `esr ledger`.
	Rows() []Row
}

// Err returns the error a state met after it was built (an exec: adapter
// that failed while rendering), or nil. The evaluation engine checks it
// after each render, so a failing adapter stops the run with its error.
func Err(st State) error {
	if f, ok := st.(interface{ Err() error }); ok {
		return f.Err()
	}
	return nil
}

// Row is one key's state as `esr ledger` prints it.
type Row struct {
	StreamID   string             `json:"stream_id"`
	Entity     string             `json:"entity"`
	Attribute  string             `json:"attribute"`
	Facet      string             `json:"facet,omitempty"`
	Status     string             `json:"status"`
	Current    []string           `json:"current"`
	ValidSince esr.Time           `json:"valid_since"`
	Support    []string           `json:"support"`
	Deprecated []string           `json:"deprecated"`
	History    []esr.HistoryEntry `json:"history"`
}

// Build makes the state of memory sp for one stream. atoms must be the
// stream's atoms in transaction order (as bench.Load leaves them); the state
// may point into them. The state is named by sp.String().
//
// NAME~render-only is the render-matched control of any class: the class's
// own builder with Options.MechanismOff, under the control's name.
// render-only is fine-ledger~render-only under the paper's name.
func Build(sp Spec, s *esr.Stream, atoms []esr.Atom, opt Options) (State, error) {
	if err := sp.Validate(); err != nil {
		return nil, err
	}
	return build(sp, sp.String(), s, atoms, opt)
}

// A builder builds spec sp's state for one stream under name (sp.String(),
// or the kept class's name inside kept=). A builder names its state name,
// so a control is its class's builder with the mechanism already off in
// opt: one builder serves both arms.
type builder func(sp Spec, name string, s *esr.Stream, atoms []esr.Atom, opt Options) (State, error)

// builtins are the built-in classes' builders, each beside its class's
// state: the paper's nine and the deployed classes. Register adds the
// user's classes beside them (lookup).
var builtins = map[Class]builder{
	DirectContext:   buildDirect,
	RAGTopK:         buildRAG,
	LatestOnly:      buildLatest,
	GraphRAGLite:    buildGraphRAGLite,
	GraphRAGAbstain: buildGraphRAGAbstain,
	CoarseDiscard:   buildCoarseDiscard,
	CoarseRetain:    buildCoarseRetain,
	FineLedger:      buildFineLedger,
	RenderOnly:      buildRenderOnly,
	Graphiti:        buildGraphiti,
	GraphitiCurrent: buildGraphiti,
	Mem0V3:          buildMem0,
	Mem0Update:      buildMem0,
}

// builder is the builder of sp's kind of memory: graphrag-abstain over the
// atoms a kept class kept (kept=), an exec: adapter, or a class, built in
// or registered. It is nil when no class has sp's name.
func (sp Spec) builder() builder {
	switch {
	case !sp.Params.Kept.IsZero():
		return buildContentMatched
	case sp.Class.IsExec():
		return buildExec
	}
	return lookup(sp.Class)
}

// build builds sp, whose name is name (sp.String()).
func build(sp Spec, name string, s *esr.Stream, atoms []esr.Atom, opt Options) (State, error) {
	if opt.MergeFacets {
		opt.MergeFacets = false
		flat := make([]esr.Atom, len(atoms))
		for i, a := range atoms {
			a.Facet = ""
			flat[i] = a
		}
		st, err := build(sp, name, s, flat, opt)
		if err != nil {
			return nil, err
		}
		return mergedFacets{st}, nil
	}
	b := sp.builder()
	if b == nil {
		return nil, unknownClass(name)
	}
	if sp.Control || opt.MechanismOff {
		opt = mechanismOff(opt)
	}
	st, err := b(sp, name, s, atoms, opt)
	if err != nil {
		return nil, err
	}
	if opt.Deployed {
		st = deployed{State: st, stream: s}
	}
	return st, nil
}

// mechanismOff is opt with the mechanism switched off (Options.MechanismOff).
func mechanismOff(opt Options) Options {
	opt.MechanismOff = true
	opt.Relator, opt.ForceStatus = relate.SameState{}, nil
	return opt
}

// MustBuild is Build for specs known to be valid; it panics otherwise.
func MustBuild(sp Spec, s *esr.Stream, atoms []esr.Atom, opt Options) State {
	st, err := Build(sp, s, atoms, opt)
	if err != nil {
		panic("memory: " + err.Error())
	}
	return st
}

// ParseNames reads a comma-separated list of memory names, each parsed once
// (ParseSpec) and checked to exist; "all" stands for Names (alone or in
// the list, once). A memory given twice is an error (its rows would
// collide).
func ParseNames(list string) ([]Spec, error) {
	if list == "all" {
		return Specs(Names...), nil
	}
	var out []Spec
	seen := map[Spec]bool{}
	add := func(sp Spec) error {
		if seen[sp] {
			return fmt.Errorf("memory list %q: memory class %q given twice", list, sp)
		}
		seen[sp] = true
		out = append(out, sp)
		return nil
	}
	all := false
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if n == "all" {
			if all {
				return nil, fmt.Errorf("memory list %q: all given twice", list)
			}
			all = true
			for _, m := range Names {
				if err := add(SpecOf(m)); err != nil {
					return nil, err
				}
			}
			continue
		}
		sp, err := ParseSpec(n)
		if err != nil {
			return nil, err
		}
		if err := checkExtra(sp); err != nil {
			return nil, err
		}
		if err := checkSpec(sp); err != nil { // params.go
			return nil, err
		}
		if !known(sp) {
			return nil, unknownClass(n)
		}
		if err := add(sp); err != nil {
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no memory class named")
	}
	return out, nil
}

func unknownClass(n string) error {
	var all []string
	for _, c := range append(append([]Class{}, Names...), DeployedNames...) {
		all = append(all, string(c))
	}
	return fmt.Errorf("unknown memory class %q (want one of %s)", n, strings.Join(append(all, Strings(Specs(registeredClasses()...))...), ", ")+", or exec:PATH")
}

// DefaultRelator is the relation source classes use when Options.Relator is
// nil: the rule scorer.
func DefaultRelator() esr.Relator { return relate.Rule{} }

// mergedFacets is a state built over single-valued keys
// (Options.MergeFacets): a question about a faceted key reads the key
// without its facet.
type mergedFacets struct{ State }

func (m mergedFacets) Answer(q esr.Query) esr.Answer {
	q.Key = q.Key.Unfaceted()
	return m.State.Answer(q)
}

func (m mergedFacets) Render(q esr.Query) string {
	q.Key = q.Key.Unfaceted()
	return m.State.Render(q)
}

// Err is the wrapped state's error (exec: adapters).
func (m mergedFacets) Err() error { return Err(m.State) }
