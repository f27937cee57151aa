package esr

import (
	"fmt"
	"sort"
)

// Polarity says whether an atom asserts (+) or denies (−) its value.
type Polarity string

const (
	Positive Polarity = "+"
	Negative Polarity = "-"
)

// UnmarshalJSON accepts "+" and "-" only; anything else is bad input.
func (p *Polarity) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"+"`:
		*p = Positive
	case `"-"`:
		*p = Negative
	default:
		return fmt.Errorf("polarity %s is not \"+\" or \"-\"", b)
	}
	return nil
}

// Key is the entity–attribute pair (x, a) that atoms about one state share,
// with an optional facet ("distribution=experimental", Atom.Facet): a
// faceted key holds one state per facet, so every memory, keyed by Key,
// keeps one state per facet. The paper's P1/P2 assume a single-valued key;
// per facet they hold as stated (each facet is a single-valued key of its
// own, TestFacetedLedgerIsPerFacet), and a memory that merges the facets
// (memory.Options.MergeFacets) is the single-valued baseline.
type Key struct {
	Entity    string `json:"entity"`
	Attribute string `json:"attribute"`
	Facet     string `json:"facet,omitempty"`
}

// String is the key's label: "entity / attribute", with " [facet]" after
// the attribute when the key has a facet.
func (k Key) String() string { return k.Entity + KeySep + k.AttributeLabel() }

// AttributeLabel is the attribute as renders print it: with its facet in
// brackets when the key has one ("version [distribution=experimental]").
func (k Key) AttributeLabel() string {
	if k.Facet == "" {
		return k.Attribute
	}
	return k.Attribute + facetOpen + k.Facet + facetClose
}

// Unfaceted is the key without its facet: the single-valued key a memory
// that merges facets keeps.
func (k Key) Unfaceted() Key { return Key{Entity: k.Entity, Attribute: k.Attribute} }

// Atom is the tuple (x, a, v, π, t, ρ) an extractor reads off one event:
// entity, attribute, value, polarity, time and source role, with its ids.
type Atom struct {
	ID         string   `json:"atom_id"`
	StreamID   string   `json:"stream_id"`
	EventID    string   `json:"event_id"`
	EventIndex int      `json:"event_index"`
	EventKind  string   `json:"event_kind,omitempty"`
	Timestamp  Time     `json:"timestamp"`
	Actor      *string  `json:"actor"`
	Role       string   `json:"role,omitempty"`
	Modality   string   `json:"modality,omitempty"`
	Entity     string   `json:"entity"`
	Attribute  string   `json:"attribute"`
	Value      string   `json:"value"`
	Polarity   Polarity `json:"polarity"`
	Confidence float64  `json:"confidence"`
	// Facet, when not empty, qualifies the value by a facet "NAME=VALUE"
	// (a Debian version by its suite: "distribution=experimental"; see
	// ParseFacet). Optional: files without it load and write unchanged.
	// The ledger does not key on it yet: Key is (entity, attribute).
	Facet string `json:"facet,omitempty"`

	// norm caches StateOf(normOf, normPol); see CacheState and State.
	norm, normOf string
	normPol      Polarity
}

// Key is the atom's (entity, attribute).
func (a *Atom) Key() Key { return Key{a.Entity, a.Attribute, a.Facet} }

// ActorName is the atom's actor, or "".
func (a *Atom) ActorName() string {
	if a.Actor == nil {
		return ""
	}
	return *a.Actor
}

// State is the atom's comparable state: its normalised value with polarity,
// so "30 seconds" and "30 s" are one state and ¬φ differs from φ.
//
// State never writes to a (memories and readers share a benchmark's atoms
// across goroutines); CacheState fills the cache it reads, which is used only
// while Value and Polarity are those it was filled from.
func (a *Atom) State() string {
	if a.norm != "" && a.normOf == a.Value && a.normPol == a.Polarity {
		return a.norm
	}
	return StateOf(a.Value, a.Polarity)
}

// CacheState keeps the atom's State, so that State need not normalise the
// value again. Loaders call it before the atoms are shared.
func (a *Atom) CacheState() {
	a.norm, a.normOf, a.normPol = StateOf(a.Value, a.Polarity), a.Value, a.Polarity
}

// Display is the value as an answer states it: the value, or "not VALUE" for
// a negative-polarity atom.
func (a *Atom) Display() string {
	if a.Polarity == Negative {
		return "not " + a.Value
	}
	return a.Value
}

// SortAtoms puts atoms in transaction order: by time, then by event index,
// keeping the given order otherwise. ⊕ consumes atoms in this order.
func SortAtoms(atoms []Atom) {
	sort.SliceStable(atoms, func(i, j int) bool {
		ti, tj := atoms[i].Timestamp, atoms[j].Timestamp
		if !ti.Equal(tj.Time) {
			return ti.Before(tj.Time)
		}
		return atoms[i].EventIndex < atoms[j].EventIndex
	})
}
