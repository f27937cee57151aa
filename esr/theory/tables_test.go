package theory_test

import (
	"path/filepath"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/esr/theory"
)

// ScorerTable lays out a learned scorer's cross-validation: one row per
// relation class plus accuracy and macro-F1; P1Table is not empty.
func TestScorerTableShape(t *testing.T) {
	b, err := bench.Load(filepath.Join("..", "..", "data", "synthetic"))
	if err != nil {
		t.Fatal(err)
	}
	cv, err := relate.CrossValidateLearned(b, 3, 1, relate.LearnedLambda)
	if err != nil {
		t.Fatal(err)
	}
	tab := theory.ScorerTable(cv)
	if len(tab.Rows) != len(esr.Relations)+2 || len(tab.Rows[0]) != len(tab.Columns) {
		t.Errorf("table shape: %d rows × %d cells, %d columns", len(tab.Rows), len(tab.Rows[0]), len(tab.Columns))
	}
	if p1 := theory.P1Table(theory.P1Fibre(20, 1)); len(p1.Rows) == 0 {
		t.Error("empty P1 table")
	}
}
