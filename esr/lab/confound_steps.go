package lab

import (
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
)

// LedgerSteps applies ⊕ to a stream's atoms one at a time and tabulates,
// after each atom, the relation the source gave it against each active atom,
// the active set M, the key's status and the deprecated set: the paper's
// Proposition 2a made visible (notebook 02).
func LedgerSteps(s *esr.Stream, atoms []esr.Atom, r esr.Relator) *eval.Table {
	t := &eval.Table{ID: eval.TableID("ledger-steps-" + s.ID), Title: "⊕ step by step on " + s.ID + " (relations: " + r.Name() + ")",
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

// CoarseSteps is LedgerSteps for coarse-retain (Graphiti-style binary
// invalidation): after each atom, the relation to every live edge, what the
// binary alphabet makes of it (closes the edge, keeps it, or sets the atom
// aside when it is UNRELATED to every live edge), the live edges and the
// snapshot. Shown beside LedgerSteps, it makes the difference visible: a
// CONTRADICTS closes the older edge here, where ⊕ keeps both and abstains.
func CoarseSteps(s *esr.Stream, atoms []esr.Atom, r esr.Relator) *eval.Table {
	t := &eval.Table{ID: eval.TableID("coarse-steps-" + s.ID), Title: "coarse-retain step by step on " + s.ID + " (relations: " + r.Name() + ")",
		Columns: []string{"step", "atom", "value", "relations to live edges", "binary decision", "live edges", "snapshot"}}
	rel := r.ForStream(s, atoms)
	byID := map[string]*esr.Atom{}
	for i := range atoms {
		byID[atoms[i].ID] = &atoms[i]
	}
	var live []string
	for i := range atoms {
		a := &atoms[i]
		var rels []string
		closes, related := 0, false
		for _, id := range live {
			b := byID[id]
			if b.Key() != a.Key() {
				continue
			}
			x := rel(b, a)
			rels = append(rels, b.ID+"→"+a.ID+" "+x.String())
			if x != esr.Unrelated {
				related = true
			}
			if x.Invalidates() {
				closes++
			}
		}
		st := memory.MustBuild(memory.SpecOf(memory.CoarseRetain), s, atoms[:i+1], memory.Options{Relator: r})
		live = live[:0]
		for _, row := range st.Rows() {
			live = append(live, row.Support...)
		}
		decision := "opens an edge"
		switch {
		case len(rels) > 0 && !related:
			decision = "set aside (UNRELATED to every live edge)"
		case closes > 0:
			decision = fmt.Sprintf("closes %d edge(s), opens one", closes)
		case len(rels) > 0:
			decision = "keeps the edges open, opens one"
		}
		rs := "—"
		if len(rels) > 0 {
			rs = strings.Join(rels, "; ")
		}
		t.AddRow(i+1, a.ID, a.Display(), rs, decision, "{"+strings.Join(live, ", ")+"}",
			st.Answer(esr.Query{Type: esr.Snapshot, Key: a.Key()}).String())
	}
	t.Notes = []string{"binary alphabet: SAME_STATE keeps the older edge open; REFINES, SUPERSEDES and CONTRADICTS close it; UNRELATED to every live edge opens no edge (spec §3)"}
	return t
}
