package synth

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
)

// Extra mentions and distractor keys (Config.AtomsPerEvent,
// Config.KeysPerStream). After the plan is laid out in events, decorate
//
//  1. adds the stream's distractor keys (allocateDistractors), each first
//     mentioned in the opening post (GitHub, half of them) or in a random
//     event;
//  2. draws further mentions, (event, key) pairs where the event does not
//     yet mention the key, uniformly among the eligible ones, until the
//     stream's atoms reach AtomsPerEvent times its events;
//  3. turns them into claims: a distractor key's first mention states a
//     value, later ones restate it or (one in ten) change it; a questioned
//     key's mention restates the value in force at that event.
//
// A questioned key is eligible at an event only after its first assertion
// and before any conflicting source (a restatement during a conflict would
// take a side); the issue status is never restated (its restatement text
// says the issue is still open). Gold still comes from the plan: the key's
// QAs are computed by ⊕ over all its claims and checked as before, so a
// restatement can add supporting or deprecated events, never change an
// answer.

// distractorUpdateP is the probability that a later mention of a
// distractor key changes its value.
const distractorUpdateP = 0.1

func (g *streamGen) decorate() error {
	if g.distractors == 0 && g.cfg.AtomsPerEvent == 0 {
		return nil
	}
	r := g.rx
	evOf := map[*claim]int{}
	mentioned := make([]map[*keyPlan]bool, len(g.events))
	core := 0
	for i, ev := range g.events {
		mentioned[i] = map[*keyPlan]bool{}
		for _, c := range ev.claims {
			evOf[c] = i
			mentioned[i][c.key] = true
			core++
		}
	}
	var evs []int // events that may carry a mention
	for i, ev := range g.events {
		if g.cfg.AtomsOver != AtomsOverWithAtoms || len(ev.claims) > 0 {
			evs = append(evs, i)
		}
	}
	if len(evs) == 0 {
		return fmt.Errorf("synth: no event to carry a mention")
	}
	// 1. Distractor keys.
	var dks []*keyPlan
	cands := g.distractorAttrs()
	r.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	for _, a := range cands[:min(len(cands), g.distractors)] {
		k := &keyPlan{idx: len(g.keys), a: a, pool: a.pool(r), phen: esr.Monotonic, distractor: true}
		k.key, k.text = g.keyOf(a)
		g.keys = append(g.keys, k)
		dks = append(dks, k)
	}
	type mention struct {
		ev int
		k  *keyPlan
	}
	var ms []mention
	add := func(j int, k *keyPlan) {
		ms = append(ms, mention{j, k})
		mentioned[j][k] = true
	}
	opening := -1
	if len(g.events) > 0 && g.events[0].opening && (g.cfg.AtomsOver != AtomsOverWithAtoms || len(g.events[0].claims) > 0) {
		opening = 0
	}
	for _, k := range dks {
		j := evs[r.IntN(len(evs))]
		if opening >= 0 && r.Float64() < 0.5 {
			j = opening
		}
		add(j, k)
	}
	// 2. Further mentions up to the target.
	extra := 0
	if t := g.cfg.AtomsPerEvent; t > 0 {
		n := len(evs)
		if g.cfg.AtomsOver != AtomsOverWithAtoms {
			t /= g.cfg.EventRecall // missed events lose their atoms, not their count
			n = len(g.events)
		}
		extra = stochasticRound(r, t*float64(n)) - core - len(ms)
	}
	if extra > 0 {
		var pairs []mention
		for _, j := range evs {
			for _, k := range g.keys {
				if !mentioned[j][k] && g.canMention(k, j, evOf) {
					pairs = append(pairs, mention{j, k})
				}
			}
		}
		r.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
		for _, p := range pairs[:min(len(pairs), extra)] {
			add(p.ev, p.k)
		}
	}
	// 3. Claims, in event order.
	byEvent := make([][]*keyPlan, len(g.events))
	for _, m := range ms {
		byEvent[m.ev] = append(byEvent[m.ev], m.k)
	}
	cur := map[*keyPlan]string{}
	for j, ks := range byEvent {
		ev := g.events[j]
		for _, k := range ks {
			c := &claim{key: k, kind: kRestate, actor: ev.actor, mention: true}
			switch {
			case !k.distractor:
				c.value = g.valueBefore(k, j, evOf)
			case cur[k] == "":
				c.kind, c.value = kInitial, k.fresh()
			case r.Float64() < distractorUpdateP && k.a.name != "driving_side":
				if v := k.fresh(); v != "" {
					c.kind, c.value, c.old, c.friendly = kUpdate, v, cur[k], r.Float64() < friendlyP[kUpdate]
					break
				}
				c.value = cur[k]
			default:
				c.value = cur[k]
			}
			if c.value == "" {
				return fmt.Errorf("synth: %s: no value for a mention", k.a.name)
			}
			cur[k] = c.value
			ev.claims = append(ev.claims, c)
		}
	}
	// Each key's claims in event order (one event holds at most one claim
	// of a key).
	for _, k := range g.keys {
		k.seq = k.seq[:0:0]
	}
	for _, ev := range g.events {
		for _, c := range ev.claims {
			c.key.seq = append(c.key.seq, c)
		}
	}
	return nil
}

// canMention reports whether questioned key k may be restated at event j:
// some assertion of k comes earlier, no conflicting claim of k comes at or
// before j, and k is not the issue status. Distractor keys may be mentioned
// anywhere.
func (g *streamGen) canMention(k *keyPlan, j int, evOf map[*claim]int) bool {
	if k.distractor {
		return true
	}
	if k.a.special == "status" {
		return false
	}
	asserted := false
	for _, c := range k.seq {
		if evOf[c] > j {
			break
		}
		if c.kind == kConflict {
			return false
		}
		if c.kind.assertive() && evOf[c] < j {
			asserted = true
		}
	}
	return asserted
}

// valueBefore is the value of questioned key k in force just before event j.
func (g *streamGen) valueBefore(k *keyPlan, j int, evOf map[*claim]int) string {
	last := -1
	for i, c := range k.seq {
		if evOf[c] < j {
			last = i
		}
	}
	if last < 0 {
		return ""
	}
	cur, _, _ := k.stateAt(last)
	return cur
}

// keyOf is the key and the prose's name of its entity for attribute a of
// this stream (as newKey makes them).
func (g *streamGen) keyOf(a *attr) (esr.Key, string) {
	switch a.ent {
	case entComponent:
		return esr.Key{Entity: g.comp, Attribute: a.name}, "the " + g.comp
	case entIssue:
		return esr.Key{Entity: fmt.Sprintf("issue #%d", g.issue), Attribute: a.name}, "this issue"
	}
	return esr.Key{Entity: g.entName, Attribute: a.name}, g.entName
}
