package experiment

import (
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/report"
)

// LedgerSteps applies ⊕ to a stream's atoms one at a time and tabulates,
// after each atom, the relation the source gave it against each active atom,
// the active set M, the key's status and the deprecated set: the paper's
// Proposition 2a made visible (notebook 02).
func LedgerSteps(s *esr.Stream, atoms []esr.Atom, r esr.Relator) *report.Table {
	t := &report.Table{Name: "ledger-steps-" + s.ID, Title: "⊕ step by step on " + s.ID + " (relations: " + r.Name() + ")",
		Columns: []string{"step", "atom", "event", "value", "relations to M", "active M", "status", "snapshot", "deprecated"}}
	rel := r.ForStream(s, atoms)
	l := esr.NewLedger(s.ID)
	for i := range atoms {
		a := &atoms[i]
		var rels []string
		if kl := l.Key(a.Key()); kl != nil {
			for _, j := range kl.Active {
				b := kl.Atoms[j]
				rels = append(rels, b.ID+"→"+a.ID+" "+rel(b, a).String())
			}
		}
		l.Add(a, rel)
		kl := l.Key(a.Key())
		var active, dep []string
		for _, j := range kl.Active {
			active = append(active, kl.Atoms[j].ID+"="+kl.Atoms[j].Display())
		}
		for _, d := range kl.DeprecatedAtoms() {
			dep = append(dep, d.ID)
		}
		t.AddRow(i+1, a.ID, a.EventID, a.Display(), join(rels), "{"+strings.Join(active, ", ")+"}",
			kl.StatusText(), kl.Snapshot().String(), join(dep))
	}
	return t
}

func join(s []string) string {
	if len(s) == 0 {
		return "—"
	}
	return strings.Join(s, "; ")
}
