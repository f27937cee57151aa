package esr_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/relate"
)

// ⊕ stepped through the paper's Figure 1 stream (30 s → 60 s → 30 s): after
// each atom, the relation the rule scorer gives it against the active set,
// the active set M, the status recomputed from M, and the snapshot.
func ExampleKeyLedger_Add() {
	s, atoms := bench.Figure1()
	rel := relate.Rule{}.ForStream(s, atoms)
	var kl esr.KeyLedger
	for i := range atoms {
		a := &atoms[i]
		for _, j := range kl.Active {
			fmt.Printf("  %s→%s %s\n", kl.Atoms[j].ID, a.ID, rel(kl.Atoms[j], a))
		}
		kl.Add(a, rel)
		var active []string
		for _, j := range kl.Active {
			active = append(active, kl.Atoms[j].ID+"="+kl.Atoms[j].Display())
		}
		fmt.Printf("after %s: M = %v, status %s, snapshot %v\n", a.ID, active, kl.StatusText(), kl.Snapshot())
	}
	// Output:
	// after a1: M = [a1=30 s], status ok, snapshot 30 s
	//   a1→a2 SUPERSEDES
	// after a2: M = [a2=60 s], status ok, snapshot 60 s
	//   a2→a3 SUPERSEDES
	// after a3: M = [a3=30 s], status ok, snapshot 30 s
}
