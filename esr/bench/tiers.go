package bench

import (
	"github.com/esrkit/esrkit/esr"
)

// Tier is one conflict-locality tier of the paper's Figure 2 with a live
// example stream.
type Tier struct {
	Name, Where, Needs string
	Stream             *esr.Stream
	Atoms              []esr.Atom
	Question           string
	Gold               string
}

// Tiers builds one example per tier of the paper's Figure 2:
//   - L1 intra-passage: the contradiction sits in one text ("thread-safe.
//     However, … not thread-safe."); reading settles it.
//   - L2 cross-passage: two sources disagree at overlapping times; provenance
//     and time must link them and the memory must abstain while unresolved.
//   - L3 temporal trajectory: later events about the same key supersede
//     earlier ones; a deprecation marker is needed.
func Tiers() []Tier {
	l1k := esr.Key{Entity: "parse_config", Attribute: "thread_safety"}
	l1s, l1a := Build("tier-L1", l1k, []Event{
		{ID: "n1", Date: "2024-05-01", Actor: "doc", Value: "thread-safe",
			Text: "The function is thread-safe. However, the function is not thread-safe when reloading."},
	})
	// The same note yields a second, negative atom from the same event.
	neg := l1a[0]
	neg.ID, neg.Polarity, neg.Value = "a2", esr.Negative, "thread-safe"
	l1a = append(l1a, neg)

	l2k := esr.Key{Entity: "api", Attribute: "rate_limit"}
	l2s, l2a := Build("tier-L2", l2k, []Event{
		{ID: "pA", Date: "2024-06-01", Actor: "page-a", Value: "1,000 requests/day", Text: "The API limit is 1,000 requests/day."},
		{ID: "pB", Date: "2024-06-02", Actor: "page-b", Value: "10,000 requests/day", Text: "The API limit is 10,000 requests/day."},
	})
	l3k := esr.Key{Entity: "bug-123", Attribute: "proposed_workaround"}
	l3s, l3a := Build("tier-L3", l3k, []Event{
		{ID: "e1", Date: "2024-01-01", Actor: "maintainer", Value: "workaround X", Text: "Use workaround X."},
		{ID: "e2", Date: "2024-02-01", Actor: "maintainer", Value: "workaround Y", Text: "Use workaround Y instead of X."},
		{ID: "e3", Date: "2024-03-01", Actor: "maintainer", Value: "workaround X", Text: "Workaround Y reverted; X again."},
	})
	return []Tier{
		{Name: "L1 intra-passage", Where: "within one text", Needs: "both statements and their polarity; reading settles it",
			Stream: l1s, Atoms: l1a, Question: "Is parse_config thread_safety thread-safe?", Gold: esr.AbstainText},
		{Name: "L2 cross-passage", Where: "different sources, overlapping times", Needs: "provenance and time to link them; abstain while unresolved",
			Stream: l2s, Atoms: l2a, Question: "What rate_limit does the api have?", Gold: esr.AbstainText},
		{Name: "L3 temporal trajectory", Where: "later events on the same key", Needs: "a deprecation marker (binary live/dead); retention for provenance",
			Stream: l3s, Atoms: l3a, Question: "Which proposed_workaround is currently in force for bug-123?", Gold: "workaround X"},
	}
}
