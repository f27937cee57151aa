package esr_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/relate"
)

// BuildLedger folds a whole stream with ⊕: one key ledger per key, each atom
// with its status after the last event. In Figure 1 the revert (a3) states
// 30 s again as a new atom: both earlier atoms stay deprecated, and the
// snapshot is the one live atom.
func ExampleBuildLedger() {
	s, atoms := bench.Figure1()
	l := esr.BuildLedger(s, atoms, relate.Rule{})
	for _, kl := range l.Keys {
		fmt.Println(kl.Key.AttributeLabel(), "→", kl.Snapshot())
		for i, a := range kl.Atoms {
			fmt.Println(" ", a.ID, a.Display(), esr.StatusCell(kl.Status[i]))
		}
	}
	// Output:
	// request_timeout → 30 s
	//   a1 30 s DEPRECATED
	//   a2 60 s DEPRECATED
	//   a3 30 s LIVE
}

// ReadOut is the oracle read-out of Proposition 2b: the value of the live
// atoms, or ABSTAIN when live atoms disagree or none is live.
func ExampleReadOut() {
	_, atoms := bench.Figure1()
	ptrs := []*esr.Atom{&atoms[0], &atoms[1], &atoms[2]}
	fmt.Println(esr.ReadOut(ptrs, []bool{false, false, true}))
	fmt.Println(esr.ReadOut(ptrs, []bool{false, true, true}))
	fmt.Println(esr.ReadOut(ptrs, []bool{false, false, false}))
	// Output:
	// 30 s
	// ABSTAIN
	// ABSTAIN
}

// A key may carry a facet: the same attribute has one state per facet (the
// version in experimental is not the version in unstable).
func ExampleKey_AttributeLabel() {
	k := esr.Key{Entity: "gcc-14", Attribute: "version", Facet: "distribution=experimental"}
	fmt.Println(k.AttributeLabel())
	fmt.Println(k.Unfaceted().AttributeLabel())
	// Output:
	// version [distribution=experimental]
	// version
}
