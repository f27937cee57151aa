package sim

import (
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/report"
)

// The calibrated families (the notebooks' default readers) take the first
// figure styles, in the paper's order, so a family has one colour, glyph
// and place in every figure of every notebook.
func init() {
	var names []string
	for _, p := range CalibratedProfiles() {
		names = append(names, reader.Spec{Kind: reader.KindSim, Name: p.Name}.String())
	}
	report.RegisterFamilies(names...)
}
