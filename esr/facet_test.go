package esr_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
)

func TestParseFacet(t *testing.T) {
	// Cases written from ParseFacet's contract: NAME is [a-z0-9_-]+, VALUE
	// is non-empty with no control character and no surrounding space.
	cases := []struct {
		in, name, value, err string
	}{
		{"distribution=experimental", "distribution", "experimental", ""},
		{"distribution=stable frozen", "distribution", "stable frozen", ""},
		{"arch=x86_64=v3", "arch", "x86_64=v3", ""},
		{"distribution", "", "", "is not NAME=VALUE"},
		{"=unstable", "", "", "has no name"},
		{"distribution=", "", "", "has no value"},
		{"distribution= unstable", "", "", "surrounding space"},
		{"Distribution=unstable", "", "", "holds 'D'"},
		{"distribution=a\tb", "", "", "control character"},
	}
	for _, c := range cases {
		name, value, err := esr.ParseFacet(c.in)
		switch {
		case c.err == "" && (err != nil || name != c.name || value != c.value):
			t.Errorf("ParseFacet(%q) = %q, %q, %v; want %q, %q", c.in, name, value, err, c.name, c.value)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseFacet(%q) error %v, want %q", c.in, err, c.err)
		}
	}
}

func ExampleParseFacet() {
	name, value, err := esr.ParseFacet("distribution=experimental")
	fmt.Println(name, value, err)
	_, _, err = esr.ParseFacet("experimental")
	fmt.Println(err)
	// Output:
	// distribution experimental <nil>
	// facet "experimental" is not NAME=VALUE
}
