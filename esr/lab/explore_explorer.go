package lab

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/esr/relate"
)

// The explorer is the library behind notebook 40: one simulated reader
// over the memories of the render-matched decomposition, recomputed
// for every setting of its controls. Renders are built once per (stratum,
// query type, format, noise) and kept; a control change re-reads the kept
// renders and recomputes the terms, which is what keeps a redraw under a
// second (BenchmarkExplorerRedraw).

// Memories are the memories the explorer renders and drills into:
// the render-matched trio, then coarse-retain's own control and
// coarse-retain (so the drill-down's last step is coarse's mechanism alone).
var explorerMemories = []memory.Spec{memory.SpecOf(memory.GraphRAGAbstain), memory.SpecOf(memory.RenderOnly), memory.SpecOf(memory.FineLedger), eval.CoarseControl, memory.SpecOf(memory.CoarseRetain)}

// AllStrata is the Settings.Stratum that keeps every phenomenon.
const AllStrata = "all"

// TermSet is a named set of paired comparisons the explorer can show.
type TermSet struct {
	Name  string
	Terms []eval.Term
}

// TermSets are the comparisons the explorer's "memories compared"
// control offers, default first.
var TermSets = []TermSet{
	{"render-matched decomposition (Table 2)", eval.RenderMatched},
	{"headline: ledger and coarse-retain (idealised Graphiti) vs GraphRAG+abstain (§4.1)", eval.Headline},
	{"render term only", []eval.Term{eval.TermRender}},
	{"mechanism terms only (fine-d, coarse-d matched)", []eval.Term{eval.TermFineMechanism, eval.TermCoarseMatched}},
	{"coarse-d mechanism two ways (paper's = matched + layout)", []eval.Term{eval.TermCoarsePaper, eval.TermCoarseMatched, eval.TermCoarseLayout}},
}

// Settings are the explorer's controls.
type Settings struct {
	// Stratum is a phenomenon (esr.Phenomena) or AllStrata.
	Stratum string
	// QueryType is snapshot or provenance.
	QueryType esr.QueryType
	// Terms names one of TermSets.
	Terms string
	// Format is the ledger layout of fine-ledger and render-only
	// (memory.LedgerFormats); "" is the default.
	Format string
	// Reader is the simulated reader's profile.
	Reader sim.Profile
	// NoiseP replaces each relation label with a random other one with
	// this probability (relate.RelationNoise over the rule relator).
	NoiseP float64
	// Seed seeds the reader's draws, the relation noise and the bootstrap.
	Seed uint64
	// Stats are the interval options; the zero value is InteractiveStats.
	Stats eval.StatOptions
}

// DefaultSettings open the explorer on reverted-revert snapshot
// questions with the render-matched decomposition and the first calibrated
// profile (the paper's first family, sim.CalibratedProfiles), no noise,
// the default panel's draw seed (0): the view is that reader's rows in the
// suites, its terms its row of notebook 41's Table 2.
func DefaultSettings() Settings {
	p := sim.CalibratedProfiles()[0]
	return Settings{Stratum: string(esr.RevertedRevert), QueryType: esr.Snapshot, Terms: TermSets[0].Name,
		Format: memory.LedgerFormats[0], Reader: p, Seed: panelDrawSeed, Stats: eval.InteractiveStats}
}

// termSet returns the terms the settings name.
func (s Settings) termSet() ([]eval.Term, error) {
	ts, err := TermSetNamed(s.Terms)
	return ts.Terms, err
}

// options are the memory options the settings imply.
func (s Settings) options() memory.Options {
	opt := memory.Options{LedgerFormat: s.Format}
	if s.NoiseP > 0 {
		opt.Relator = relate.RelationNoise{Inner: relate.Rule{}, P: s.NoiseP, Seed: s.Seed}
	}
	return opt
}

// Scope describes the questions the settings keep, e.g. "reverted_revert
// snapshot".
func (s Settings) Scope() string {
	return s.Stratum + " " + string(s.QueryType)
}

