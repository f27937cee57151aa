package synth

import (
	"math/rand/v2"
	"strings"

	"github.com/esrkit/esrkit/esr"
)

// claimKind is what an event says about one key. The first five are
// assertions (atom modality "assert"); hedges and recollections of stale
// values are clutter that still yields an atom (modality "hedge" / "recall")
// whose gold relation to a different value is UNRELATED.
type claimKind int

const (
	kInitial  claimKind = iota // first assertion of the key
	kRestate                   // the value in force, said again (SAME_STATE)
	kUpdate                    // a new value (SUPERSEDES)
	kRevert                    // an earlier value restored (SUPERSEDES)
	kRefine                    // a narrower restatement (REFINES)
	kConflict                  // another source disagrees (CONTRADICTS)
	kHedge                     // speculation about a value that never held
	kRecall                    // a stale value mentioned again ("as noted earlier, 60 s")
)

func (k claimKind) assertive() bool { return k <= kConflict }

func (k claimKind) modality() string {
	switch k {
	case kHedge:
		return "hedge"
	case kRecall:
		return "recall"
	}
	return "assert"
}

func (k claimKind) confidence() float64 {
	switch k {
	case kHedge:
		return 0.4
	case kRecall:
		return 0.6
	}
	return 0.9
}

// Probabilities that a claim's wording is friendly to the rule scorer (see
// templates.go).
var friendlyP = map[claimKind]float64{kUpdate: 0.7, kRevert: 0.75, kRefine: 0.6, kConflict: 0.75, kHedge: 0.8, kRecall: 0.5}

type claim struct {
	key     *keyPlan
	kind    claimKind
	value   string
	old     string // the value in force before it (for prose)
	refines string // kRefine: the value it narrows
	// refineKind is how a kRefine claim narrows refines.
	refineKind RefineKind
	actor      int // index into the stream's actors; -1 none; hostActor: the host event's
	friendly   bool
	special    string
	atomID     string
	eventIdx   int
	// mention marks an extra mention (Config.AtomsPerEvent, distractor
	// keys): it is worded with the plain mention templates.
	mention bool
}

const hostActor = -2

type keyPlan struct {
	idx  int
	a    *attr
	key  esr.Key
	text string // how prose refers to the entity
	main bool
	phen esr.Phenomenon
	seq  []*claim
	pool []string
	used []string
	pure bool // monotonic with a single value
	// distractor marks an unquestioned key of the stream's entities
	// (Config.KeysPerStream): it has atoms and gold relations, no QA.
	distractor bool
}

// fresh draws an unused value that neither contains nor is contained in any
// value the key has used (so the rule scorer's containment test fires only
// on planned refinements), or "" when the pool is exhausted.
func (k *keyPlan) fresh() string {
	for i, v := range k.pool {
		if k.compatible(v) {
			k.pool = append(k.pool[:i:i], k.pool[i+1:]...)
			k.used = append(k.used, v)
			return v
		}
	}
	return ""
}

func (k *keyPlan) compatible(v string) bool {
	nv := esr.NormalizeValue(v)
	for _, u := range k.used {
		nu := esr.NormalizeValue(u)
		if nu == nv || strings.Contains(nu, nv) || strings.Contains(nv, nu) {
			return false
		}
	}
	return true
}

func (k *keyPlan) add(c *claim) *claim {
	c.key = k
	k.seq = append(k.seq, c)
	return c
}

// stateAt replays the key's assertions up to (and including) claim i and
// returns the value in force, the values deprecated so far (not refined, not
// in conflict), and whether a conflict has started.
func (k *keyPlan) stateAt(i int) (cur string, stale []string, conflict bool) {
	dead := map[string]bool{}
	for _, c := range k.seq[:i+1] {
		switch c.kind {
		case kInitial:
			cur = c.value
		case kUpdate, kRevert:
			if cur != "" {
				dead[cur] = true
			}
			cur = c.value
			delete(dead, cur)
		case kRefine:
			delete(dead, c.refines)
			cur = c.value
		case kConflict:
			conflict = true
		}
	}
	seen := map[string]bool{}
	for _, c := range k.seq[:i+1] {
		if c.kind.assertive() && dead[c.value] && !seen[c.value] && c.value != cur {
			seen[c.value] = true
			stale = append(stale, c.value)
		}
	}
	return cur, stale, conflict
}

