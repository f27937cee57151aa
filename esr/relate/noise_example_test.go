package relate_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/relate"
)

// RelationNoise corrupts a source's labels at rate P with draws fixed by the
// seed and the pair: at P = 0 the labels are the inner source's, and any arm
// wrapped with the same Seed and P sees the same corrupted pairs.
func ExampleRelationNoise() {
	s := &esr.Stream{ID: "s"}
	atoms := make([]esr.Atom, 9)
	for i := range atoms {
		atoms[i] = esr.Atom{ID: fmt.Sprintf("a%d", i+1), StreamID: "s", Entity: "svc", Attribute: "timeout", Value: "30 s"}
	}
	for _, p := range []float64{0, 0.5} {
		rel := relate.RelationNoise{Inner: relate.SameState{}, P: p, Seed: 1}.ForStream(s, atoms)
		again := relate.RelationNoise{Inner: relate.SameState{}, P: p, Seed: 1}.ForStream(s, atoms)
		changed, same := 0, true
		for i := 1; i < len(atoms); i++ {
			r := rel(&atoms[i-1], &atoms[i])
			if r != esr.SameState {
				changed++
			}
			same = same && r == again(&atoms[i-1], &atoms[i])
		}
		fmt.Printf("P = %g: %d of %d labels changed, the same on a second draw: %v\n", p, changed, len(atoms)-1, same)
	}
	// Output:
	// P = 0: 0 of 8 labels changed, the same on a second draw: true
	// P = 0.5: 4 of 8 labels changed, the same on a second draw: true
}

// DropAtoms keeps each atom with probability 1 − p, the same atoms for
// every arm that uses the same seed.
func ExampleDropAtoms() {
	atoms := make([]esr.Atom, 10)
	for i := range atoms {
		atoms[i] = esr.Atom{ID: fmt.Sprintf("a%d", i+1), StreamID: "s"}
	}
	var kept []string
	for _, a := range relate.DropAtoms(atoms, 0.3, 7) {
		kept = append(kept, a.ID)
	}
	fmt.Println(len(kept), "kept:", kept)
	fmt.Println("p = 0 keeps", len(relate.DropAtoms(atoms, 0, 7)))
	// Output:
	// 8 kept: [a1 a2 a4 a5 a6 a7 a8 a10]
	// p = 0 keeps 10
}
