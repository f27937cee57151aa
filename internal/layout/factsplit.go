package layout

import "strings"

// factVerbs are the verb phrases a fact sentence ("ENTITY ATTRIBUTE is
// VALUE") may join its key and value with. Deployed memories write their
// facts through an LLM, so the same fact comes in several wordings ("is",
// "was set to", "became", …); a reader that takes the key and value from
// any of them reads a paraphrase as an answer model would.
var factVerbs = []string{" is now ", " is ", " was set to ", " is set to ", " was changed to ", " changed to ",
	" was updated to ", " became ", " equals "}

// SplitFact splits a fact sentence at its first verb phrase (the longest
// one starting there) into key and value.
func SplitFact(s string) (key, value string, ok bool) {
	at, verb := -1, ""
	for _, v := range factVerbs {
		i := strings.Index(s, v)
		if i >= 0 && (at < 0 || i < at || i == at && len(v) > len(verb)) {
			at, verb = i, v
		}
	}
	if at < 0 {
		return "", "", false
	}
	return strings.TrimSpace(s[:at]), strings.TrimSpace(s[at+len(verb):]), true
}
