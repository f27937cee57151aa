package experiment

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/paper"
)

// Per-table verdicts: for each table of the paper that the notebooks
// recompute, the finding the paper draws from it and whether ours draws the
// same one, with every number taken from the rows and the registry.

// Table11Verdicts compares each cell of Table 11 with the paper's (Versus),
// then says whether the pure half's gain is mostly render or mechanism in
// ours and in the paper.
func Table11Verdicts(rows []eval.Outcome, pure map[string]bool, opt eval.StatOptions) []string {
	mono := eval.And(eval.QueryType("snapshot"), eval.Phenomenon(string(esr.Monotonic)))
	notPure := func(o *eval.Outcome) bool { return !pure[o.QID] }
	p := eval.And(mono, eval.QIDs(pure))
	specs := []struct {
		label, a, b, key string
		f                eval.Filter
	}{
		{"with deprecated: RL − GRA", memory.FineLedger, memory.GraphRAGAbstain, "t11/with-deprecated", eval.And(mono, notPure)},
		{"pure: RL − GRA", memory.FineLedger, memory.GraphRAGAbstain, "t11/pure/RL − GRA", p},
		{"pure: render", memory.RenderOnly, memory.GraphRAGAbstain, "t11/pure/render", p},
		{"pure: fine residual", memory.FineLedger, memory.RenderOnly, "t11/pure/fine residual", p},
	}
	var out []string
	var render, resid eval.Comparison
	for i, s := range specs {
		c, err := eval.Compare(rows, s.label, s.a, s.b, s.f, opt)
		if err != nil {
			continue
		}
		out = append(out, Versus(c, s.key))
		switch i {
		case 2:
			render = c
		case 3:
			resid = c
		}
	}
	if render.N > 0 && resid.N > 0 {
		ours, theirs := "render", "render"
		if math.Abs(resid.Delta) > math.Abs(render.Delta) {
			ours = "the fine residual"
		}
		if math.Abs(Paper["t11/pure/fine residual"]) > math.Abs(Paper["t11/pure/render"]) {
			theirs = "the fine residual"
		}
		s := fmt.Sprintf("On the pure half (no revision at all) ours is mostly %s (%s against %s); the paper's is mostly %s (%s against %s).",
			ours, fmtSigned(render.Delta), fmtSigned(resid.Delta), theirs, fmtSigned(Paper["t11/pure/render"]), fmtSigned(Paper["t11/pure/fine residual"]))
		if ours != theirs {
			s += " A different term carries the pure half's gain."
		}
		out = append(out, s)
	}
	return out
}

// trend describes a series: rising, falling or neither, by the sign of
// the difference between its last and first values and whether every step
// keeps that direction.
func trend(xs []float64) string {
	if len(xs) < 2 {
		return "too short for a trend"
	}
	up, down := true, true
	for i := 1; i < len(xs); i++ {
		if xs[i] < xs[i-1] {
			up = false
		}
		if xs[i] > xs[i-1] {
			down = false
		}
	}
	d := xs[len(xs)-1] - xs[0]
	switch {
	case up && d > 0:
		return fmt.Sprintf("rises monotonically (%s → %s)", fmtSigned(xs[0]), fmtSigned(xs[len(xs)-1]))
	case down && d < 0:
		return fmt.Sprintf("falls monotonically (%s → %s)", fmtSigned(xs[0]), fmtSigned(xs[len(xs)-1]))
	case d > 0:
		return fmt.Sprintf("rises overall but not monotonically (%s → %s)", fmtSigned(xs[0]), fmtSigned(xs[len(xs)-1]))
	case d < 0:
		return fmt.Sprintf("falls overall but not monotonically (%s → %s)", fmtSigned(xs[0]), fmtSigned(xs[len(xs)-1]))
	}
	return "shows no overall trend"
}

// Table12Verdict compares the stream-length trend of fine − coarse with
// the paper's (which rises monotonically, −0.204 → +0.023), and says in
// how many bins our interval excludes 0 and with which sign.
func Table12Verdict(rows []eval.Outcome, lengths map[string]int, opt eval.StatOptions) string {
	var ours []float64
	neg, pos := 0, 0
	for _, bin := range binsOfTable12() {
		label := bin
		f := eval.And(eval.QueryType("snapshot"), func(o *eval.Outcome) bool { return LengthBin(lengths[o.QID]) == label })
		c, err := eval.Compare(rows, bin, memory.FineLedger, memory.CoarseRetain, f, opt)
		if err != nil {
			continue
		}
		ours = append(ours, c.Delta)
		switch {
		case c.Hi < 0:
			neg++
		case c.Lo > 0:
			pos++
		}
	}
	if len(ours) == 0 {
		return ""
	}
	return fmt.Sprintf("Across the stream-length bins our fine − coarse %s; the paper's %s. Our interval excludes 0 in %d of %d bins (%d negative, %d positive). Both are observational: stream length moves relation mix and difficulty with it.",
		trend(ours), trend(paper.Table12), neg+pos, len(ours), neg, pos)
}

