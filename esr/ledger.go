package esr

// AtomStatus is where an atom stands in its key's ledger.
type AtomStatus uint8

const (
	// Live: in the active set M.
	Live AtomStatus = iota
	// Deprecated: superseded by a later atom (closed for good).
	Deprecated
	// Refined: a later, narrower atom refined it; it still partly holds and
	// counts as coarser support, but the key's value is the finer one.
	Refined
	// SetAside: UNRELATED to every active atom when it arrived; it changes
	// nothing.
	SetAside
)

var atomStatusNames = [...]string{StatusLive, StatusDeprecated, StatusRefined, StatusSetAside}

func (s AtomStatus) String() string { return atomStatusNames[s] }

// KeyLedger is the ledger row of one key: every atom seen in transaction
// order with its status, and the active set M. It is built only through Add,
// which is the update operator ⊕ of the paper's Proposition 2a.
type KeyLedger struct {
	Key Key
	// Atoms in transaction order; Status, ClosedBy and ClosedAs run parallel.
	Atoms  []*Atom
	Status []AtomStatus
	// ClosedBy is the index (in Atoms) of the atom that deprecated or refined
	// this one, or -1. Pointers always go forward in transaction order, so
	// deprecation edges are functional and acyclic by construction.
	ClosedBy []int
	// Active is M: indices of live atoms, in arrival order.
	Active []int
	// MechanismOff marks the ledger of a render-matched control (built
	// under a relation source that switches the mechanism off, see
	// switchesMechanismOff): its status is "neutral", never "ok" or
	// "unresolved", so no render can show a conflict status.
	MechanismOff bool

	index int // position in the stream's Ledger.Keys (BuildLedger's counts)
}

// Add applies ⊕ for one incoming atom, whose relation to each active atom b
// is rel(b, a) (spec §2):
//   - a UNRELATED to every active atom (M non-empty): a is set aside;
//   - each active b that a SUPERSEDES is deprecated, each b that a REFINES is
//     marked refined (coarser support), and both leave M;
//   - SAME_STATE and CONTRADICTS deprecate nothing;
//   - otherwise a joins M.
//
// Status is never stored: Unresolved recomputes it from M.
func (l *KeyLedger) Add(a *Atom, rel PairFunc) {
	idx := len(l.Atoms)
	l.Atoms = append(l.Atoms, a)
	l.ClosedBy = append(l.ClosedBy, -1)
	if len(l.Active) > 0 {
		related := false
		kept := l.Active[:0]
		for _, bi := range l.Active {
			switch rel(l.Atoms[bi], a) {
			case Supersedes:
				l.Status[bi], l.ClosedBy[bi] = Deprecated, idx
				related = true
				continue
			case Refines:
				l.Status[bi], l.ClosedBy[bi] = Refined, idx
				related = true
				continue
			case Unrelated:
			default:
				related = true
			}
			kept = append(kept, bi)
		}
		l.Active = kept
		if !related {
			l.Status = append(l.Status, SetAside)
			return
		}
	}
	l.Status = append(l.Status, Live)
	l.Active = append(l.Active, idx)
}

// addSameState is Add when the relation source labels every pair
// SAME_STATE (a mechanism-off source, see MechanismSwitch): a relates to
// every active atom and deprecates none, so it joins M. Skipping the pair
// labels makes a key's ledger linear in its atoms instead of quadratic.
func (l *KeyLedger) addSameState(a *Atom) {
	idx := len(l.Atoms)
	l.Atoms = append(l.Atoms, a)
	l.ClosedBy = append(l.ClosedBy, -1)
	l.Status = append(l.Status, Live)
	l.Active = append(l.Active, idx)
}

// Unresolved reports whether the active values disagree (status
// "unresolved"); it is computed from M each time it is asked.
func (l *KeyLedger) Unresolved() bool {
	if len(l.Active) < 2 {
		return false
	}
	s := l.Atoms[l.Active[0]].State()
	for _, i := range l.Active[1:] {
		if l.Atoms[i].State() != s {
			return true
		}
	}
	return false
}

// StatusText is "ok" or "unresolved", or "neutral" when the mechanism is
// off (the render-matched control shows no status; its snapshot read-out
// still abstains on disagreeing values, because it is d-blind).
func (l *KeyLedger) StatusText() string {
	if l.MechanismOff {
		return StatusNeutral
	}
	if l.Unresolved() {
		return KeyStatusUnresolved
	}
	return KeyStatusOK
}

