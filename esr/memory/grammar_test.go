package memory_test

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/memory"
)

// names the class grammar took without a word. Each is
// now an error naming the bad part.
func TestClassGrammarLaxity(t *testing.T) {
	for _, c := range []struct{ list, want string }{
		{"graphiti@", `"graphiti@"`}, // was accepted as a new class name
		{"graphiti@paraphrase=0.3@", `"graphiti@paraphrase=0.3@"`},
		{"all,all", `all`}, // was: unknown memory class "all"
		{"fine-ledger,fine-ledger", `"fine-ledger" given twice`},
		{"all,fine-ledger", `"fine-ledger" given twice`},
	} {
		names, err := memory.ParseNames(c.list)
		if err == nil {
			t.Errorf("ParseNames(%q) = %q, want an error", c.list, names)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), `unknown memory class "all"`) {
			t.Errorf("ParseNames(%q): %v, want an error naming %s", c.list, err, c.want)
		}
	}
	if _, err := memory.ParseSpec("graphiti@"); err == nil {
		t.Error(`ParseSpec("graphiti@") has no error`)
	}
	// "all" within a list stands for the paper's classes, once.
	names, err := memory.ParseNames("all,graphiti")
	if err != nil || len(names) != len(memory.Names)+1 || !names[len(names)-1].Is(memory.Graphiti) {
		t.Errorf(`ParseNames("all,graphiti") = %q, %v`, names, err)
	}
}
