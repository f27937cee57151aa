package relate

import (
	"strings"
	"unicode"

	"github.com/esrkit/esrkit/esr"
)

// Rule is the rule scorer of the reference pipeline. For an earlier atom a
// and a later co-keyed atom b it decides, first rule that applies:
//
//  1. UNRELATED when either value is empty after normalisation.
//  2. SAME_STATE when the states (normalised value with polarity) are equal.
//  3. REFINES when the polarities agree and a's value is contained in b's,
//     which is at least 4 characters longer (the spec's refinement mining
//     rule: a narrower restatement).
//  4. CONTRADICTS when both atoms come from the same event: one text states
//     both values and nothing orders them (an intra-passage, L1 conflict).
//  5. SUPERSEDES when b's event text carries an update or revert cue (see
//     isCueWord and isCuePair): "instead", "changed to", "no longer",
//     "revert", "restore", "roll back", "correction", ...
//  6. UNRELATED when b's event hedges without such a cue ("maybe",
//     "perhaps", "might", "not sure", a question mark): speculation has no
//     bearing on the value.
//  7. CONTRADICTS when both atoms name actors and they differ: two sources
//     disagree and nothing says which is right.
//  8. SUPERSEDES otherwise: the same source (or an unknown one) said
//     something newer.
type Rule struct{}

func (Rule) Name() string { return RuleName }

// isCueWord reports single words that mark an update or a revert. A switch
// on strings compiles to length-and-compare code, faster than a map here.
func isCueWord(w string) bool {
	switch w {
	case "instead", "revert", "reverted", "reverting", "reverts",
		"restore", "restored", "restores", "restoring",
		"update", "updated", "updating", "correction", "corrected",
		"actually", "replace", "replaced", "replaces",
		"switch", "switched", "superseded", "supersedes",
		"undo", "undid", "rollback", "now", "changed",
		"reopened", "reopen", "closed", "fixed", "resolved":
		return true
	}
	return false
}

// pairWord is the previous word when it can start a two-word cue.
type pairWord uint8

const (
	pairNone pairWord = iota
	pairNo
	pairTo    // change, changed, back, moved, set: "... to"
	pairRoll  // roll, rolled: "... back"
	pairGoing // going: "going with"
	pairNot   // not: "not sure" (a hedge)
)

func pairStart(w string) pairWord {
	switch w {
	case "no":
		return pairNo
	case "change", "changed", "back", "moved", "set":
		return pairTo
	case "roll", "rolled":
		return pairRoll
	case "going":
		return pairGoing
	case "not":
		return pairNot
	}
	return pairNone
}

// isCuePair reports two-word update cues: "no longer", "changed to",
// "back to", "moved to", "set to", "roll back", "going with".
func isCuePair(prev pairWord, w string) bool {
	switch prev {
	case pairNo:
		return w == "longer"
	case pairTo:
		return w == "to"
	case pairRoll:
		return w == "back"
	case pairGoing:
		return w == "with"
	}
	return false
}

// isHedgeWord reports words that mark speculation (rule 6); "not sure" and
// a question mark count too.
func isHedgeWord(w string) bool {
	switch w {
	case "maybe", "perhaps", "might", "possibly", "guess", "unsure":
		return true
	}
	return false
}

// eventCues are the cue flags of one event's text.
type eventCues uint8

const (
	cuesKnown eventCues = 1 << iota
	cueUpdate
	cueHedge
)

// scanCues reads the text once, word by word, for cue words and pairs,
// hedge words, "not sure" and "?".
func scanCues(text string) eventCues {
	c := cuesKnown
	prev := pairNone
	var buf [32]byte
	i := 0
	for i < len(text) {
		for i < len(text) && !isWordByte(text[i]) {
			if text[i] == '?' {
				c |= cueHedge
			}
			i++
		}
		j := i
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		if j == i {
			break
		}
		if j-i > maxCueLen {
			// Longer than every cue word: it can neither match nor start a pair.
			prev, i = pairNone, j
			continue
		}
		w := lowerInto(buf[:0], text[i:j])
		switch {
		case isCueWord(w), isCuePair(prev, w):
			// An update cue decides rule 5 before any hedge (rule 6) is
			// consulted, so the rest of the text cannot change the label.
			return c | cueUpdate
		case isHedgeWord(w), prev == pairNot && w == "sure":
			c |= cueHedge
		}
		prev = pairStart(w)
		i = j
	}
	return c
}

// maxCueLen is the length of the longest cue, hedge or pair-starting word
// ("correction", "superseded").
const maxCueLen = 10

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '\'' || b >= 0x80
}

// lowerInto lower-cases an ASCII word without allocating for short words
// (the map lookups above do not retain the string).
func lowerInto(buf []byte, w string) string {
	if len(w) > cap(buf) {
		return strings.ToLower(w)
	}
	for k := 0; k < len(w); k++ {
		c := w[k]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c >= 0x80 {
			return strings.Map(unicode.ToLower, w)
		}
		buf = append(buf, c)
	}
	return unsafeString(buf)
}

func (Rule) ForStream(s *esr.Stream, _ []esr.Atom) esr.PairFunc {
	cues := make([]eventCues, len(s.Events))
	cueOf := func(b *esr.Atom) eventCues {
		i := b.EventIndex
		if i < 0 || i >= len(cues) {
			return cuesKnown
		}
		if cues[i] == 0 {
			cues[i] = scanCues(s.Events[i].Text)
		}
		return cues[i]
	}
	return func(a, b *esr.Atom) esr.Relation {
		sa, sb := a.State(), b.State()
		switch {
		case sa == "" || sb == "" || sa == "¬" || sb == "¬":
			return esr.Unrelated
		case sa == sb:
			return esr.SameState
		case a.Polarity == b.Polarity && len(sb) >= len(sa)+4 && strings.Contains(sb, sa):
			return esr.Refines
		}
		if a.EventID == b.EventID && a.EventID != "" {
			return esr.Contradicts
		}
		c := cueOf(b)
		switch {
		case c&cueUpdate != 0:
			return esr.Supersedes
		case c&cueHedge != 0:
			return esr.Unrelated
		}
		if an, bn := a.ActorName(), b.ActorName(); an != "" && bn != "" && an != bn {
			return esr.Contradicts
		}
		return esr.Supersedes
	}
}
