package theory

import (
	"context"
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/relate"
)

// Corollary1OnBench measures every input of Corollary 1 on a benchmark
// instead of assuming them: F = fine-ledger, C = coarse-retain, read by the
// oracle reader (each memory's structured read-out, so the accuracies are
// the memories' own, not a reader's) on the QAs of one query type and
// stratum, scored by the exact judge. The oracle arms use the benchmark's
// gold relations (relations.jsonl); the deployed arms use deployed (nil:
// the rule scorer). β = R*_C − R*_F is then measured, not set to 0 by P2b.
func Corollary1OnBench(ctx context.Context, b *bench.Bench, qt esr.QueryType, ph esr.Phenomenon, deployed esr.Relator) (GapSplit, error) {
	if b.Relations == nil {
		return GapSplit{}, fmt.Errorf("corollary 1: benchmark %s has no gold relations (relations.jsonl)", b.Name())
	}
	if deployed == nil {
		deployed = relate.Rule{}
	}
	arm := func(r esr.Relator, name string) (map[string]float64, int, error) {
		cfg := eval.Config{Memories: memory.Specs(memory.FineLedger, memory.CoarseRetain), Readers: []reader.Reader{reader.Oracle{}},
			Judge: judge.Exact{}, QueryTypes: []esr.QueryType{qt}, Options: memory.Options{Relator: r}, Variant: eval.LabelVariant(name)}
		if ph != "" {
			cfg.Phenomena = []esr.Phenomenon{ph}
		}
		rows, err := eval.Evaluate(ctx, b, cfg)
		if err != nil {
			return nil, 0, err
		}
		acc := map[string]float64{}
		n := 0
		for _, a := range eval.AccuracyBy(rows, memory.Specs(memory.FineLedger, memory.CoarseRetain), nil, nil, 0.95) {
			acc[a.Memory.String()], n = a.Acc, a.N
		}
		if n == 0 {
			return nil, 0, fmt.Errorf("corollary 1: no %s QAs in stratum %q", qt, ph)
		}
		return acc, n, nil
	}
	gold, n, err := arm(relate.Oracle{Gold: b.Relations}, "gold")
	if err != nil {
		return GapSplit{}, err
	}
	dep, _, err := arm(deployed, deployed.Name())
	if err != nil {
		return GapSplit{}, err
	}
	d := Corollary1(gold[memory.FineLedger], gold[memory.CoarseRetain], dep[memory.FineLedger], dep[memory.CoarseRetain])
	where := fmt.Sprintf("%s, %s", b.Name(), qt)
	if ph != "" {
		where += ", " + string(ph)
	}
	g := fmt.Sprintf("measured (%s; oracle reader, gold relations, n = %d)", where, n)
	r := fmt.Sprintf("measured (%s; oracle reader, %s relations, n = %d)", where, deployed.Name(), n)
	d.Sources = [4]string{g, g, r, r}
	return d, nil
}

// Corollary1FromPaper is Corollary 1 with the paper's Table 5 reverted-revert
// accuracies as the deployed inputs and the oracle accuracies ASSUMED to be
// 1 (the paper reports no oracle-relation arm), labelled as such.
func Corollary1FromPaper() GapSplit {
	d := Corollary1(1, 1, paper.Number(paper.T5Cell(esr.RevertedRevert, memory.SpecOf(memory.FineLedger))), paper.Number(paper.T5Cell(esr.RevertedRevert, memory.SpecOf(memory.CoarseRetain))))
	d.Sources = [4]string{"assumed (no oracle arm in the paper)", "assumed (no oracle arm in the paper)",
		"paper Table 5, reverted-revert", "paper Table 5, reverted-revert"}
	return d
}
