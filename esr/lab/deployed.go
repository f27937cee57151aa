package lab

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/report"
	"gonum.org/v1/plot"
)

// deployedSuite evaluates the deployed classes (and Setup.Adapter's exec:
// adapter, when set) with their controls and the d-blind baseline, and
// reports their decomposition (notebook 45, `esr run deployed`).
var deployedSuite = Suite{Name: SuiteDeployed, Benches: []string{mainBench, "dyknow", "vdyknow"}, ReferenceAdapter: true, Doc: "deployed memories (Graphiti, Mem0, an exec: adapter) under the render-matched protocol",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		return evaluateDeployed(ctx, s.Bench, DeployedClasses(s.Adapter), s.Readers)
	},
	Report: func(rows []eval.Outcome, s Setup) (*Result, error) {
		res := &Result{Name: "deployed", Rows: rows, Figures: map[FigureID]*plot.Plot{}}
		id := DeployedDecomposition.On(s.Bench.Name())
		t, sentences, err := decompositionTable(rows, s.Bench.Name(), DeployedClasses(s.Adapter), s.Stats)
		res.Add(id, t, err)
		if err == nil {
			res.Verdicts = map[TableID][]string{id: sentences}
		}
		return res, nil
	},
	// The deployed classes run under paper.DeployedOptions (the rule
	// scorer standing in for their LLM judgements).
	OwnRelations: true}

// DeployedClasses are the deployed-system classes and, when adapterPath is
// not empty, the exec: adapter at that path.
func DeployedClasses(adapterPath string) []memory.Spec {
	out := memory.Specs(memory.DeployedNames...)
	if adapterPath != "" {
		out = append(out, memory.SpecOf(memory.Class(memory.ExecPrefix+adapterPath)))
	}
	return out
}

// deployedMemories lists what Evaluate evaluates: the d-blind baseline,
// then per class the class, its render-matched control and, for a class
// that reports the atoms it kept (the deployed classes, memory.KeptAtoms),
// its content-matched baseline (memory.ContentMatched).
func deployedMemories(classes []memory.Spec) []memory.Spec {
	mems := []memory.Spec{paper.DeployedBaseline}
	for _, c := range classes {
		mems = append(mems, c, c.RenderMatched())
		if reportsKept(c) {
			mems = append(mems, c.ContentMatched())
		}
	}
	return mems
}

// reportsKept reports whether class is a deployed class (whose states
// implement memory.KeptAtoms).
func reportsKept(class memory.Spec) bool {
	return slices.Contains(memory.DeployedNames, class.Class)
}

// Evaluate evaluates deployedMemories(classes) on b with readers, under
// the rule scorer and DeployedOptions. Rows are sorted (see Evaluate).
func evaluateDeployed(ctx context.Context, b *bench.Bench, classes []memory.Spec, readers []reader.Reader) ([]eval.Outcome, error) {
	defer memory.HoldAdapters()()
	return eval.Evaluate(ctx, b, eval.Config{Memories: deployedMemories(classes), Readers: readers, Options: paper.DeployedOptions})
}

// shortName shortens an exec: class name for tables: the adapter's path
// from its "examples/" folder on, or its file name.
func shortName(class memory.Spec) string {
	base, control := strings.CutSuffix(class.String(), memory.ControlSuffix)
	if p, ok := strings.CutPrefix(base, memory.ExecPrefix); ok {
		if i := strings.Index(p, "examples/"); i >= 0 {
			p = p[i:]
		} else {
			p = filepath.Base(p)
		}
		base = memory.ExecPrefix + p
	}
	if control {
		return base + memory.ControlSuffix
	}
	return base
}

// deployedScopes are all rows and the reverted-revert snapshot rows.
var deployedScopes = []eval.Scope{{}, {Stratum: esr.RevertedRevert, QueryType: esr.Snapshot}}

// scopeName is a deployed scope as its table and sentences name it.
func scopeName(sc eval.Scope) string {
	if sc == (eval.Scope{}) {
		return "all QAs"
	}
	return string(sc.Stratum) + " " + string(sc.QueryType)
}

// Terms is the decomposition of one class against the d-blind
// baseline on one scope, each term a paired difference with its bootstrap
// interval:
//
//	total     = class − baseline
//	content   = content-matched baseline − baseline  (what the atoms the control dropped at ingestion were worth)
//	render    = control − content-matched baseline  (the class's layout over the same atoms)
//	mechanism = class − control
//
// so total = content + render + mechanism on every pair. A class that does
// not report its kept atoms (an exec: adapter) has no content term
// (HasContent false) and render = control − baseline.
type deployedTerms struct {
	Class memory.Spec
	Scope eval.Scope
	// Assumptions are the class's parameters with their values
	// (memory.Assumptions).
	Assumptions                       string
	Total, Content, Render, Mechanism eval.Comparison
	HasContent                        bool
}

