package memory

import "github.com/esrkit/esrkit/esr"

// The one d-blind rule (spec §3, "One d-blind rule"): the structured
// read-out of every d-aware class and of every render-matched control
// answers a key only when its live atoms agree on one value, and abstains
// when several distinct live values remain, mechanism on or off, under gold
// or noisy relations. No store breaks such a tie by recency or frequency:
// choosing among live values from their dates is a reader's skill (the
// scripted and simulated readers' date sorting), never a store's read-out.
//
// Baselines defined by a rule keep that rule and say so in their docs:
// latest-only answers the newest atom (recency), graphrag-lite the most
// frequent value (majority), direct-context and rag-topk the newest kept
// event's value (a careful reader of time-stamped text).

// liveValue is the d-blind snapshot rule over a key's live atoms, given in
// transaction order: the value they agree on (surface form of the newest),
// ABSTAIN when none is live or their states disagree. It is esr.ReadOut with
// every given atom live.
func liveValue(live []*esr.Atom) esr.Answer {
	if len(live) == 0 {
		return esr.Abstain
	}
	bits := make([]bool, len(live))
	for i := range bits {
		bits[i] = true
	}
	return esr.ReadOut(live, bits)
}

// liveAgree reports whether a key's live atoms hold one value (state): the
// precondition of every read-out but snapshot's own (provenance and
// relation type abstain when the current value is not single).
func liveAgree(live []*esr.Atom) bool {
	for _, a := range live {
		if a.State() != live[0].State() {
			return false
		}
	}
	return len(live) > 0
}
