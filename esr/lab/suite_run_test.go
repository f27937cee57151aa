package lab_test

import (
	"context"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// Every suite runs on a small bench with the oracle reader and saves its
// tables and figures.
func TestSuitesRunAndSave(t *testing.T) {
	b := benchtest.Mini(12)
	for _, name := range lab.SuiteNames() {
		b := b
		if name == "facets" { // asks faceted questions, which only data/debian has
			b = benchtest.Subset(t, "debian", 12)
		}
		res, err := lab.SuiteID(name).Suite().Run(context.Background(), lab.Setup{Bench: b,
			Readers: []reader.Reader{reader.Oracle{}}, Stats: eval.StatOptions{B: 200, Seed: 1}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(res.Tables) == 0 || len(res.Rows) == 0 {
			t.Errorf("%s: %d tables, %d rows", name, len(res.Tables), len(res.Rows))
		}
		dir := t.TempDir()
		if err := res.Save(dir); err != nil {
			t.Fatalf("%s: save: %v", name, err)
		}
	}
}