// deployedTermsOf computes class's Terms over the rows of scope sc.
func deployedTermsOf(rows []eval.Outcome, class memory.Spec, sc eval.Scope, opt eval.StatOptions) (deployedTerms, error) {
	d := deployedTerms{Class: class, Scope: sc, Assumptions: class.Assumptions(paper.DeployedOptions)}
	d, err := d.compare(rows, sc.Filter(), opt)
	for _, c := range []*eval.Comparison{&d.Total, &d.Content, &d.Render, &d.Mechanism} {
		c.Scope = sc
	}
	return d, err
}

// compare fills d's terms over the rows f keeps.
func (d deployedTerms) compare(rows []eval.Outcome, f eval.Filter, opt eval.StatOptions) (deployedTerms, error) {
	var err error
	class := d.Class
	control, cm := class.RenderMatched(), class.ContentMatched()
	if d.Total, err = eval.Compare(rows, eval.Term{Label: "total", A: class, B: paper.DeployedBaseline}, f, opt); err != nil {
		return d, err
	}
	if d.Mechanism, err = eval.Compare(rows, eval.Term{Label: "mechanism", A: class, B: control}, f, opt); err != nil {
		return d, err
	}
	if !reportsKept(class) {
		d.Render, err = eval.Compare(rows, eval.Term{Label: "render", A: control, B: paper.DeployedBaseline}, f, opt)
		return d, err
	}
	if d.Content, err = eval.Compare(rows, eval.Term{Label: "content", A: cm, B: paper.DeployedBaseline}, f, opt); err != nil {
		return d, err
	}
	d.HasContent = true
	d.Render, err = eval.Compare(rows, eval.Term{Label: "render", A: control, B: cm}, f, opt)
	return d, err
}

// Decomposition is each class's Terms per scope as a table,
// and one sentence per class and scope generated from the numbers, naming
// the class's assumptions and each term.
func decompositionTable(rows []eval.Outcome, benchName string, classes []memory.Spec, opt eval.StatOptions) (*eval.Table, []string, error) {
	t := &eval.Table{ID: DeployedDecomposition.On(benchName),
		Title: "Deployed-system models (not the idealised coarse-retain) under the render-matched protocol, with a content term: " + benchName,
		Columns: []string{"class", "assumptions", "scope", "n", "acc class", "acc control", "acc content-matched", "acc baseline",
			"total", "content", "render", "mechanism"}}
	var sentences []string
	for _, c := range classes {
		// Every term of c reads the rows of four memories: take them out
		// once, not in each of the scopes' eight pairings (a suite holds
		// fifteen memories' rows).
		mine := map[memory.Spec]bool{c: true, c.RenderMatched(): true, c.ContentMatched(): true, paper.DeployedBaseline: true}
		sub := eval.Select(rows, func(o *eval.Outcome) bool { return mine[o.Memory] })
		for _, sc := range deployedScopes {
			d, err := deployedTermsOf(sub, c, sc, opt)
			if err != nil {
				continue // no rows in this scope
			}
			content, accCM := "—", eval.TextCell("—")
			if d.HasContent {
				content, accCM = termCell(d.Content), eval.PropCell(d.Content.AccA)
			}
			t.AddRow(shortName(c), d.Assumptions, scopeName(sc), d.Total.N, eval.PropCell(d.Total.AccA), eval.PropCell(d.Mechanism.AccB), accCM,
				eval.PropCell(d.Total.AccB), termCell(d.Total), content, termCell(d.Render), termCell(d.Mechanism))
			sentences = append(sentences, decompositionSentence(benchName, d))
		}
	}
	if len(t.Rows) == 0 {
		return nil, nil, fmt.Errorf("%s: no rows for the deployed classes", benchName)
	}
	t.Notes = []string{"control = the same class built with the mechanism off (memory.Options.MechanismOff: every relation SAME_STATE), same parameters and paraphrase draws; baseline = " + paper.DeployedBaseline.String() + " (d-blind); content-matched = " + paper.DeployedBaseline.String() + " over the atoms the control kept (" + memory.GraphRAGAbstain + "@kept=CONTROL)",
		"total = class − baseline = content (content-matched − baseline) + render (control − content-matched) + mechanism (class − control); an exec: adapter reports no kept atoms, so its render is control − baseline",
		"assumptions: the class's parameters (memory.Assumptions; defaults in memory.ClassParams): paraphrase = probability an episode's fact text is written differently from the template; dup = probability Graphiti's LLM calls a restated fact a duplicate of its old edge (#1865); dedup-k, created-at, skip = Mem0's dedup window, created_at source and extraction skip",
		"paired over (qid, reader family); " + opt.IntervalNote() + "; relation source: the rule scorer",
		eval.FamilyNote(rows)}
	return t, sentences, nil
}

