package judge

import (
	"github.com/esrkit/esrkit/esr"
)

// Label is the four-way reading of a judged answer, after DyKnow's
// correct / outdated / irrelevant labels with abstentions kept apart.
type Label string

// The labels Classify gives.
const (
	// LabelCorrect: the judge accepted the answer.
	LabelCorrect Label = "correct"
	// LabelOutdated: a rejected value answer that names a value the key
	// held before (PriorValues) and names neither the gold nor an alias.
	LabelOutdated Label = "outdated"
	// LabelAbstained: a rejected abstention.
	LabelAbstained Label = "abstained"
	// LabelWrong: any other rejected answer (another value, both the old and
	// the current value, a negation, ...).
	LabelWrong Label = "wrong"
)

// Labels lists the labels in table order.
var Labels = []Label{LabelCorrect, LabelOutdated, LabelAbstained, LabelWrong}

// Classify labels answer a to qa given the judge's verdict v and the values
// the key held before (PriorValues): correct when v.Correct; abstained when
// v.Abstained; outdated when the answer names a prior value and names
// neither the gold nor an alias; wrong otherwise. The verdict may come from
// any judge; the outdated test is always the exact judge's token rule: a
// value is named when its canonical token sequence (case, accents,
// articles, units, dates folded as in Exact) occurs in the answer's and the
// word just before it is not a negation ("not 60 s" does not name 60 s).
// So Classify never changes whether an answer is correct: it only splits
// the rejected ones.
func Classify(v Verdict, qa *esr.QA, prior []string, a esr.Answer) Label {
	switch {
	case v.Correct:
		return LabelCorrect
	case v.Abstained:
		return LabelAbstained
	}
	if len(prior) == 0 || qa.GoldAbstain() {
		return LabelWrong
	}
	ans := canonTokens(a.Value)
	for _, g := range append([]string{qa.GoldAnswer}, qa.Aliases...) {
		if names(ans, canonTokens(g)) {
			return LabelWrong
		}
	}
	for _, p := range prior {
		if names(ans, canonTokens(p)) {
			return LabelOutdated
		}
	}
	return LabelWrong
}

// negations are the words that, just before a value, deny it.
var negations = map[string]bool{"not": true, "no": true, "never": true, "isnt": true, "wasnt": true,
	"arent": true, "werent": true, "dont": true, "doesnt": true, "cannot": true, "cant": true, "nor": true, "neither": true}

// names reports whether the value tokens v occur in the answer tokens ans
// without a negation just before them.
func names(ans, v []string) bool {
	found := false
	occurrences(ans, v, func(negated bool) {
		found = found || !negated
	})
	return found
}

// denies reports whether some occurrence of v in ans has a negation just
// before it.
func denies(ans, v []string) bool {
	found := false
	occurrences(ans, v, func(negated bool) {
		found = found || negated
	})
	return found
}

// occurrences calls fn for each occurrence of v in ans, saying whether a
// negation word is just before it.
func occurrences(ans, v []string, fn func(negated bool)) {
	if len(v) == 0 {
		return
	}
	for from := 0; from+len(v) <= len(ans); {
		at := indexTokens(ans[from:], v)
		if at < 0 {
			return
		}
		at += from
		fn(at > 0 && negations[ans[at-1]])
		from = at + 1
	}
}

// PriorValues are the values qa's key held that are not its gold, for the
// outdated label: for a snapshot QA with a value gold, the displayed value
// (esr.Atom.Display) of every atom of the key whose state differs from the
// gold's and from every gold-supporting atom's, newest first, each once.
// The key is the QA's Entity/Attribute, else the key of the atoms at its
// gold supporting events, else the located key. Other query types and
// ABSTAIN golds have none (provenance golds are themselves prior values;
// relation-type golds are relation words). atoms are the QA's stream's
// atoms in transaction order.
//
// PriorValues reads the QA's gold fields: judges may, readers and memories
// never do.
func PriorValues(qa *esr.QA, atoms []esr.Atom) []string {
	if qa.Type() != esr.Snapshot || qa.GoldAbstain() || len(atoms) == 0 {
		return nil
	}
	key, ok := goldKey(qa, atoms)
	if !ok {
		return nil
	}
	support := map[string]bool{}
	for _, id := range qa.GoldSupportingEventIDs {
		support[id] = true
	}
	current := map[string]bool{esr.StateOf(qa.GoldAnswer, esr.Positive): true}
	for i := range atoms {
		if a := &atoms[i]; a.Key() == key && support[a.EventID] {
			current[stateOf(a)] = true
		}
	}
	var out []string
	seen := map[string]bool{}
	for i := len(atoms) - 1; i >= 0; i-- {
		a := &atoms[i]
		st := stateOf(a)
		if a.Key() != key || current[st] || seen[st] {
			continue
		}
		seen[st] = true
		out = append(out, a.Display())
	}
	return out
}

// stateOf is a.State() without its cache write, so concurrent judges may
// share a stream's atoms.
func stateOf(a *esr.Atom) string { return esr.StateOf(a.Value, a.Polarity) }

// goldKey is the key a QA is about, read from its fields and gold events.
func goldKey(qa *esr.QA, atoms []esr.Atom) (esr.Key, bool) {
	if qa.Entity != "" && qa.Attribute != "" {
		return esr.Key{Entity: qa.Entity, Attribute: qa.Attribute}, true
	}
	support := map[string]bool{}
	for _, id := range qa.GoldSupportingEventIDs {
		support[id] = true
	}
	for i := len(atoms) - 1; i >= 0; i-- {
		if support[atoms[i].EventID] {
			return atoms[i].Key(), true
		}
	}
	return qa.Locate(atoms)
}
