package memory

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
)

// ledgerState is fine-ledger (mechanism on: the ⊕ ledger under the given
// relation source, status shown) and render-only (mechanism off: the same
// code under relate.SameState, whose ledger says "neutral", every status
// cell "neutral").
type ledgerState struct {
	name   string
	stream *esr.Stream
	ledger *esr.Ledger
	force  map[esr.Key]string // row-level oracle status, see Options.ForceStatus
	format string             // Options.LedgerFormat
}

// status is the key's status as shown and used: forced, or computed from M.
func (l *ledgerState) status(kl *esr.KeyLedger) string {
	if s, ok := l.force[kl.Key]; ok {
		return s
	}
	return kl.StatusText()
}

func newLedgerState(name string, s *esr.Stream, atoms []esr.Atom, r esr.Relator, format string) *ledgerState {
	return &ledgerState{name: name, stream: s, ledger: esr.BuildLedger(s, atoms, r), format: format}
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
	return renderLedger(l.stream, l.ledger, l.status, l.format)
}

func renderLedger(s *esr.Stream, ledger *esr.Ledger, statusOf func(*esr.KeyLedger) string, format string) string {
	mechanism := !ledger.MechanismOff
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
		b.WriteString(formatRows(rows, format))
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

// formatRows lays out a key's rows (the first is the header time, event,
// value, status) in one of the ledger formats of Options.LedgerFormat.
func formatRows(rows [][]string, format string) string {
	var b strings.Builder
	switch format {
	case "verbose":
		for _, r := range rows[1:] {
			b.WriteString("On " + r[0] + ", event " + r[1] + " recorded the value " + r[2] + "; status " + r[3] + ".\n")
		}
	case "minimal":
		min := [][]string{{"value", "status"}}
		for _, r := range rows[1:] {
			min = append(min, []string{r[2], r[3]})
		}
		b.WriteString(table(min))
	case "json":
		for _, r := range rows[1:] {
			js, _ := json.Marshal(struct {
				Time   string `json:"time"`
				Event  string `json:"event"`
				Value  string `json:"value"`
				Status string `json:"status"`
			}{r[0], r[1], r[2], r[3]})
			b.Write(js)
			b.WriteByte('\n')
		}
	default:
		b.WriteString(table(rows))
	}
	return b.String()
}