func termCell(c eval.Comparison) string {
	return report.Signed(c.Delta) + " " + c.CI()
}

// direction words a paired difference: "raises"/"lowers" when the interval
// excludes zero, "does not measurably change" otherwise.
func direction(c eval.Comparison) string {
	switch {
	case c.TooFew:
		return "cannot be read (" + report.Signed(c.Delta) + ", " + c.TooFewReason() + ")"
	case c.Lo > 0:
		return "raises accuracy by " + report.Signed(c.Delta)
	case c.Hi < 0:
		return "lowers accuracy by " + strings.TrimLeft(report.Signed(c.Delta), "-−")
	}
	return "does not measurably change accuracy (" + report.Signed(c.Delta) + ", interval " + c.CI() + " includes 0)"
}

func decompositionSentence(benchName string, d deployedTerms) string {
	class := shortName(d.Class)
	if d.Assumptions != "" {
		class += " (" + d.Assumptions + ")"
	}
	s := fmt.Sprintf("On %s (%s, n = %d pairs), %s against %s: overall it %s", benchName, scopeName(d.Scope), d.Total.N, class, d.Total.B, direction(d.Total))
	type term struct {
		name, what string
		c          eval.Comparison
	}
	var terms []term
	if d.HasContent {
		terms = append(terms, term{"content", "lost content", d.Content})
		s += "; content (" + paper.DeployedBaseline.String() + " over only the atoms its control kept, against the full baseline) " + direction(d.Content)
		s += "; render (its control against that content-matched baseline, the same atoms) " + direction(d.Render)
	} else {
		s += "; render (its control against the baseline) " + direction(d.Render)
	}
	terms = append(terms, term{"render", "presentation", d.Render}, term{"mechanism", "its mechanism", d.Mechanism})
	s += "; mechanism (the class against its control) " + direction(d.Mechanism) + "."
	var big *term
	for i := range terms {
		if terms[i].c.Significant() && (big == nil || math.Abs(terms[i].c.Delta) > math.Abs(big.c.Delta)) {
			big = &terms[i]
		}
	}
	if big == nil {
		return s + " No term is distinguishable from zero."
	}
	if !d.Total.Significant() {
		return s + fmt.Sprintf(" The terms offset each other: the largest is %s (%s), yet the total is not distinguishable from zero.", big.name, report.Signed(big.c.Delta))
	}
	return s + fmt.Sprintf(" The largest term is %s (%s): what separates it from the baseline is mostly %s.", big.name, report.Signed(big.c.Delta), big.what)
}

// RevertedRevertTable runs the paper's Figure 1 stream (30 s → 60 s → 30 s,
// a reverted revert whose restored fact has the first fact's text) through
// each class: its structured snapshot and provenance read-outs and what each
// scripted (SIMULATED) reader answers from its render.
func RevertedRevertTable(ctx context.Context, classes []memory.Spec, profiles []string) (*eval.Table, error) {
	s, atoms := bench.Figure1()
	qa := bench.Figure1QA()
	snap := qa.Query(bench.TimeoutKey)
	prov := snap
	prov.Type = esr.Provenance
	t := &eval.Table{ID: "deployed-reverted-revert", Title: "The reverted revert A → B → A through the deployed-system models (Figure 1: 30 s → 60 s → 30 s; gold now: 30 s, before: 60 s)",
		Columns: []string{"class", "assumptions", "state: now", "state: before"}}
	var rs []reader.Reader
	for _, p := range profiles {
		r, err := sim.NewScripted(p)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
		t.Columns = append(t.Columns, r.Spec().String()+": now")
	}
	defer memory.HoldAdapters()()
	for _, c := range classes {
		names := []memory.Spec{c, c.RenderMatched()}
		if reportsKept(c) {
			names = append(names, c.ContentMatched())
		}
		for _, name := range names {
			st, err := memory.Build(name, s, atoms, paper.DeployedOptions)
			if err != nil {
				return nil, err
			}
			as := name.Assumptions(paper.DeployedOptions)
			row := []any{shortName(name), as, st.Answer(snap).String(), st.Answer(prov).String()}
			for _, r := range rs {
				out, err := r.Read(ctx, reader.Input{QID: qa.QID, Question: qa.Question, QueryType: esr.Snapshot,
					Context: st.Render(snap), MayAbstain: st.MayAbstain(), Memory: name, State: st, Query: snap})
				if err != nil {
					return nil, err
				}
				if err := memory.Err(st); err != nil {
					return nil, err
				}
				row = append(row, out.Answer.String())
			}
			t.AddRow(row...)
		}
	}
	t.Notes = []string{"state = the class's structured read-out (what the oracle reader answers); scripted:* and sim:* are SIMULATED readers (text rules; sim:* with capabilities drawn per question), not LLMs",
		"assumptions: the class's parameters (memory.Assumptions); one draw of the paraphrase per atom at this seed, so a row shows one outcome, not a rate",
		memory.GraphRAGAbstain + "@kept=CONTROL: the d-blind baseline over the atoms the control kept (the content-matched baseline)"}
	return t, nil
}