// refinedValues lists values some refinement narrowed (never recalled: a
// refined value still partly holds and must not "return").
func (k *keyPlan) refinedValues() map[string]bool {
	m := map[string]bool{}
	for _, c := range k.seq {
		if c.kind == kRefine {
			m[c.refines] = true
		}
	}
	return m
}

// insertClutterClaim inserts a hedge (fresh value) or a recollection of a
// stale value at a random valid position; it reports false when none fits.
func (k *keyPlan) insertClutterClaim(r *rand.Rand, recall bool, actor int) bool {
	if k.a.special == "status" || len(k.seq) == 0 {
		return false
	}
	refined := k.refinedValues()
	type spot struct {
		at         int
		cur, value string
	}
	var spots []spot
	hedgeValue := ""
	for i := range k.seq {
		cur, stale, _ := k.stateAt(i)
		if recall {
			var cand []string
			for _, s := range stale {
				if !refined[s] && s != cur {
					cand = append(cand, s)
				}
			}
			if len(cand) > 0 {
				spots = append(spots, spot{i + 1, cur, pick(r, cand)})
			}
			continue
		}
		spots = append(spots, spot{at: i + 1, cur: cur})
	}
	if len(spots) == 0 {
		return false
	}
	s := pick(r, spots)
	kind := kRecall
	if !recall {
		kind = kHedge
		if hedgeValue = k.fresh(); hedgeValue == "" {
			return false
		}
		s.value = hedgeValue
	}
	c := &claim{key: k, kind: kind, value: s.value, old: s.cur, actor: actor, friendly: r.Float64() < friendlyP[kind]}
	k.seq = append(k.seq[:s.at], append([]*claim{c}, k.seq[s.at:]...)...)
	return true
}

// refinedFrom is the value a refinement to v narrowed, or "" when no claim
// of the key refines to v.
func (k *keyPlan) refinedFrom(v string) string {
	for _, c := range k.seq {
		if c.kind == kRefine && c.value == v {
			return c.refines
		}
	}
	return ""
}

// expectation is what the plan says the key's ledger must end in.
type expectation struct {
	abstain bool
	current string
	prior   string // "" when there was no change
	change  string // esr.AnswerRefines / esr.AnswerReplaces / ""
}

func (k *keyPlan) expect() expectation {
	var e expectation
	for _, c := range k.seq {
		switch c.kind {
		case kInitial, kRestate:
			e.current = c.value
		case kUpdate, kRevert:
			e.prior, e.current, e.change = c.old, c.value, esr.AnswerReplaces
		case kRefine:
			e.prior, e.current, e.change = c.refines, c.value, esr.AnswerRefines
		case kConflict:
			e.abstain = true
		}
	}
	if e.abstain {
		e.current, e.prior, e.change = "", "", ""
	}
	return e
}

// goldRelation is the gold label of the pair (a earlier, b later) of
// co-keyed claims: equal states restate; a refinement of a's value, or a
// restatement of one, refines; otherwise the later claim's kind decides.
func goldRelation(a, b *claim) esr.Relation {
	if esr.StateOf(a.value, esr.Positive) == esr.StateOf(b.value, esr.Positive) {
		return esr.SameState
	}
	switch b.kind {
	case kHedge, kRecall:
		return esr.Unrelated
	case kRefine, kRestate:
		// A refinement, or a restatement of the refined value, narrows the
		// value it refines.
		if r := b.key.refinedFrom(b.value); r != "" && a.value == r {
			return esr.Refines
		}
	case kConflict:
		return esr.Contradicts
	}
	return esr.Supersedes
}
