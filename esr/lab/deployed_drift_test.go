package lab

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// A change of current value is a renaming when the two values have the
// same words or one's words all appear, in order, in the other; a return
// when the old history had the new value; else a new value.
func TestDriftKindTellsARenamingFromANewValue(t *testing.T) {
	for _, c := range []struct {
		was, now string
		returned bool
		want     string
	}{
		{"Bola Tinubu", "Bola Ahmed Tinubu", false, `renaming (every word of "Bola Tinubu" is in "Bola Ahmed Tinubu")`},
		{"Bola Ahmed Tinubu", "Bola Tinubu", false, `renaming (every word of "Bola Tinubu" is in "Bola Ahmed Tinubu")`},
		{"United States", "United States of America", false, "renaming (every word of"},
		{"Jean-Luc Mélenchon", "Jean Luc Mélenchon", false, "renaming (the same words, written differently)"},
		{"Tinubu, Bola", "bola tinubu", false, "new value"}, // the words, not in order
		{"Joe Biden", "Donald Trump", true, "returned to a value DyKnow already had"},
		{"Joe Biden", "Kamala Harris", false, "new value"},
		{"Bolanle", "Bola Tinubu", false, "new value"}, // a substring, not a whole word
		{"", "Bola Tinubu", false, "new value"},
	} {
		if got := driftKind(c.was, c.now, c.returned, "DyKnow"); !strings.HasPrefix(got, c.want) {
			t.Errorf("%q → %q: %q, want %q", c.was, c.now, got, c.want)
		}
	}
}

// DriftTable calls notebook 45's Bola Tinubu → Bola Ahmed Tinubu a
// renaming, not a new value, and counts it.
func TestDriftTableCallsALongerNameARenaming(t *testing.T) {
	qa := func(id, entity, gold string) esr.QA {
		return esr.QA{QID: id, StreamID: id, GoldAnswer: gold, Entity: entity, Attribute: "head of state", QueryType: esr.Snapshot}
	}
	old := &bench.Bench{QAs: []esr.QA{qa("n1", "Nigeria", "Bola Tinubu"), qa("c1", "Chile", "Sebastián Piñera")}}
	nw := &bench.Bench{QAs: []esr.QA{qa("n2", "Nigeria", "Bola Ahmed Tinubu"), qa("c2", "Chile", "Gabriel Boric")}}
	md := DriftTable(old, nw, "DyKnow", "V-DyKnow").Markdown()
	for _, want := range []string{"| Nigeria | head of state | Bola Tinubu | Bola Ahmed Tinubu | renaming", "| Chile | head of state | Sebastián Piñera | Gabriel Boric | new value |", "2 changed their current value, 1 of them renamings"} {
		if !strings.Contains(md, want) {
			t.Errorf("drift table lacks %q:\n%s", want, md)
		}
	}
}