// DriftTable lists the slots whose current value differs between two
// snapshots of the same Wikidata slots (DyKnow's 2024 conversion, old, and
// V-DyKnow's 2025, new), paired by key (entity, attribute) from their
// snapshot QAs.
func DriftTable(old, new *bench.Bench, oldName, newName string) *eval.Table {
	cur := func(b *bench.Bench) map[esr.Key]esr.QA {
		m := map[esr.Key]esr.QA{}
		for _, q := range b.QAs {
			if q.Type() == esr.Snapshot && q.Entity != "" {
				m[esr.Key{Entity: q.Entity, Attribute: q.Attribute}] = q
			}
		}
		return m
	}
	history := func(b *bench.Bench, streamID string) map[string]bool {
		h := map[string]bool{}
		for _, a := range b.Atoms[streamID] {
			h[a.State()] = true
		}
		return h
	}
	a, b := cur(old), cur(new)
	var keys []esr.Key
	for k := range a {
		if _, ok := b[k]; ok {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].Entity != keys[j].Entity {
			return keys[i].Entity < keys[j].Entity
		}
		return keys[i].Attribute < keys[j].Attribute
	})
	t := &eval.Table{ID: eval.TableID("drift-" + oldName + "-" + newName), Title: "Drift: slots whose current value changed from " + oldName + " to " + newName,
		Columns: []string{"entity", "attribute", oldName + " current", newName + " current", "change"}}
	changed, renamed := 0, 0
	for _, k := range keys {
		qa, qb := a[k], b[k]
		if esr.StateOf(qa.GoldAnswer, esr.Positive) == esr.StateOf(qb.GoldAnswer, esr.Positive) {
			continue
		}
		changed++
		kind := driftKind(qa.GoldAnswer, qb.GoldAnswer, history(old, qa.StreamID)[esr.StateOf(qb.GoldAnswer, esr.Positive)], oldName)
		if strings.HasPrefix(kind, "renaming") {
			renamed++
		}
		t.AddRow(k.Entity, k.Attribute, qa.GoldAnswer, qb.GoldAnswer, kind)
	}
	t.Notes = []string{fmt.Sprintf("%d slots in both (paired by entity and attribute); %d changed their current value, %d of them renamings; %d only in %s, %d only in %s",
		len(keys), changed, renamed, len(a)-len(keys), oldName, len(b)-len(keys), newName),
		"current value = the snapshot QA's gold answer (Wikidata's open value)",
		"renaming = the two values have the same words once case and punctuation are dropped, or every word of one appears, in order, in the other (Bola Tinubu → Bola Ahmed Tinubu): the same value written differently, not drift"}
	return t
}

// driftKind names a change of a slot's current value from was to now: a
// renaming when both have the same words once case and punctuation are
// dropped, or when every word of the shorter appears, in order, in the
// longer ("Bola Tinubu" → "Bola Ahmed Tinubu"); else a return to a value
// the old snapshot's history had (returned); else a new value.
func driftKind(was, now string, returned bool, oldName string) string {
	a, b := valueWords(was), valueWords(now)
	switch {
	case len(a) > 0 && slices.Equal(a, b):
		return "renaming (the same words, written differently)"
	case len(a) > 0 && len(b) > 0 && (wordsWithin(a, b) || wordsWithin(b, a)):
		short, long := was, now
		if len(a) > len(b) {
			short, long = now, was
		}
		return fmt.Sprintf("renaming (every word of %q is in %q)", short, long)
	case returned:
		return "returned to a value " + oldName + " already had"
	}
	return "new value"
}

// valueWords are v's words, lower-cased, every rune that is not a letter
// or digit a separator.
func valueWords(v string) []string {
	return strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// wordsWithin reports whether every word of short appears in long in the
// same order (whole words, not substrings).
func wordsWithin(short, long []string) bool {
	i := 0
	for _, w := range long {
		if i < len(short) && w == short[i] {
			i++
		}
	}
	return i == len(short)
}

// ReferenceAdapter is the repository's reference exec: adapter, relative to
// the repository root; notebook 45 and `esr run all` run it.
var ReferenceAdapter = filepath.Join("examples", "adapter", "coarse_adapter.py")