// renderKey identifies one set of kept renders.
type renderKey struct {
	stratum, format string
	qt              esr.QueryType
	noise           float64
	seed            uint64
}

// Explorer keeps the renders of a benchmark's questions per setting of the
// controls that change them, and computes views from them. It is safe for
// concurrent use.
type Explorer struct {
	b       *bench.Bench
	mu      sync.Mutex
	renders map[renderKey][]eval.RenderedQA
}

// NewExplorer returns an explorer over b.
func NewExplorer(b *bench.Bench) *Explorer {
	return &Explorer{b: b, renders: map[renderKey][]eval.RenderedQA{}}
}

// Bench is the explorer's benchmark.
func (e *Explorer) Bench() *bench.Bench { return e.b }

// validate checks the settings that select questions and renders.
func (s Settings) validate() error {
	if s.Stratum != AllStrata && !esr.ValidPhenomenon(esr.Phenomenon(s.Stratum)) {
		return fmt.Errorf("explorer: unknown stratum %q (want %q or a phenomenon)", s.Stratum, AllStrata)
	}
	if !(s.NoiseP >= 0 && s.NoiseP <= 1) { // NaN fails too
		return fmt.Errorf("explorer: noise p = %g outside [0, 1]", s.NoiseP)
	}
	if _, err := s.termSet(); err != nil {
		return err
	}
	return s.Reader.Validate()
}

// items returns the kept renders for s, building them on first use.
func (e *Explorer) items(s Settings) ([]eval.RenderedQA, error) {
	k := renderKey{stratum: s.Stratum, format: s.Format, qt: s.QueryType, noise: s.NoiseP}
	if s.NoiseP > 0 {
		k.seed = s.Seed // the seed changes renders only through the noise
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if it, ok := e.renders[k]; ok {
		return it, nil
	}
	items, err := eval.RenderQAs(e.b, explorerMemories, func(qa *esr.QA) bool {
		return (s.Stratum == AllStrata || string(qa.Phenomenon) == s.Stratum) && qa.Type() == s.QueryType
	}, s.options())
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("explorer: %s has no %s questions", e.b.Name(), s.Scope())
	}
	e.renders[k] = items
	return items, nil
}

// QIDs lists the questions the settings keep, in benchmark order: the
// questions a drill-down steps through.
func (e *Explorer) QIDs(s Settings) ([]string, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	items, err := e.items(s)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.QA.QID
	}
	return out, nil
}

// View is what the explorer shows for one setting: the outcome rows
// of the simulated reader on every kept question and memory, and the
// chosen comparisons with intervals.
type View struct {
	Settings    Settings
	Reader      string // the sim reader's name, "sim:NAME"
	Questions   int
	Rows        []eval.Outcome
	Comparisons []eval.Comparison
}

