package reader_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/reader"
)

// A reader's identity is a typed Spec (kind and profile or model); its
// name is parsed and printed at the edge.
func ExampleParseSpec() {
	for _, name := range []string{"oracle", "sim:fit-qwen3-8b", "llm:gpt-4o-mini", "oracle:x"} {
		s, err := reader.ParseSpec(name)
		fmt.Printf("%q kind=%q name=%q err=%v\n", s.String(), s.Kind, s.Name, err)
	}
	// Output:
	// "oracle" kind="oracle" name="" err=<nil>
	// "sim:fit-qwen3-8b" kind="sim" name="fit-qwen3-8b" err=<nil>
	// "llm:gpt-4o-mini" kind="llm" name="gpt-4o-mini" err=<nil>
	// "" kind="" name="" err=reader "oracle:x": oracle takes no name
}
