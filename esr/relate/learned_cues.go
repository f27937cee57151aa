package relate

import "strings"

// The update, revert and hedge word lists follow relate/rule.go (isCueWord,
// isCuePair, isHedgeWord), copied here because that file keeps them
// unexported; the split of the update cues into "update" and "revert", and
// the refinement cues, are this package's own. Keep the lists in step with
// rule.go when it changes (the rule's decision also enters the features
// directly, see featRule).

// revertWords mark a return to an earlier value.
var revertWords = set("revert", "reverted", "reverting", "reverts", "restore", "restored",
	"restores", "restoring", "undo", "undid", "rollback")

// updateWords mark a new value (rule.go's cue words minus revertWords).
var updateWords = set("instead", "update", "updated", "updating", "correction", "corrected",
	"actually", "replace", "replaced", "replaces", "switch", "switched", "superseded",
	"supersedes", "now", "changed", "reopened", "reopen", "closed", "fixed", "resolved")

// hedgeWords mark speculation ("not sure" and "?" count too).
var hedgeWords = set("maybe", "perhaps", "might", "possibly", "guess", "unsure")

// refineWords mark a narrower restatement: "more precisely", "to narrow it
// down", "specifically", "only on ...". Not in rule.go.
var refineWords = set("precisely", "precise", "specifically", "specific", "narrow", "narrows",
	"narrowed", "narrowing", "particular", "particularly", "clarify", "clarifying",
	"clarification", "exactly", "namely", "only")

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// cues are the cue flags of one event text.
type cues struct{ update, revert, hedge, refine bool }

// scanLearnedCues reads the lower-cased words of text once. Two-word cues follow
// rule.go: "no longer", "changed/change/moved/set to" (update), "back to",
// "roll(ed) back" (revert), "going with" (update), "not sure" (hedge).
func scanLearnedCues(text string) cues {
	var c cues
	if strings.ContainsRune(text, '?') {
		c.hedge = true
	}
	prev := ""
	for _, w := range words(text) {
		switch {
		case revertWords[w], w == "to" && prev == "back", w == "back" && (prev == "roll" || prev == "rolled"):
			c.revert = true
		case updateWords[w], w == "longer" && prev == "no", w == "with" && prev == "going",
			w == "to" && (prev == "change" || prev == "changed" || prev == "moved" || prev == "set"):
			c.update = true
		case hedgeWords[w], w == "sure" && prev == "not":
			c.hedge = true
		}
		if refineWords[w] {
			c.refine = true
		}
		prev = w
	}
	return c
}

// words splits s into lower-case runs of letters, digits and apostrophes
// (rule.go's isWordByte, extended to Unicode letters).
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r == '\'' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 0x80)
	})
}
