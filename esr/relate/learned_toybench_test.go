package relate

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// toyKind is what a toy event says about its key.
type toyKind int

const (
	tInitial toyKind = iota
	tRestate
	tUpdate
	tRefine
	tConflict
	tHedge
)

// toyBench builds n small streams, one key each, mixing restatements,
// supersessions (cued and uncued), refinements (some a long appended
// qualifier the rule catches, some a short suffix or a reordered narrowing it
// misses), cross-source conflicts and hedges, with the gold relation of every
// co-keyed pair (the synth package's rule: equal states restate; otherwise
// the later atom's kind decides) and, for streams whose last change is a
// refinement, a relation-type QA in the refines stratum.
func toyBench(n int, seed uint64) *bench.Bench {
	r := rand.New(rand.NewPCG(seed, 7))
	var streams []*esr.Stream
	atoms := map[string][]esr.Atom{}
	var qas []esr.QA
	rels := map[string]map[esr.AtomPair]esr.Relation{}
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for si := range n {
		sid := fmt.Sprintf("toy%02d", si)
		key := esr.Key{Entity: "svc" + fmt.Sprint(si), Attribute: "timeout"}
		version := si%2 == 1
		if version {
			key.Attribute = "fixed_version"
		}
		fresh := func() string {
			if version {
				return fmt.Sprintf("%d.%d", 1+r.IntN(5), r.IntN(10))
			}
			return fmt.Sprintf("%d s", 10*(1+r.IntN(30)))
		}
		s := &esr.Stream{ID: sid, Title: key.String()}
		var as []esr.Atom
		var kinds []toyKind
		var refinesOf []string
		cur := ""
		lastChange, conflict := "", false
		nEvents := 4 + r.IntN(4)
		for ei := range nEvents {
			kind := tInitial
			if ei > 0 {
				switch x := r.Float64(); {
				case x < 0.2:
					kind = tRestate
				case x < 0.45:
					kind = tUpdate
				case x < 0.75:
					kind = tRefine
				case x < 0.87:
					kind = tConflict
				default:
					kind = tHedge
				}
			}
			actor := "alice"
			v, text, modality, refined := "", "", "assert", ""
			switch kind {
			case tInitial:
				v = fresh()
				text = fmt.Sprintf("Set the %s to %s.", key.Attribute, v)
			case tRestate:
				v = cur
				text = fmt.Sprintf("Confirming the %s is %s.", key.Attribute, v)
			case tUpdate:
				if v = fresh(); v == cur {
					v = cur + "0"
				}
				if r.IntN(2) == 0 {
					text = fmt.Sprintf("Update: use %s instead.", v)
				} else {
					text = fmt.Sprintf("Let's go with %s from here.", v) // no rule cue
					if r.IntN(3) == 0 {
						actor = "dana" // a maintainer the rule would read as a second source
					}
				}
			case tRefine:
				refined = cur
				switch r.IntN(3) {
				case 0: // long qualifier: the rule's containment catches it
					v = cur + []string{" for uploads over 1 GB", " on slow networks", " per retry attempt"}[r.IntN(3)]
				case 1: // short suffix (< 4 characters longer): the rule misses it
					v = cur + []string{".1", ".2", " rc"}[r.IntN(3)]
				default: // reordered narrowing: not a substring
					v = "only " + []string{"linux", "ci", "docker"}[r.IntN(3)] + ": " + strings.ReplaceAll(cur, " ", "")
				}
				text = []string{"More precisely, the %s is %s.", "To be specific: %s is %s.", "Narrowing it down, %s = %s."}[r.IntN(3)]
				text = fmt.Sprintf(text, key.Attribute, v)
			case tConflict:
				if v = fresh(); v == cur {
					v = cur + "5"
				}
				actor = []string{"bob", "carol"}[r.IntN(2)]
				text = fmt.Sprintf("On my machine the %s is %s, not what was said above.", key.Attribute, v)
			case tHedge:
				if v = fresh(); v == cur {
					v = cur + "9"
				}
				actor = "bob"
				modality = "hedge"
				text = fmt.Sprintf("Maybe it is %s?", v)
			}
			// A conflict stays active until an update closes it; a refinement
			// after it closes both, so its relation type is mixed.
			switch kind {
			case tUpdate:
				lastChange, conflict = esr.AnswerReplaces, false
			case tRefine:
				lastChange = map[bool]string{false: esr.AnswerRefines, true: "mixed"}[conflict]
				conflict = false
			case tConflict:
				lastChange, conflict = "conflict", true
			}
			if kind != tHedge && kind != tConflict {
				cur = v
			}
			a := actor
			ts := esr.Time{Time: t0.Add(time.Duration(ei*24+r.IntN(20)) * time.Hour)}
			eid := fmt.Sprintf("e%d", ei+1)
			s.Events = append(s.Events, esr.Event{ID: eid, Kind: "comment", Timestamp: ts, Text: text, Actor: &a, Role: "participant"})
			as = append(as, esr.Atom{ID: fmt.Sprintf("%s-a%d", sid, ei+1), StreamID: sid, EventID: eid, Timestamp: ts,
				Actor: &a, Modality: modality, Entity: key.Entity, Attribute: key.Attribute, Value: v,
				Polarity: esr.Positive, Confidence: map[bool]float64{true: 0.4, false: 0.9}[modality == "hedge"]})
			kinds = append(kinds, kind)
			refinesOf = append(refinesOf, refined)
		}
		g := map[esr.AtomPair]esr.Relation{}
		for j := range as {
			for i := range j {
				rel := esr.Supersedes
				switch {
				case as[i].State() == as[j].State():
					rel = esr.SameState
				case kinds[j] == tHedge:
					rel = esr.Unrelated
				case kinds[j] == tConflict:
					rel = esr.Contradicts
				case kinds[j] == tRefine && as[i].Value == refinesOf[j]:
					rel = esr.Refines
				}
				g[esr.AtomPair{A: as[i].ID, B: as[j].ID}] = rel
			}
		}
		streams = append(streams, s)
		atoms[sid] = as
		rels[sid] = g
		if lastChange == esr.AnswerRefines {
			qas = append(qas, esr.QA{QID: sid + "-type", StreamID: sid, Question: "Did the last change refine or replace the prior value?",
				GoldAnswer: esr.AnswerRefines, Phenomenon: esr.Refinement, QueryType: esr.RelationType,
				Entity: key.Entity, Attribute: key.Attribute})
		}
	}
	b := bench.New(streams, atoms, qas)
	b.Relations = rels
	return b
}
