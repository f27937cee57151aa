package esr

import "fmt"

// Relation labels an ordered pair of co-keyed atoms (earlier a, later b).
//
// The paper (§2) names four classes and speaks of five; this project names
// the fifth UNRELATED: b is about a different facet of the key or has no
// bearing on its value, so it changes nothing in the ledger.
type Relation uint8

const (
	// Unrelated: b has no bearing on a's value (see the type's doc).
	Unrelated Relation = iota
	// SameState: b restates a's value.
	SameState
	// Refines: b is a narrower restatement of a; a still partly holds.
	Refines
	// Supersedes: b replaces a; a is deprecated.
	Supersedes
	// Contradicts: b disagrees with a and deprecates nothing (an unresolved
	// conflict, typically across sources).
	Contradicts
)

// Relations lists the alphabet in a fixed order (used for noise draws).
var Relations = [...]Relation{Unrelated, SameState, Refines, Supersedes, Contradicts}

var relationNames = [...]string{"UNRELATED", "SAME_STATE", "REFINES", "SUPERSEDES", "CONTRADICTS"}

func (r Relation) String() string {
	if int(r) < len(relationNames) {
		return relationNames[r]
	}
	return fmt.Sprintf("Relation(%d)", uint8(r))
}

// ParseRelation reads a relation name as String writes it (also accepting
// SAME-STATE and lower case).
func ParseRelation(s string) (Relation, error) {
	for i, n := range relationNames {
		if equalFoldDash(s, n) {
			return Relation(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not a relation (want one of %v)", s, relationNames)
}

func equalFoldDash(s, name string) bool {
	if len(s) != len(name) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		if c == '-' {
			c = '_'
		}
		if c != name[i] {
			return false
		}
	}
	return true
}

// MarshalText writes the relation's name.
func (r Relation) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a relation's name.
func (r *Relation) UnmarshalText(b []byte) error {
	v, err := ParseRelation(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// Invalidates reports whether coarse (binary) invalidation closes the earlier
// edge under r: the Graphiti rule closes it on any disagreement, so REFINES
// and CONTRADICTS collapse onto SUPERSEDES and only SAME_STATE and UNRELATED
// keep it open.
func (r Relation) Invalidates() bool {
	return r == Supersedes || r == Refines || r == Contradicts
}

// PairFunc labels the pair (a earlier, b later) of co-keyed atoms.
type PairFunc func(a, b *Atom) Relation

// Relator is a relation source: for one stream it gives the function that
// labels its co-keyed pairs. ForStream may precompute per-stream state
// (cue flags of events, gold labels).
type Relator interface {
	Name() string
	ForStream(s *Stream, atoms []Atom) PairFunc
}

// MechanismSwitch is implemented by a relation source that switches the
// deprecation mechanism off (relate.SameState): the render-matched control
// of the paper's §4.1, "no supersedes, no contradicts, and no unresolved
// status". Ledgers built under it report the status "neutral". A source
// whose MechanismOff is true labels every pair SAME_STATE; BuildLedger
// relies on it and does not ask for the labels.
type MechanismSwitch interface {
	MechanismOff() bool
}

// switchesMechanismOff reports whether r switches the mechanism off.
func switchesMechanismOff(r Relator) bool {
	m, ok := r.(MechanismSwitch)
	return ok && m.MechanismOff()
}

// AtomPair is the ordered pair of atom ids (A earlier, B later) that a
// relation labels: the key of gold relations (relations.jsonl) and of
// relation audits.
type AtomPair struct{ A, B string }
