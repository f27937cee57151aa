package lab

import (
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// The words for what was fitted and for whose result a number is. The
// default readers (sim:fit-*) were fitted to the paper's Table 2 pooled
// terms and Tables 16–17 per family on the bench of sim.Calibrated(): a
// sentence that sets one of those numbers beside the paper's says "fitted"
// in that sentence, and a per-family result is the simulated reader's, a
// model of the paper's LLM, never a fact about the LLM.

// fittedPanel reports whether families (outcome rows' reader families,
// reader.Pooled ignored) are all shipped calibrated profiles and benchName is
// the bench they were fitted on: then Table 2's pooled terms, Table 3's
// reverted-revert cell and Tables 16–17's per-family cells are the
// calibration's targets, not checks.
func fittedPanel(families []reader.Family, benchName string) bool {
	cal := sim.Calibrated()
	if benchName != cal.Bench {
		return false
	}
	shipped := map[reader.Family]bool{}
	for _, p := range sim.CalibratedProfiles() {
		shipped[reader.Family{Kind: reader.KindSim, Name: p.Name}] = true
	}
	n := 0
	for _, f := range families {
		if f == reader.Pooled {
			continue
		}
		if !shipped[f] {
			return false
		}
		n++
	}
	return n > 0
}

// rowFamilies are the distinct reader families of rows.
func rowFamilies(rows []eval.Outcome) []reader.Family {
	return eval.Distinct(rows, func(o *eval.Outcome) reader.Family { return o.Family })
}

// comparisonFamilies are the distinct families of cs.
func comparisonFamilies(cs []eval.Comparison) []reader.Family {
	var out []reader.Family
	seen := map[reader.Family]bool{}
	for _, c := range cs {
		if !seen[c.Family] {
			seen[c.Family] = true
			out = append(out, c.Family)
		}
	}
	return out
}

// modelOf is the paper family a calibrated profile name (fit-qwen3-8b,
// with or without "sim:" and an "@..." suffix) models, or "".
func modelOf(f reader.Family) string {
	if f.Kind != reader.KindSim {
		return ""
	}
	name, _, _ := strings.Cut(f.Name, "@")
	for _, pf := range paper.Families {
		if sim.FitName(pf) == name {
			return pf
		}
	}
	return ""
}

// readerWords names a reader family in a sentence as what it is: "the
// simulated reader fit-qwen3-8b (a model of Qwen3-8B)" for a calibrated
// profile; any other family by its name, which says its kind (sim:,
// scripted:, llm:). Per-family sentences use it so that a calibrated
// reader's result never reads as a fact about the LLM it models.
func readerWords(f reader.Family) string {
	if m := modelOf(f); m != "" {
		return "the simulated reader " + f.Name + " (a model of " + m + ")"
	}
	return f.String()
}

// groupFamily is the family an accuracy group or a flip names (its
// printed family, as eval.AccuracyBy and Flip write it), read back at
// this edge; ok is false for a group that names no reader family.
func groupFamily(g string) (reader.Family, bool) {
	sp, err := reader.ParseSpec(g)
	if err != nil || sp.Kind == "" {
		return reader.Family{}, false
	}
	return reader.Family(sp), true
}

// coarseName is the paper's Graphiti, coarse-retain, as tables head it: an
// idealised store, never plain "Graphiti" (the deployed-system model is
// memory.Graphiti, displayed apart).
var coarseName = memory.Class(memory.CoarseRetain).Paper()
