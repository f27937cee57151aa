package memory_test

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

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
	if _, err := memory.ParseClassName("graphiti@"); err == nil {
		t.Error(`ParseClassName("graphiti@") has no error`)
	}
	// "all" within a list stands for the paper's classes, once.
	names, err := memory.ParseNames("all,graphiti")
	if err != nil || len(names) != len(memory.Names)+1 || names[len(names)-1] != "graphiti" {
		t.Errorf(`ParseNames("all,graphiti") = %q, %v`, names, err)
	}
}

// FuzzClassName: a class name parses to a ClassName that writes back to the
// same name and parses again to the same value, or the error quotes the name.
// The seed corpus runs with go test; `go test -fuzz FuzzClassName
// ./esr/memory` explores further.
func FuzzClassName(f *testing.F) {
	for _, s := range []string{"graphiti", "graphiti~render-only", "graphiti@paraphrase=0.3", "graphiti@",
		"mem0-v3@dedup-k=5@created-at=event~render-only", "graphrag-abstain@kept=graphiti@paraphrase=0.3~render-only",
		"exec:./a@b~render-only", "graphiti@paraphrase=0.3@paraphrase=0.4", "graphiti@=1", "@x=1", "graphiti@a=b@",
		"graphiti~render-only@x=1", "graphiti@x", "graphiti@paraphrase=NaN", "graphiti@~render-only", "graphrag-abstain@kept="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if !utf8.ValidString(name) {
			return
		}
		c, err := memory.ParseClassName(name)
		if err != nil {
			if !strings.Contains(err.Error(), strings.Trim(strconvQuote(name), `"`)) {
				t.Fatalf("ParseClassName(%q): error %q does not name the class", name, err)
			}
			return
		}
		if c.String() != name {
			t.Fatalf("ParseClassName(%q) writes back as %q", name, c.String())
		}
		again, err := memory.ParseClassName(c.String())
		if err != nil || again.String() != c.String() || again.Control != c.Control || len(again.Params) != len(c.Params) {
			t.Fatalf("ParseClassName(%q) = %+v does not parse back (%+v, %v)", name, c, again, err)
		}
		trimmed := strings.TrimSpace(name) // ParseNames trims each item
		if _, err := memory.ParseNames(name); err != nil && !strings.Contains(err.Error(), strings.Trim(strconvQuote(trimmed), `"`)) &&
			!strings.Contains(err.Error(), strings.TrimSpace(c.Base)) && !strings.Contains(err.Error(), "no memory class named") && !strings.Contains(name, ",") {
			t.Fatalf("ParseNames(%q): error %q does not name the class", name, err)
		}
	})
}

func strconvQuote(s string) string { return strconv.Quote(s) }
