package lab_test

import (
	"math"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/relate"
)

func TestAuditScorer(t *testing.T) {
	_, two, _, atomsTwo, gold := bench.P1Surface()
	b := bench.New([]*esr.Stream{two}, map[string][]esr.Atom{two.ID: atomsTwo}, nil)
	b.Relations = map[string]map[esr.AtomPair]esr.Relation{}
	for k, v := range gold {
		b.Relations[k] = v
	}
	perfect := lab.AuditScorer(b, relate.Oracle{Gold: b.Relations})
	if perfect.N != 3 || perfect.Accuracy != 1 || perfect.FalseContradict != 0 {
		t.Errorf("oracle audit %+v", perfect)
	}
	// The control labels everything SAME_STATE: two CONTRADICTS missed.
	ss := lab.AuditScorer(b, relate.SameState{})
	if math.Abs(ss.Accuracy-1.0/3) > 1e-12 {
		t.Errorf("same-state audit %+v", ss)
	}
	if tab := lab.Table4([]lab.RelationAudit{perfect, ss}, "p1"); len(tab.Rows) != 4 {
		t.Errorf("table 4 rows %v", tab.Rows)
	}
}
