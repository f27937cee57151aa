package experiment

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/eval"
	"github.com/esrkit/esrkit/internal/report"
)

// DeployedBaseline is the d-blind baseline the deployed classes are
// decomposed against (the paper's GraphRAG+abstain).
const DeployedBaseline = memory.GraphRAGAbstain

// DeployedClasses are the deployed-system classes and, when adapterPath is
// not empty, the exec: adapter at that path.
func DeployedClasses(adapterPath string) []string {
	out := append([]string{}, memory.DeployedNames...)
	if adapterPath != "" {
		out = append(out, memory.ExecPrefix+adapterPath)
	}
	return out
}

// DeployedEval evaluates every class, its render-matched control (the same
// build with the mechanism off) and the d-blind baseline on b with readers,
// under the rule scorer. Rows are sorted (see Evaluate).
func DeployedEval(ctx context.Context, b *bench.Bench, classes []string, readers []reader.Reader) ([]eval.Outcome, error) {
	mems := []string{DeployedBaseline}
	for _, c := range classes {
		mems = append(mems, c, memory.RenderMatched(c))
	}
	defer memory.CloseAdapters()
	return Evaluate(ctx, b, eval.Config{Memories: mems, Readers: readers})
}

// ShortName shortens an exec: class name for tables: the adapter's path
// from its "examples/" folder on, or its file name.
func ShortName(class string) string {
	base, control := strings.CutSuffix(class, memory.ControlSuffix)
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

// DeployedScope is a subset of rows a decomposition is computed on.
type DeployedScope struct {
	Name   string
	Filter Filter
}

// DeployedScopes are all rows and the reverted-revert snapshot rows.
var DeployedScopes = []DeployedScope{
	{"all QAs", nil},
	{"reverted_revert snapshot", And(QueryType(string(esr.Snapshot)), Phenomenon(string(esr.RevertedRevert)))},
}

// DeployedDecomposition is the render-matched decomposition of each class on
// rows (MechanismTerms: total = class − baseline, render = control −
// baseline, mechanism = class − control, each with its paired bootstrap
// interval), per scope, and one sentence per class and scope generated from
// the numbers.
func DeployedDecomposition(rows []eval.Outcome, benchName string, classes []string, opt StatOptions) (*report.Table, []string, error) {
	t := &report.Table{Name: "deployed-decomposition-" + benchName,
		Title:   "Deployed memories under the render-matched protocol: " + benchName,
		Columns: []string{"class", "scope", "n", "acc class", "acc control", "acc baseline", "total", "render", "mechanism"}}
	var sentences []string
	for _, c := range classes {
		for _, sc := range DeployedScopes {
			cs, err := CompareTerms(rows, MechanismTerms(c, memory.RenderMatched(c), DeployedBaseline), sc.Filter, opt)
			if err != nil || len(cs) != 3 {
				continue // no rows in this scope
			}
			total, render, mech := cs[0], cs[1], cs[2]
			t.AddRow(ShortName(c), sc.Name, total.N, fmtProp(total.AccA), fmtProp(render.AccA), fmtProp(total.AccB),
				termCell(total), termCell(render), termCell(mech))
			sentences = append(sentences, decompositionSentence(benchName, sc.Name, ShortName(c), total, render, mech))
		}
	}
	if len(t.Rows) == 0 {
		return nil, nil, fmt.Errorf("%s: no rows for the deployed classes", benchName)
	}
	t.Notes = []string{"control = the same class built with the mechanism off (memory.Options.MechanismOff: every relation SAME_STATE); baseline = " + DeployedBaseline + " (d-blind)",
		"paired over (qid, reader family); " + opt.IntervalNote() + "; relation source: the rule scorer",
		familyNote(rows)}
	return t, sentences, nil
}

func termCell(c Comparison) string { return fmtSigned(c.Delta) + " " + fmtCI(c.Lo, c.Hi) }

// direction words a paired difference: "raises"/"lowers" when the interval
// excludes zero, "does not measurably change" otherwise.
func direction(c Comparison) string {
	switch {
	case c.Lo > 0:
		return "raises accuracy by " + fmtSigned(c.Delta)
	case c.Hi < 0:
		return "lowers accuracy by " + strings.TrimLeft(fmtSigned(c.Delta), "-−")
	}
	return "does not measurably change accuracy (" + fmtSigned(c.Delta) + ", interval " + fmtCI(c.Lo, c.Hi) + " includes 0)"
}

func decompositionSentence(benchName, scope, class string, total, render, mech Comparison) string {
	s := fmt.Sprintf("On %s (%s, n = %d pairs), %s against %s: overall it %s; its render alone (the control) %s; its mechanism %s.",
		benchName, scope, total.N, class, total.B, direction(total), direction(render), direction(mech))
	switch {
	case mech.Lo > 0:
		s += " Its mechanism's gain survives the render-matched control."
	case mech.Hi < 0:
		s += " Under the render-matched control its mechanism costs accuracy."
	case render.Lo > 0 || render.Hi < 0:
		s += " What separates it from the baseline is presentation, not mechanism."
	default:
		s += " Neither term is distinguishable from zero."
	}
	return s
}

// RevertedRevertTable runs the paper's Figure 1 stream (30 s → 60 s → 30 s,
// a reverted revert whose restored fact has the first fact's text) through
// each class: its structured snapshot and provenance read-outs and what each
// scripted (SIMULATED) reader answers from its render.
func RevertedRevertTable(ctx context.Context, classes []string, profiles []string) (*report.Table, error) {
	s, atoms := bench.Figure1()
	qa := bench.Figure1QA()
	snap := qa.Query(bench.TimeoutKey)
	prov := snap
	prov.Type = esr.Provenance
	t := &report.Table{Name: "deployed-reverted-revert", Title: "The reverted revert A → B → A (Figure 1: 30 s → 60 s → 30 s; gold now: 30 s, before: 60 s)",
		Columns: []string{"class", "state: now", "state: before"}}
	var rs []reader.Reader
	for _, p := range profiles {
		r, err := reader.NewScripted(p)
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
		t.Columns = append(t.Columns, r.Name()+": now")
	}
	defer memory.CloseAdapters()
	for _, c := range classes {
		for _, name := range []string{c, memory.RenderMatched(c)} {
			st, err := memory.Build(name, s, atoms, memory.Options{})
			if err != nil {
				return nil, err
			}
			row := []any{ShortName(name), st.Answer(snap).String(), st.Answer(prov).String()}
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
	t.Notes = []string{"state = the class's structured read-out (what the oracle reader answers); scripted:* and sim:* are SIMULATED readers (text rules; sim:* with capabilities drawn per question), not LLMs"}
	return t, nil
}

// DriftTable lists the slots whose current value differs between two
// snapshots of the same Wikidata slots (DyKnow's 2024 conversion, old, and
// V-DyKnow's 2025, new), paired by key (entity, attribute) from their
// snapshot QAs.
func DriftTable(old, new *bench.Bench, oldName, newName string) *report.Table {
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
	t := &report.Table{Name: "drift-" + oldName + "-" + newName, Title: "Drift: slots whose current value changed from " + oldName + " to " + newName,
		Columns: []string{"entity", "attribute", oldName + " current", newName + " current", "change"}}
	changed := 0
	for _, k := range keys {
		qa, qb := a[k], b[k]
		if esr.StateOf(qa.GoldAnswer, esr.Positive) == esr.StateOf(qb.GoldAnswer, esr.Positive) {
			continue
		}
		changed++
		kind := "new value"
		if history(old, qa.StreamID)[esr.StateOf(qb.GoldAnswer, esr.Positive)] {
			kind = "returned to a value " + oldName + " already had"
		}
		t.AddRow(k.Entity, k.Attribute, qa.GoldAnswer, qb.GoldAnswer, kind)
	}
	t.Notes = []string{fmt.Sprintf("%d slots in both (paired by entity and attribute); %d changed their current value; %d only in %s, %d only in %s",
		len(keys), changed, len(a)-len(keys), oldName, len(b)-len(keys), newName),
		"current value = the snapshot QA's gold answer (Wikidata's open value); spelling differences between snapshots count as changes"}
	return t
}

// deployedSuite evaluates the deployed classes (and Setup.Adapter's exec:
// adapter, when set) with their controls and the d-blind baseline, and
// reports their decomposition (notebook 45, `esr run deployed`).
var deployedSuite = Suite{Name: "deployed", Doc: "deployed memories (Graphiti, Mem0, an exec: adapter) under the render-matched protocol",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		return DeployedEval(ctx, s.Bench, DeployedClasses(s.Adapter), s.Readers)
	},
	Report: func(rows []eval.Outcome, s Setup) (*Result, error) {
		res := &Result{Name: "deployed", Rows: rows, Figures: map[string]*plot.Plot{}}
		t, _, err := DeployedDecomposition(rows, s.Bench.Name(), DeployedClasses(s.Adapter), s.Stats)
		res.add("deployed-decomposition-"+s.Bench.Name(), t, err)
		return res, nil
	}}