// Snapshot is the value in force: the value of M, or ABSTAIN when M is
// value-inconsistent or empty. The surface form is the newest active atom's.
func (l *KeyLedger) Snapshot() Answer {
	if len(l.Active) == 0 || l.Unresolved() {
		return Abstain
	}
	return Says(l.Atoms[l.Active[len(l.Active)-1]].Display())
}

// CurrentValues lists the distinct active values (several when unresolved),
// newest first.
func (l *KeyLedger) CurrentValues() []string {
	var out []string
	seen := map[string]bool{}
	for k := len(l.Active) - 1; k >= 0; k-- {
		a := l.Atoms[l.Active[k]]
		if !seen[a.State()] {
			seen[a.State()] = true
			out = append(out, a.Display())
		}
	}
	return out
}

// ValidSince is the earliest time among the active atoms: when the current
// value came into force.
func (l *KeyLedger) ValidSince() Time {
	var t Time
	for _, i := range l.Active {
		if at := l.Atoms[i].Timestamp; t.IsZero() || at.Before(t.Time) {
			t = at
		}
	}
	return t
}

// prior finds the atom in force immediately before the current value: the
// most recently closed atom (deprecated or refined) whose state differs from
// the current one, ordered by closing position then by its own position.
func (l *KeyLedger) prior() (int, bool) {
	if len(l.Active) == 0 || l.Unresolved() {
		return -1, false
	}
	cur := l.Atoms[l.Active[0]].State()
	best := -1
	for i, by := range l.ClosedBy {
		if by < 0 || l.Atoms[i].State() == cur {
			continue
		}
		if best < 0 || by > l.ClosedBy[best] || by == l.ClosedBy[best] && i > best {
			best = i
		}
	}
	return best, best >= 0
}

// Prior answers the provenance query: the value in force immediately before
// the current one, or ABSTAIN when there is none or the key is unresolved.
func (l *KeyLedger) Prior() Answer {
	i, ok := l.prior()
	if !ok {
		return Abstain
	}
	return Says(l.Atoms[i].Display())
}

// LastChange answers the relation-type query: "refines" when the prior value
// was refined by its successor, "replaces" when it was deprecated, ABSTAIN
// when there was no change.
func (l *KeyLedger) LastChange() Answer {
	i, ok := l.prior()
	if !ok {
		return Abstain
	}
	if l.Status[i] == Refined {
		return Says(AnswerRefines)
	}
	return Says(AnswerReplaces)
}

// Deprecated lists the atoms closed by supersession, in transaction order.
func (l *KeyLedger) DeprecatedAtoms() []*Atom {
	var out []*Atom
	for i, s := range l.Status {
		if s == Deprecated {
			out = append(out, l.Atoms[i])
		}
	}
	return out
}

// Support lists the atoms supporting the current value: the active set plus
// the coarser atoms it refined, in transaction order.
func (l *KeyLedger) Support() []*Atom {
	var out []*Atom
	for i, s := range l.Status {
		if s == Live || s == Refined && l.Status[l.ClosedBy[i]] == Live {
			out = append(out, l.Atoms[i])
		}
	}
	return out
}

// HistoryEntry is one value with its validity window; InvalidAt is zero while
// the value is still in force.
type HistoryEntry struct {
	Value     string `json:"value"`
	ValidAt   Time   `json:"valid_at"`
	InvalidAt Time   `json:"invalid_at"`
}

// History is every non-set-aside atom's value with its window, in
// transaction order: an atom is invalid from the time of the atom that closed
// it.
func (l *KeyLedger) History() []HistoryEntry {
	out := make([]HistoryEntry, 0, len(l.Atoms))
	for i, a := range l.Atoms {
		if l.Status[i] == SetAside {
			continue
		}
		h := HistoryEntry{Value: a.Display(), ValidAt: a.Timestamp}
		if by := l.ClosedBy[i]; by >= 0 {
			h.InvalidAt = l.Atoms[by].Timestamp
		}
		out = append(out, h)
	}
	return out
}

