package llm_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/llm"
)

// IsAbstention decides which cleaned replies decline to answer: ABSTAIN as
// the first word, a word such as "unknown" as the whole reply, a phrase
// such as "cannot be determined" anywhere, or nothing at all. A value that
// only contains such a word ("unknown-host") is still a value.
func ExampleIsAbstention() {
	for _, s := range []string{"ABSTAIN", "Unknown.", "It cannot be determined from the context", "", "30 s", "unknown-host"} {
		fmt.Printf("%q %v\n", s, llm.IsAbstention(s))
	}
	// Output:
	// "ABSTAIN" true
	// "Unknown." true
	// "It cannot be determined from the context" true
	// "" true
	// "30 s" false
	// "unknown-host" false
}
