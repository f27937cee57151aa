package lab

import (
	"fmt"
	"math"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/internal/report"
)

// ReconcileCoarse sets notebook 45's deployed-system model of Graphiti
// beside notebook 41's idealised store in one sentence, so that the two
// numbers called "Graphiti" in the paper's and the kit's pages read as what
// they are. From renderConfound (the render-confound suite's rows, 41's) it
// takes coarse-retain − GraphRAG+abstain on the reverted-revert snapshot
// questions; from deployed (the deployed suite's rows on the same bench,
// 45's) graphiti − GraphRAG+abstain on the same questions and its
// decomposition (content, render, mechanism), naming the largest term. Every
// number is computed; the sentence fails rather than guess when either
// comparison is missing.
func ReconcileCoarse(renderConfound, deployed []eval.Outcome, benchName string, opt eval.StatOptions) (string, error) {
	rr := eval.RevertedRevertSnapshot
	gra := paper.DeployedBaseline
	graName := gra.Class.Paper()
	coarse, err := eval.Compare(renderConfound, eval.Term{Label: "coarse", A: memory.SpecOf(memory.CoarseRetain), B: gra}, rr, opt)
	if err != nil {
		return "", fmt.Errorf("reconcile: 41's coarse-retain: %w", err)
	}
	g := memory.SpecOf(memory.Graphiti)
	d, err := deployedTermsOf(deployed, g, eval.Scope{Stratum: esr.RevertedRevert, QueryType: esr.Snapshot}, opt)
	if err != nil {
		return "", fmt.Errorf("reconcile: 45's graphiti: %w", err)
	}
	big, name := d.Mechanism, "its mechanism"
	for _, t := range []struct {
		c    eval.Comparison
		name string
	}{{d.Content, "its content term (the atoms its edge resolution dropped before any reader sees the render)"}, {d.Render, "its render term"}} {
		if math.Abs(t.c.Delta) > math.Abs(big.Delta) {
			big, name = t.c, t.name
		}
	}
	s := fmt.Sprintf("Two different stores: on %s's reverted-revert snapshot questions (n = %d pairs, the same default readers) "+
		"notebook 41's %s scores %s against %s's %s (%s %s), while %s; %s) scores %s against %s's %s (%s %s) here; ",
		benchName, coarse.N, memory.Class(memory.CoarseRetain).Paper(), report.Prop(coarse.AccA), graName, report.Prop(coarse.AccB),
		report.Signed(coarse.Delta), coarse.CI(),
		strings.TrimSuffix(memory.Class(memory.Graphiti).Paper(), ")"), d.Assumptions, report.Prop(d.Total.AccA), graName, report.Prop(d.Total.AccB),
		report.Signed(d.Total.Delta), d.Total.CI())
	s += fmt.Sprintf("graphiti's difference from the baseline is mostly %s, %s %s. The idealised store keeps every edge it is given and invalidates it by the rule; the deployed-system model first decides, as upstream does, which edges to keep.",
		name, report.Signed(big.Delta), big.CI())
	return s, nil
}
