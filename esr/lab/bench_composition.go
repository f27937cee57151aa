package lab

import (
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// CompositionEffect is what the bench's composition does to Table 2 and
// Table 5 with the same (simulated, default) readers: their cells on the
// clean bench (`esr gen --like clean`) beside those on the bundled bench
// (the paper's composition), each against the paper's, with each table's
// mean absolute error (sim.CompositionTable). The cells are the shipped
// validation's (sim.ShippedValidation: `esr calibrate --validate`
// evaluates both benches); the first note is the measured sentence on
// Table 5's composition share (sim.CompositionSentence).
func CompositionEffect() *eval.Table {
	v, c := sim.ShippedValidation(), sim.Calibrated()
	t := sim.CompositionTable(v.CleanBench, v.Cells, c.Bench, func(x sim.ValidationCell) bool { return sim.Fitted(c, x) })
	if s := sim.CompositionSentence(v.CleanBench, v.Cells, c.Bench); s != "" {
		t.Notes = append([]string{s}, t.Notes...)
	}
	return t
}