// Ledger holds the key ledgers of one stream, keys in first-seen order.
type Ledger struct {
	StreamID string
	Keys     []*KeyLedger
	// MechanismOff is set by BuildLedger when its relation source switches
	// the mechanism off; every key ledger carries it too.
	MechanismOff bool
	// byKey indexes Keys once a stream has many keys; streams usually have
	// a handful, where a linear scan is faster than hashing.
	byKey map[Key]*KeyLedger
}

// indexFrom is the key count from which Ledger keeps a map index.
const indexFrom = 16

// NewLedger is an empty ledger for a stream.
func NewLedger(streamID string) *Ledger {
	return &Ledger{StreamID: streamID}
}

// Key returns the key's ledger, or nil when no atom had that key.
func (l *Ledger) Key(k Key) *KeyLedger {
	if l.byKey != nil {
		return l.byKey[k]
	}
	for _, kl := range l.Keys {
		if kl.Key == k {
			return kl
		}
	}
	return nil
}

// Add applies ⊕ to the atom's key ledger, creating it on first sight.
func (l *Ledger) Add(a *Atom, rel PairFunc) {
	k := a.Key()
	kl := l.Key(k)
	if kl == nil {
		kl = &KeyLedger{Key: k, MechanismOff: l.MechanismOff}
		l.addKey(kl)
	}
	kl.Add(a, rel)
}

// addKey appends a key ledger, switching to a map index once there are
// many keys.
func (l *Ledger) addKey(kl *KeyLedger) {
	l.Keys = append(l.Keys, kl)
	if l.byKey != nil {
		l.byKey[kl.Key] = kl
	} else if len(l.Keys) >= indexFrom {
		l.byKey = make(map[Key]*KeyLedger, 2*len(l.Keys))
		for _, x := range l.Keys {
			l.byKey[x.Key] = x
		}
	}
}

// BuildLedger folds ⊕ over the stream's atoms in transaction order (atoms
// must already be sorted; see SortAtoms) with the relation source r. The
// ledger points into atoms, which must outlive it.
//
// It counts the atoms of each key first, so that every key's slices are
// carved from a few stream-wide allocations of exactly the right size:
// ingest then allocates a handful of times per stream, not per atom.
func BuildLedger(s *Stream, atoms []Atom, r Relator) *Ledger {
	rel := r.ForStream(s, atoms)
	l := NewLedger(s.ID)
	l.MechanismOff = switchesMechanismOff(r)
	// Count atoms per key, keys in first-seen order (a linear scan: streams
	// have a handful of keys; a map takes over past indexFrom).
	var keyBuf [8]Key
	var countBuf [8]int
	keys, counts := keyBuf[:0], countBuf[:0]
	var index map[Key]int
	for i := range atoms {
		k := atoms[i].Key()
		j := -1
		if index != nil {
			if x, ok := index[k]; ok {
				j = x
			}
		} else {
			for x := range keys {
				if keys[x] == k {
					j = x
					break
				}
			}
		}
		if j < 0 {
			keys, counts = append(keys, k), append(counts, 0)
			j = len(keys) - 1
			if index != nil {
				index[k] = j
			} else if len(keys) >= indexFrom {
				index = make(map[Key]int, 2*len(keys))
				for x, kk := range keys {
					index[kk] = x
				}
			}
		}
		counts[j]++
	}
	store := make([]KeyLedger, len(keys))
	l.Keys = make([]*KeyLedger, 0, len(keys))
	for j := range store {
		store[j].Key, store[j].index, store[j].MechanismOff = keys[j], j, l.MechanismOff
		l.addKey(&store[j])
	}
	n := len(atoms)
	ptrs := make([]*Atom, n)
	status := make([]AtomStatus, n)
	ints := make([]int, 2*n)
	off := 0
	for j, kl := range l.Keys {
		c := counts[j]
		kl.Atoms = ptrs[off : off : off+c]
		kl.Status = status[off : off : off+c]
		kl.ClosedBy = ints[off : off : off+c]
		kl.Active = ints[n+off : n+off : n+off+c]
		off += c
	}
	for i := range atoms {
		a := &atoms[i]
		kl := l.Key(a.Key())
		if l.MechanismOff {
			kl.addSameState(a) // every pair is SAME_STATE: no label to ask
			continue
		}
		kl.Add(a, rel)
	}
	return l
}