// Table13Verdict compares the noise sweeps with the paper's finding (C3
// falsified: coarse stays ahead at every level, no monotone trend, no sign
// flip): per axis, whether ours ever has fine ahead (an interval above 0),
// and its trend.
func Table13Verdict(rel, drop []eval.Comparison) string {
	var parts []string
	for _, ax := range []struct {
		name string
		cs   []eval.Comparison
		key  string
	}{{"relation-label noise", rel, "relation-noise"}, {"atom dropout", drop, "atom-dropout"}} {
		var xs []float64
		ahead, behind := 0, 0
		for _, c := range ax.cs {
			xs = append(xs, c.Delta)
			switch {
			case c.Lo > 0:
				ahead++
			case c.Hi < 0:
				behind++
			}
		}
		if len(xs) == 0 {
			continue
		}
		s := fmt.Sprintf("under %s it %s, fine ahead (interval above 0) at %d of %d levels and behind at %d; the paper's %s", ax.name, trend(xs), ahead, len(xs), behind, trend(paper.Table13[ax.key]))
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return ""
	}
	return "The paper's reading of Table 13: coarse stays ahead at every level with no monotone trend and no sign flip (its C3 fails). Ours: " + strings.Join(parts, "; ") + "."
}

// Table17Verdict compares, per calibrated family with a Table 17 row, which
// render format gives the largest Δ RL − GRA in ours and in the paper, and
// how far the formats spread in each.
func Table17Verdict(cs []eval.Comparison) string {
	fams := map[string]map[string]float64{}
	for _, c := range cs {
		if c.Label != "RL − GRA" || c.Family == Pooled {
			continue
		}
		if fams[c.Family] == nil {
			fams[c.Family] = map[string]float64{}
		}
		fams[c.Family][c.Scope] = c.Delta
	}
	reading := paper.Table17Readings[paper.Table17Reading]
	var names []string
	for f := range fams {
		names = append(names, f)
	}
	sort.Strings(names)
	var parts []string
	for _, f := range names {
		var fam string
		for _, pf := range paper.Families {
			if f == "sim:"+reader.FitName(pf) {
				fam = pf
			}
		}
		if fam == "" {
			continue
		}
		oursBest, paperBest := "", ""
		oMin, oMax, pMin, pMax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for i, format := range reading {
			o, ok := fams[f][format]
			if !ok {
				continue
			}
			p := paper.Table17Columns[fam][i]
			if oursBest == "" || o > fams[f][oursBest] {
				oursBest = format
			}
			if paperBest == "" || p > paper.Table17Columns[fam][indexOf(reading[:], paperBest)] {
				paperBest = format
			}
			oMin, oMax, pMin, pMax = math.Min(oMin, o), math.Max(oMax, o), math.Min(pMin, p), math.Max(pMax, p)
		}
		if oursBest == "" {
			continue
		}
		largest := "largest " + oursBest
		if oMax-oMin < 0.0005 {
			largest = "no format ahead"
		}
		parts = append(parts, fmt.Sprintf("%s: formats spread by %.3f in ours (%s) and %.3f in the paper (largest %s)", fam, oMax-oMin, largest, pMax-pMin, paperBest))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Per family (the paper's column reading " + paper.Table17Reading + "): " + strings.Join(parts, "; ") + ". Where ours spreads far less, the readers read every layout that shows the same rows alike; the paper's LLMs do not."
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return 0
}

// Figure3Verdict compares the provenance ordering of the retention classes
// with the paper's (coarse-discard < graphrag-abstain < coarse-retain <
// fine-ledger) and each paired difference the paper reports (Versus).
func Figure3Verdict(rows []eval.Outcome, opt eval.StatOptions) []string {
	acc := ProvenanceAccuracy(rows, StateOnly)
	if len(acc) == 0 {
		return nil
	}
	ours := append([]eval.Accuracy(nil), acc...)
	sort.SliceStable(ours, func(i, j int) bool { return ours[i].Acc < ours[j].Acc })
	theirs := append([]string(nil), RetentionClasses...)
	sort.SliceStable(theirs, func(i, j int) bool { return Paper["f3/"+theirs[i]] < Paper["f3/"+theirs[j]] })
	var o []string
	for _, a := range ours {
		o = append(o, a.Memory)
	}
	s := "Ordered by provenance accuracy, ours: " + strings.Join(o, " < ") + "; the paper's: " + strings.Join(theirs, " < ") + "."
	if strings.Join(o, ",") == strings.Join(theirs, ",") {
		s += " The same ordering."
	} else {
		s += " A different ordering."
	}
	out := []string{s}
	f := eval.And(eval.QueryType("provenance"), eval.Condition(StateOnly))
	terms := []eval.Term{{Label: "fine − discard", A: memory.FineLedger, B: memory.CoarseDiscard}, {Label: "retain − discard", A: memory.CoarseRetain, B: memory.CoarseDiscard}, {Label: "fine − retain", A: memory.FineLedger, B: memory.CoarseRetain}}
	cs, _ := eval.CompareTerms(rows, terms, f, opt)
	for _, c := range cs {
		out = append(out, Versus(c, "f3/"+c.Label))
	}
	return out
}

// DeployedReversalVerdict is §4.3's deployed-render reversal: fine −
// coarse on provenance with the retained state only and with the raw
// events appended, ours beside the paper's, and whether appending the
// events reverses the sign in ours as in the paper.
func DeployedReversalVerdict(rows []eval.Outcome, opt eval.StatOptions) string {
	prov := eval.QueryType("provenance")
	state, err1 := eval.Compare(rows, "fine − coarse (state only)", memory.FineLedger, memory.CoarseRetain, eval.And(prov, eval.Condition(StateOnly)), opt)
	dep, err2 := eval.Compare(rows, "fine − coarse (deployed render)", memory.FineLedger, memory.CoarseRetain, eval.And(prov, eval.Condition(Deployed)), opt)
	if err1 != nil || err2 != nil {
		return ""
	}
	pState := Paper["f3/fine − retain"]
	s := fmt.Sprintf("Provenance, fine − coarse: state only %s %s (%s), deployed render %s %s (%s). The paper: %s state only, %s deployed, a reversal.",
		fmtSigned(state.Delta), fmtCI(state.Lo, state.Hi), finding(state.Delta, state.Lo, state.Hi), fmtSigned(dep.Delta), fmtCI(dep.Lo, dep.Hi), finding(dep.Delta, dep.Lo, dep.Hi),
		fmtSigned(pState), fmtSigned(Paper["f3/deployed/fine − coarse"]))
	switch {
	case state.Lo > 0 && dep.Hi < 0:
		s += " Ours reverses too: appending the raw events turns fine's lead into a loss."
	case state.Lo > 0 && dep.Lo > 0:
		s += " Ours does not reverse: fine keeps its lead with the raw events appended."
	default:
		s += fmt.Sprintf(" Ours shows no reversal with intervals on both sides of 0 (the deployed render moves fine − coarse by %s).", fmtSigned(dep.Delta-state.Delta))
	}
	return s
}

// Table19Verdict is the paper's reading of Table 19 (RevisionLedger beats
// GraphRAG+abstain in every (wording, family) cell, while the wording moves
// the control's calibration) checked on ours: in how many cells Δ RL − GRA
// is positive with its interval above 0.
func Table19Verdict(rows []eval.Outcome, opt eval.StatOptions) string {
	cells, above, below := 0, 0, 0
	for _, v := range WordingVariants {
		cond := WordingCondition(v)
		sub := eval.Select(rows, eval.Condition(cond))
		for _, fam := range eval.Distinct(sub, func(o *eval.Outcome) string { return o.Family }) {
			c, err := eval.Compare(rows, v.Name, memory.FineLedger, memory.GraphRAGAbstain, eval.And(eval.Condition(cond), eval.Family(fam)), opt)
			if err != nil {
				continue
			}
			cells++
			switch {
			case c.Lo > 0:
				above++
			case c.Hi < 0:
				below++
			}
		}
	}
	if cells == 0 {
		return ""
	}
	s := fmt.Sprintf("RevisionLedger − GraphRAG+abstain is above 0 (interval excludes 0) in %d of %d (wording, family) cells and below 0 in %d; the paper finds RevisionLedger ahead in all six of its cells.", above, cells, below)
	if above == cells {
		s += " The same finding."
	} else {
		s += " A different finding: the wording can reverse or erase the ledger's lead for some of these readers."
	}
	return s
}
