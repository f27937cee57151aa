package judge

import (
	"testing"

	"github.com/esrkit/esrkit/esr"
)

// BenchmarkExactDecide: the exact judge on what an evaluation judges, row
// after row: a value gold with an alias, and answers that match it, match
// an alias, name another value or say a sentence around the gold.
func BenchmarkExactDecide(b *testing.B) {
	cases := []struct {
		gold    string
		aliases []string
		answer  string
	}{
		{"upstream fix in fsspec", []string{"the upstream fsspec fix"}, "upstream fix in fsspec"},
		{"30 s", []string{"30 seconds"}, "half a minute"},
		{"4,312,586", nil, "4.3 million"},
		{"critical", []string{"crit"}, "medium"},
		{"2015-02-03", nil, "It is 3 February 2015."},
		{"Nadia Moreau", []string{"N. Moreau"}, "Vera Thorne"},
	}
	for b.Loop() {
		for _, c := range cases {
			Exact{}.Decide(c.gold, c.aliases, esr.Says(c.answer))
		}
	}
}
