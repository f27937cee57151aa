package esr_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
)

// Relations given as data can deprecate in a circle (a2 closes a1, a3 closes
// a2, a1 closes a3), which no ledger state satisfies; ⊕ itself only closes
// earlier atoms and never makes one.
func ExampleDeprecationCycle() {
	fmt.Println(esr.DeprecationCycle([][2]string{{"a2", "a1"}, {"a3", "a2"}}))
	fmt.Println(esr.DeprecationCycle([][2]string{{"a2", "a1"}, {"a3", "a2"}, {"a1", "a3"}}))
	// Output:
	// []
	// [a1 a3 a2 a1]
}