// View computes the view for s: reads every kept render with a sim reader
// of profile s.Reader (draws seeded by s.Seed per question), judges it
// exactly, and compares the memories of the chosen terms with s.Stats.
func (e *Explorer) View(ctx context.Context, s Settings) (*View, error) {
	if s.Stats.B == 0 {
		s.Stats = eval.InteractiveStats
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	terms, _ := s.termSet()
	items, err := e.items(s)
	if err != nil {
		return nil, err
	}
	r, err := sim.New(s.Reader, s.Seed)
	if err != nil {
		return nil, err
	}
	need := map[string]bool{}
	for _, t := range terms {
		need[t.A.String()], need[t.B.String()] = true, true
	}
	v := &View{Settings: s, Reader: r.Spec().String(), Questions: len(items)}
	for _, it := range items {
		for mi := range it.Inputs {
			if !need[explorerMemories[mi].String()] {
				continue
			}
			o, err := it.Read(ctx, r, mi)
			if err != nil {
				return nil, err
			}
			v.Rows = append(v.Rows, o)
		}
	}
	if v.Comparisons, err = eval.CompareTerms(v.Rows, terms, nil, s.Stats); err != nil {
		return nil, err
	}
	return v, ctx.Err()
}

// Accuracy is the share of kept questions the reader gets right on memory m.
func (v *View) Accuracy(m memory.Spec) (float64, bool) {
	n, k := 0, 0
	for _, o := range v.Rows {
		if o.Memory == m {
			n++
			if o.Correct {
				k++
			}
		}
	}
	if n == 0 {
		return 0, false
	}
	return float64(k) / float64(n), true
}

// Table is the view's decomposition table: each term with both
// accuracies, Δ, interval, discordant pairs and p.
func (v *View) Table() *eval.Table {
	s := v.Settings
	t := &eval.Table{ID: "explorer", Title: fmt.Sprintf("Explorer: %s on %s (%d questions), SIMULATED reader %s", s.Terms, s.Scope(), v.Questions, v.Reader),
		Columns: []string{"term", "A", "B", "acc A", "acc B", "Δ", "CI", "discordant (A✓B✗ / A✗B✓)", "p"}}
	for _, c := range v.Comparisons {
		t.AddRow(c.Label, c.A, c.B, eval.PropCell(c.AccA), eval.PropCell(c.AccB), eval.SignedCell(c.Delta), c.CI(), eval.DiscordantCell(c), eval.PValueCell(c.P))
	}
	t.Notes = []string{
		fmt.Sprintf("reader %s: %s; ledger format %s; relation noise p = %g; seed %d", v.Reader, s.Reader.Skills(), s.Format, s.NoiseP, s.Seed),
		eval.IntervalNoteFor(v.Comparisons),
		"sim:* readers are SIMULATED stochastic rules, not LLMs: the explorer shows which reader skills move which term, not the paper's magnitudes",
	}
	return t
}

// Plot is the view's interval plot, one interval per term.
func (v *View) Plot() *plot.Plot {
	return decompositionPlot(v.Comparisons, fmt.Sprintf("%s · SIMULATED %s", v.Settings.Scope(), v.Reader))
}

// Sentence reads the view: when the render and the fine-d mechanism terms
// are shown, those two with their intervals and which carries the gain
// (the other terms are in the table); otherwise every term.
func (v *View) Sentence() string {
	r, ok1 := eval.FindTerm(v.Comparisons, eval.TermRender, reader.Family{})
	m, ok2 := eval.FindTerm(v.Comparisons, eval.TermFineMechanism, reader.Family{})
	var parts []string
	if ok1 && ok2 {
		parts = []string{eval.Describe(r), eval.Describe(m)}
	} else {
		for _, c := range v.Comparisons {
			parts = append(parts, eval.Describe(c))
		}
	}
	s := fmt.Sprintf("With the simulated reader %s on %d %s questions: %s.", v.Reader, v.Questions, v.Settings.Scope(), strings.Join(parts, "; "))
	if ok1 && ok2 {
		if len(v.Comparisons) > 2 {
			s += " The other terms are in the table."
		}
		switch d := (PhaseCell{Render: r, Mechanism: m}).Dominant(); {
		case d == "neither":
			s += " Neither term carries the gain on its own for this reader."
		case strings.HasSuffix(d, "(negative)"):
			s += " For this reader the larger term, " + strings.TrimSuffix(d, " (negative)") + ", is below 0: it costs accuracy."
		default:
			s += " For this reader the gain is mostly " + d + "."
		}
	}
	return s
}

// Drill reads one question through the Memories with the
// settings' sim reader and the extra readers (e.g. the scripted families),
// judged exactly: the explorer's per-question drill-down.
func (e *Explorer) Drill(ctx context.Context, s Settings, qid string, extra ...reader.Reader) (*WorkedQuestion, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	var qa *esr.QA
	for i := range e.b.QAs {
		if e.b.QAs[i].QID == qid {
			qa = &e.b.QAs[i]
			break
		}
	}
	if qa == nil {
		return nil, fmt.Errorf("explorer: no question %q in %s", qid, e.b.Name())
	}
	r, err := sim.New(s.Reader, s.Seed)
	if err != nil {
		return nil, err
	}
	return Work(ctx, e.b, *qa, explorerMemories, append([]reader.Reader{r}, extra...), s.options())
}

// CustomProfile is the name of a sim profile that no built-in profile
// matches (see Settings.WithCapability).
const CustomProfile = "custom"

// WithProfile returns s with the built-in sim profile called name.
func (s Settings) WithProfile(name string) (Settings, error) {
	p, err := sim.ProfileNamed(name)
	if err != nil {
		return s, fmt.Errorf("explorer: %w", err)
	}
	s.Reader = p
	return s, nil
}

// WithCapability returns s with the reader's capability name (see
// sim.Capabilities) set to v. The profile then takes the name of the
// built-in profile it equals, else CustomProfile: the name labels tables and
// seeds the draws, so a changed profile must not pass for a built-in one.
func (s Settings) WithCapability(name string, v float64) (Settings, error) {
	p, err := s.Reader.Set(name, v)
	if err != nil {
		return s, fmt.Errorf("explorer: %w", err)
	}
	s.Reader = builtinOrCustom(p)
	return s, nil
}

// builtinOrCustom returns the built-in profile with p's capabilities, or p
// named CustomProfile.
func builtinOrCustom(p sim.Profile) sim.Profile {
	p.Name, p.Summary = CustomProfile, "set by hand (explorer)"
	for _, b := range append(sim.CalibratedProfiles(), sim.Profiles()...) {
		if sameSkills(p, b) {
			return b
		}
	}
	return p
}

// sameSkills reports whether two profiles have the same capabilities.
func sameSkills(a, b sim.Profile) bool {
	a.Name, a.Summary, b.Name, b.Summary = "", "", "", ""
	return a == b
}

// WithReaderSpec returns s with the reader of a spec
// "sim:NAME[@CAPABILITY=VALUE]..." (reader.ParseSpec, then sim.Parse of
// its name, without a seed: the settings carry the seed). A profile
// changed by the overrides is named CustomProfile, as with WithCapability.
func (s Settings) WithReaderSpec(spec string) (Settings, error) {
	sp, err := reader.ParseSpec(spec)
	if err != nil {
		return s, fmt.Errorf("explorer: %w", err)
	}
	if sp.Kind != reader.KindSim || sp.Name == "" {
		return s, fmt.Errorf("explorer: reader %q is not a sim reader (want sim:PROFILE[@CAPABILITY=VALUE]...)", spec)
	}
	r, err := sim.Parse(sp.Name)
	if err != nil {
		return s, fmt.Errorf("explorer: %w", err)
	}
	if r.Seed() != 0 {
		return s, fmt.Errorf("explorer: reader %q: the seed is a setting of its own, not part of the reader", spec)
	}
	s.Reader = builtinOrCustom(r.Profile())
	return s, nil
}

// TermSetNamed finds a comparison set by its name or by its position in
// TermSets ("0", "1", …).
func TermSetNamed(name string) (TermSet, error) {
	names := make([]string, len(TermSets))
	for i, t := range TermSets {
		if t.Name == name || strconv.Itoa(i) == name {
			return t, nil
		}
		names[i] = fmt.Sprintf("%q", t.Name)
	}
	return TermSet{}, fmt.Errorf("explorer: unknown comparison set %q (want one of %s)", name, strings.Join(names, ", "))
}

// FirstRenderFlip is the index into QIDs(s) of the first question on
// which a reader of the drill (the settings' sim reader and extra) changes
// its verdict between graphrag-abstain and render-only: where the drill
// shows the render step acting on one question. It returns an error when
// no question of the scope has such a flip.
func (e *Explorer) FirstRenderFlip(ctx context.Context, s Settings, extra ...reader.Reader) (int, error) {
	qids, err := e.QIDs(s)
	if err != nil {
		return 0, err
	}
	for i, qid := range qids {
		w, err := e.Drill(ctx, s, qid, extra...)
		if err != nil {
			return 0, err
		}
		if len(w.Flips(0, 1)) > 0 {
			return i, nil
		}
	}
	return 0, fmt.Errorf("explorer: no question of %s on which a reader's verdict changes between %s and %s", s.Scope(), explorerMemories[0], explorerMemories[1])
}
