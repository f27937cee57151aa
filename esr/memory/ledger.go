package memory

import (
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
)

// ledgerState is fine-ledger (mechanism on: the ⊕ ledger under the given
// relation source, status shown) and render-only (mechanism off: the same
// code under relate.SameState, every status cell "neutral").
type ledgerState struct {
	name      string
	stream    *esr.Stream
	ledger    *esr.Ledger
	mechanism bool
	force     map[esr.Key]string // row-level oracle status, see Options.ForceStatus
}

// status is the key's status as shown and used: forced, or computed from M.
func (l *ledgerState) status(kl *esr.KeyLedger) string {
	if s, ok := l.force[kl.Key]; ok {
		return s
	}
	return kl.StatusText()
}

func newLedgerState(name string, s *esr.Stream, atoms []esr.Atom, r esr.Relator, mechanism bool) *ledgerState {
	return &ledgerState{name: name, stream: s, ledger: esr.BuildLedger(s, atoms, r), mechanism: mechanism}
}

func (l *ledgerState) Class() string    { return l.name }
func (l *ledgerState) MayAbstain() bool { return true }

// Answer reads the ledger: snapshot from M (ABSTAIN when unresolved),
// provenance from the deprecated history, relation type from how the prior
// value was closed. render-only's ledger has no deprecations, so its
// snapshot abstains whenever values differ and it keeps no prior value: it is
// d-blind in state, as the control must be.
func (l *ledgerState) Answer(q esr.Query) esr.Answer {
	kl := l.ledger.Key(q.Key)
	if kl == nil {
		return esr.Abstain
	}
	switch q.Type {
	case esr.Provenance:
		return kl.Prior()
	case esr.RelationType:
		return kl.LastChange()
	}
	switch l.status(kl) {
	case "unresolved":
		return esr.Abstain
	case "ok":
		if kl.Unresolved() { // forced ok: the newest active value
			return esr.Says(kl.Atoms[kl.Active[len(kl.Active)-1]].Display())
		}
	}
	return kl.Snapshot()
}

// Render shows every key as a time-ordered table (newest first) of
// time | event | value | status, then the event-id index. With the
// mechanism off every status reads "neutral"; nothing else differs.
func (l *ledgerState) Render(esr.Query) string {
	return renderLedger(l.stream, l.ledger, l.mechanism, l.status)
}

func renderLedger(s *esr.Stream, ledger *esr.Ledger, mechanism bool, statusOf func(*esr.KeyLedger) string) string {
	var b strings.Builder
	used := map[string]bool{}
	for _, kl := range ledger.Keys {
		status := "neutral"
		if mechanism {
			status = statusOf(kl)
		}
		b.WriteString("key: " + kl.Key.String() + "   status: " + status + "\n")
		order := make([]int, len(kl.Atoms))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(x, y int) bool {
			tx, ty := kl.Atoms[order[x]].Timestamp, kl.Atoms[order[y]].Timestamp
			if !tx.Equal(ty.Time) {
				return tx.After(ty.Time)
			}
			return order[x] > order[y]
		})
		rows := [][]string{{"time", "event", "value", "status"}}
		for _, i := range order {
			a := kl.Atoms[i]
			cell := "neutral"
			if mechanism {
				cell = rowStatus(kl.Status[i])
			}
			rows = append(rows, []string{stamp(a.Timestamp), a.EventID, a.Display(), cell})
			used[a.EventID] = true
		}
		b.WriteString(table(rows))
		b.WriteByte('\n')
	}
	b.WriteString("events:")
	first := true
	for i := range s.Events {
		e := &s.Events[i]
		if !used[e.ID] {
			continue
		}
		if !first {
			b.WriteString(" ·")
		}
		first = false
		b.WriteString(" " + e.ID + " \"" + firstSentence(e.Text, 100) + "\"")
	}
	b.WriteByte('\n')
	return b.String()
}

// rowStatus is the status cell of an atom's row in the fine-ledger render.
func rowStatus(s esr.AtomStatus) string {
	switch s {
	case esr.Live:
		return "LIVE"
	case esr.Deprecated:
		return "DEPRECATED"
	case esr.Refined:
		return "REFINED"
	}
	return "UNRELATED"
}

func (l *ledgerState) Rows() []Row {
	rows := make([]Row, 0, len(l.ledger.Keys))
	for _, kl := range l.ledger.Keys {
		rows = append(rows, Row{
			StreamID:   l.stream.ID,
			Entity:     kl.Key.Entity,
			Attribute:  kl.Key.Attribute,
			Status:     l.status(kl),
			Current:    nonNil(kl.CurrentValues()),
			ValidSince: kl.ValidSince(),
			Support:    atomIDs(kl.Support()),
			Deprecated: atomIDs(kl.DeprecatedAtoms()),
			History:    kl.History(),
		})
	}
	return rows
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
