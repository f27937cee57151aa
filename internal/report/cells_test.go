package report

import (
	"math"
	"testing"
)

// A value that rounds to zero prints without a minus sign in every
// formatter: "+0.000" signed, "0.000" as a proportion; one that rounds
// away from zero keeps its sign.
func TestFormattersNeverPrintNegativeZero(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, c := range []struct {
		name, got, want string
	}{
		{"Signed(-0.0004)", Signed(-0.0004), "+0.000"},
		{"Signed(-0)", Signed(negZero), "+0.000"},
		{"Signed(-1e-17)", Signed(-1e-17), "+0.000"},
		{"Signed(0.0004)", Signed(0.0004), "+0.000"},
		{"Signed(-0.0006)", Signed(-0.0006), "-0.001"},
		{"Signed(0.192)", Signed(0.192), "+0.192"},
		{"Interval(-0.0002, 0.002)", Interval(-0.0002, 0.002), "[+0.000, +0.002]"},
		{"Interval(-0.05, -0.0001)", Interval(-0.05, -0.0001), "[-0.050, +0.000]"},
		{"Interval(-0, 0)", Interval(negZero, 0), "[+0.000, +0.000]"},
		{"PropInterval(-0.0001, 0.002)", PropInterval(-0.0001, 0.002), "[0.000, 0.002]"},
		{"PropInterval(-0, 1)", PropInterval(negZero, 1), "[0.000, 1.000]"},
		{"Prop(-0)", Prop(negZero), "0.000"},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}
}
