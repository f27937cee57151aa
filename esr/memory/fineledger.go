package memory

import (
	"github.com/esrkit/esrkit/internal/layout"

	"fmt"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
)

// ledgerState is fine-ledger (mechanism on: the ⊕ ledger under the given
// relation source, status shown) and render-only (mechanism off: the same
// code under relate.SameState, whose ledger says "neutral", every status
// cell "neutral").
type ledgerState struct {
	rendered renderOnce // Render ignores the query: built once
	name     string
	stream   *esr.Stream
	ledger   *esr.Ledger
	force    map[esr.Key]string // row-level oracle status, see Options.ForceStatus
	format   string             // Options.LedgerFormat
}

// status is the key's status as shown and used: forced, or computed from M.
func (l *ledgerState) status(kl *esr.KeyLedger) string {
	if s, ok := l.force[kl.Key]; ok {
		return s
	}
	return kl.StatusText()
}

// buildFineLedger builds fine-ledger in opt.LedgerFormat, its statuses
// forced where opt.ForceStatus says.
func buildFineLedger(_ Spec, name string, s *esr.Stream, atoms []esr.Atom, opt Options) (State, error) {
	if !validFormat(opt.LedgerFormat) {
		return nil, fmt.Errorf("unknown ledger format %q (want one of %s)", opt.LedgerFormat, strings.Join(LedgerFormats, ", "))
	}
	l := newLedgerState(name, s, atoms, opt.relator(), opt.LedgerFormat)
	l.force = opt.ForceStatus
	return l, nil
}

// buildRenderOnly builds render-only: fine-ledger with the mechanism off.
func buildRenderOnly(sp Spec, name string, s *esr.Stream, atoms []esr.Atom, opt Options) (State, error) {
	return buildFineLedger(sp, name, s, atoms, mechanismOff(opt))
}

func validFormat(f string) bool {
	if f == "" {
		return true
	}
	for _, g := range LedgerFormats {
		if f == g {
			return true
		}
	}
	return false
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
	case esr.KeyStatusUnresolved:
		return esr.Abstain
	case esr.KeyStatusOK:
		if kl.Unresolved() { // forced ok: the newest active value
			return esr.Says(kl.Atoms[kl.Active[len(kl.Active)-1]].Display())
		}
	}
	return kl.Snapshot()
}

// Render shows every key as a time-ordered table (newest first) of
// time | event | value | status, then the event-id index (the vocabulary is
// esr's: layout.LedgerKeyLabel, layout.ColTime, esr.StatusLive, ...). With the
// mechanism off every status reads "neutral"; nothing else differs.
func (l *ledgerState) Render(esr.Query) string { return l.rendered.get(l.render) }

// render builds Render's string (once per state).
func (l *ledgerState) render() string {
	return renderLedger(l.stream, l.ledger, l.status, l.format)
}

func renderLedger(s *esr.Stream, ledger *esr.Ledger, statusOf func(*esr.KeyLedger) string, format string) string {
	mechanism := !ledger.MechanismOff
	var b strings.Builder
	used := map[string]bool{}
	for _, kl := range ledger.Keys {
		status := esr.StatusNeutral
		if mechanism {
			status = statusOf(kl)
		}
		b.WriteString(layout.LedgerKeyLabel + layout.Cell(kl.Key.String()) + "   " + layout.LedgerStatusLabel + status + "\n")
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
		rows := [][]string{{layout.ColTime, layout.ColEvent, layout.ColValue, layout.ColStatus}}
		for _, i := range order {
			a := kl.Atoms[i]
			cell := esr.StatusNeutral
			if mechanism {
				cell = esr.StatusCell(kl.Status[i])
			}
			rows = append(rows, []string{layout.Stamp(a.Timestamp), a.EventID, a.Display(), cell})
			used[a.EventID] = true
		}
		b.WriteString(formatRows(rows, format))
		b.WriteByte('\n')
	}
	b.WriteString(layout.LedgerEventsLabel)
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
		b.WriteString(" " + layout.Cell(e.ID) + " \"" + layout.FirstSentence(e.Text, 100) + "\"")
	}
	b.WriteByte('\n')
	return b.String()
}

func (l *ledgerState) Rows() []Row {
	rows := make([]Row, 0, len(l.ledger.Keys))
	for _, kl := range l.ledger.Keys {
		rows = append(rows, Row{
			StreamID:   l.stream.ID,
			Entity:     kl.Key.Entity,
			Attribute:  kl.Key.Attribute,
			Facet:      kl.Key.Facet,
			Status:     l.status(kl),
			Current:    nonNil(kl.CurrentValues()),
			ValidSince: kl.ValidSince(),
			Support:    layout.AtomIDs(kl.Support()),
			Deprecated: layout.AtomIDs(kl.DeprecatedAtoms()),
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
	case LedgerVerbose:
		for _, r := range rows[1:] {
			c := func(i int) string { return layout.Cell(r[i]) }
			b.WriteString(layout.VerboseOn + c(0) + layout.VerboseEvent + c(1) + layout.VerboseValue + c(2) + layout.VerboseStatus + c(3) + layout.VerboseEnd + "\n")
		}
	case LedgerMinimal:
		min := [][]string{{layout.ColValue, layout.ColStatus}}
		for _, r := range rows[1:] {
			min = append(min, []string{r[2], r[3]})
		}
		b.WriteString(layout.Table(min))
	case LedgerJSON:
		for _, r := range rows[1:] {
			b.Write(layout.JSONObject(layout.Field{Key: layout.ColTime, Value: r[0]}, layout.Field{Key: layout.ColEvent, Value: r[1]}, layout.Field{Key: layout.ColValue, Value: r[2]}, layout.Field{Key: layout.ColStatus, Value: r[3]}))
			b.WriteByte('\n')
		}
	default:
		b.WriteString(layout.Table(rows))
	}
	return b.String()
}
