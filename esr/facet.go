package esr

import (
	"fmt"
	"strings"
	"unicode"
)

// ParseFacet splits a facet "NAME=VALUE" (Atom.Facet, QA.Facet): NAME is one
// or more lower-case letters, digits, '_' or '-'; VALUE is not empty, has no
// control character and no surrounding space. A facet names the part of a
// key's state a value holds for (a Debian package's version per suite:
// "distribution=experimental").
func ParseFacet(s string) (name, value string, err error) {
	name, value, ok := strings.Cut(s, "=")
	switch {
	case !ok:
		return "", "", fmt.Errorf("facet %q is not NAME=VALUE", s)
	case name == "":
		return "", "", fmt.Errorf("facet %q has no name before '='", s)
	case value == "":
		return "", "", fmt.Errorf("facet %q has no value after '='", s)
	case strings.TrimSpace(value) != value:
		return "", "", fmt.Errorf("facet %q: value has surrounding space", s)
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return "", "", fmt.Errorf("facet %q: name %q holds %q (want a-z, 0-9, '_' or '-')", s, name, r)
		}
	}
	for _, r := range value {
		if unicode.IsControl(r) {
			return "", "", fmt.Errorf("facet %q: value holds control character %U", s, r)
		}
	}
	return name, value, nil
}
