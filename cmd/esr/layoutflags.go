package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
)

// layoutFlags are the memory options that change a render's layout or
// switch the mechanism off: shared by ledger, render, eval and run.
type layoutFlags struct {
	ledgerFormat string
	factFormat   string
	renderSeed   uint64
	mechanismOff bool
}

func (l *layoutFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&l.ledgerFormat, "ledger-format", memory.LedgerFormats[0], "layout of fine-ledger and render-only: "+strings.Join(memory.LedgerFormats, ", "))
	fs.StringVar(&l.factFormat, "fact-format", memory.FactsDated, "layout of graphrag-abstain's fact table: "+strings.Join(memory.FactFormats, ", "))
	fs.Uint64Var(&l.renderSeed, "render-seed", 0, "seed of graphrag-abstain's row order (a permutation per stream and key, not time order)")
	fs.BoolVar(&l.mechanismOff, "mechanism-off", false, "build every memory as its render-matched control (every relation SAME_STATE, no deprecation, status neutral)")
}

// apply checks the flags and sets them on opt.
func (l *layoutFlags) apply(opt *memory.Options) error {
	if !slices.Contains(memory.LedgerFormats, l.ledgerFormat) {
		return fmt.Errorf("--ledger-format %q: want one of %s", l.ledgerFormat, strings.Join(memory.LedgerFormats, ", "))
	}
	if !slices.Contains(memory.FactFormats, l.factFormat) {
		return fmt.Errorf("--fact-format %q: want one of %s", l.factFormat, strings.Join(memory.FactFormats, ", "))
	}
	opt.LedgerFormat, opt.FactFormat, opt.RenderSeed, opt.MechanismOff = l.ledgerFormat, l.factFormat, l.renderSeed, l.mechanismOff
	return nil
}

// noiseFlags are --relation-noise and --noise-seed of esr eval and esr run:
// every relation label corrupted with probability P, as the noise suite
// does (eval.UnderRelationNoise, lab.Setup.WithRelationNoise).
type noiseFlags struct {
	p    float64
	seed uint64
}

func (n *noiseFlags) bind(fs *flag.FlagSet) {
	fs.Float64Var(&n.p, "relation-noise", 0, "replace each predicted relation label by a random other label with probability `P` (0, 0.1, …, 1; the noise suite's seeded draw per atom pair); recorded in every row's condition (\"relation-noise p=P\")")
	fs.Uint64Var(&n.seed, "noise-seed", eval.NoiseSeed, "seed of the relation-noise draws (the noise suite's by default)")
}
