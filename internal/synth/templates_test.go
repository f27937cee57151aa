package synth

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/relate"
)

var testFill = strings.NewReplacer("{a}", "request timeout", "{f}", "request_timeout", "{v}", "45 s", "{V}", "45 s",
	"{o}", "30 s", "{e}", "the uploader", "{E}", "Veloria", "{d}", "2015", "{ind}", "in 2015", "{Ind}", "In 2015",
	"{src}", "a press report", "{ip}", "203.0.113.5", "{ed}", "Kestrel42", "{h}", "tchen", "{u}", "tchen",
	"{n}", "123", "{k}", "3", "{rev}", "123456789")

// ruleOn is the rule scorer's label for an earlier atom by actorA (value
// "30 s") and a later atom by actorB whose event text is text.
func ruleOn(text, actorA, actorB string) esr.Relation {
	ptr := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	s := &esr.Stream{ID: "t", Events: []esr.Event{
		{ID: "e1", Timestamp: esr.MustTime("2024-01-01"), Text: "The request timeout is 30 s.", Actor: ptr(actorA)},
		{ID: "e2", Timestamp: esr.MustTime("2024-02-01"), Text: text, Actor: ptr(actorB)},
	}}
	atoms := []esr.Atom{
		{ID: "a", EventID: "e1", EventIndex: 0, Actor: ptr(actorA), Entity: "x", Attribute: "y", Value: "30 s", Polarity: esr.Positive},
		{ID: "b", EventID: "e2", EventIndex: 1, Actor: ptr(actorB), Entity: "x", Attribute: "y", Value: "45 s", Polarity: esr.Positive},
	}
	return relate.Rule{}.ForStream(s, atoms)(&atoms[0], &atoms[1])
}

// TestTemplatesAgainstRule: friendly wording leads the rule scorer to the
// gold relation, hostile wording away from it (for two named actors; the
// DyKnow style has no actors on facts and needs no cue).
func TestTemplatesAgainstRule(t *testing.T) {
	for name, st := range map[string]*style{"github": &githubStyle, "wiki": &wikiStyle, "dyknow": &dyknowStyle} {
		sets := []map[claimKind]tmplSet{st.claims}
		for sp, m := range st.special {
			if sp != "vandal" && sp != "issuefield" {
				sets = append(sets, m)
			}
		}
		for _, set := range sets {
			for kind, ts := range set {
				for friendly, list := range map[bool][]string{true: ts.friendly, false: ts.hostile} {
					for _, tmpl := range list {
						text := testFill.Replace(tmpl)
						if name == "dyknow" && kind != kConflict {
							if got := ruleOn(text, "", ""); kind == kUpdate || kind == kRevert {
								if got != esr.Supersedes {
									t.Errorf("%s %v %q: rule %v, want SUPERSEDES", name, kind, text, got)
								}
							}
							continue
						}
						got := ruleOn(text, "alice", "bob")
						var ok bool
						switch kind {
						case kUpdate, kRevert:
							ok = (got == esr.Supersedes) == friendly
						case kConflict:
							ok = (got == esr.Contradicts) == friendly
						case kHedge, kRecall:
							ok = (got == esr.Unrelated) == friendly
						default:
							ok = true
						}
						if !ok {
							t.Errorf("%s %v friendly=%v %q: rule says %v", name, kind, friendly, text, got)
						}
					}
				}
			}
		}
	}
}
