package judge

import (
	"context"
	"testing"

	"github.com/esrkit/esrkit/esr"
)

func TestExactRules(t *testing.T) {
	type tc struct {
		gold    string
		aliases []string
		answer  string
		abstain bool
		want    bool
		rule    string
	}
	for _, c := range []tc{
		// 1. abstention
		{gold: "ABSTAIN", answer: "", abstain: true, want: true, rule: ruleAbstain},
		{gold: "ABSTAIN", answer: "ABSTAIN", want: true, rule: ruleAbstain},
		{gold: "ABSTAIN", answer: "It cannot be determined", want: true, rule: ruleAbstain},
		{gold: "ABSTAIN", answer: "30 s", want: false, rule: ruleAbstain},
		{gold: "30 s", answer: "ABSTAIN", abstain: true, want: false, rule: ruleAbstain},
		{gold: "30 s", answer: "unknown", want: false, rule: ruleAbstain},
		// 2. canonical equality: case, punctuation, articles, white space
		{gold: "Al-Nassr", answer: "  al nassr. ", want: true, rule: ruleExact},
		{gold: "The Phoenix Suns", answer: "Phoenix Suns", want: true, rule: ruleExact},
		{gold: "an issue", answer: "issue", want: true, rule: ruleExact},
		// Debian versions are one token each: a security upload's version is
		// not the base version it extends (data/debian).
		{gold: "4.96-15", answer: "4.96-15+deb12u11", want: false, rule: ruleNoMatch},
		{gold: "12.2.0-14", answer: "The version is 12.2.0-14+deb12u1.", want: false, rule: ruleNoMatch},
		{gold: "2.12.1+dfsg-5+deb12u4", answer: "2.12.1+dfsg-5+deb12u4", want: true, rule: ruleExact},
		{gold: "0~20210324.2-1", answer: "It is 0~20210324.2-1.", want: true, rule: ruleContains},
		{gold: "0~20210324.2-1", answer: "0~20200923-1", want: false, rule: ruleNoMatch},
		{gold: "A", answer: "a", want: true, rule: ruleExact},
		{gold: "Jonas Gahr Støre", answer: "Jonas Gahr Store", want: true, rule: ruleExact},
		{gold: "Mohammed Shia' Al Sudani", answer: "Mohammed Shia al-Sudani.", want: true, rule: ruleExact},
		{gold: "won't fix", answer: "wont fix", want: true, rule: ruleExact},
		// numbers with units
		{gold: "30 s", answer: "30 seconds", want: true, rule: ruleExact},
		{gold: "30 s", answer: "30s", want: true, rule: ruleExact},
		{gold: "30 s", answer: "half a minute", want: true, rule: ruleExact},
		{gold: "30 s", answer: "0.5 min", want: true, rule: ruleExact},
		{gold: "30 s", answer: "30000 ms", want: true, rule: ruleExact},
		{gold: "30 s", answer: "thirty seconds", want: true, rule: ruleExact},
		{gold: "1 min", answer: "a minute", want: true, rule: ruleExact},
		{gold: "2 h", answer: "120 minutes", want: true, rule: ruleExact},
		{gold: "512 MB", answer: "512mb", want: true, rule: ruleExact},
		{gold: "50%", answer: "50 percent", want: true, rule: ruleExact},
		{gold: "1,000", answer: "1000", want: true, rule: ruleExact},
		{gold: "30 s", answer: "60 s", want: false, rule: ruleNoMatch},
		{gold: "30 s", answer: "30", want: false, rule: ruleNoMatch},
		{gold: "1.5", answer: "15", want: false, rule: ruleNoMatch},
		// dates
		{gold: "2015-02-03", answer: "3 February 2015", want: true, rule: ruleExact},
		{gold: "2015-02-03", answer: "February 3, 2015", want: true, rule: ruleExact},
		{gold: "2015-02-03", answer: "3rd Feb 2015", want: true, rule: ruleExact},
		{gold: "3 February 2015", answer: "2015/02/03", want: true, rule: ruleExact},
		{gold: "February 2015", answer: "2015-02", want: true, rule: ruleExact},
		{gold: "2015-02-03", answer: "2015-02-04", want: false, rule: ruleNoMatch},
		{gold: "2015-02-03", answer: "February 2015", want: false, rule: ruleNoMatch},
		// aliases
		{gold: "Inter Miami CF", aliases: []string{"Inter Miami"}, answer: "Inter Miami", want: true, rule: ruleAlias},
		{gold: "Inter Miami CF", answer: "Inter Miami", want: false, rule: ruleNoMatch},
		// relation-type words
		{gold: "refines", answer: "It refined the earlier value.", want: true, rule: ruleRelation},
		{gold: "refines", answer: "replaces", want: false, rule: ruleRelation},
		{gold: "replaces", answer: "superseded", want: true, rule: ruleRelation},
		{gold: "replaces", answer: "it refines rather than replaces", want: false, rule: ruleRelation},
		// containment, when safe
		{gold: "30 s", answer: "The timeout currently in force is 30 seconds.", want: true, rule: ruleContains},
		{gold: "Donald Tusk", answer: "The head of government in Poland is Donald Tusk.", want: true, rule: ruleContains},
		{gold: "30 s", answer: "It changed from 60 s to 30 s", want: false, rule: ruleNoMatch},
		{gold: "30 s", answer: "30 s or 60 s", want: false, rule: ruleNoMatch},
		{gold: "30 s", answer: "30 s, previously 60 s", want: false, rule: ruleNoMatch},
		{gold: "30 s", answer: "The timeout is 30 s (the default was 10 s)", want: false, rule: ruleNoMatch},
		{gold: "closed", answer: "The issue is not closed", want: false, rule: ruleNoMatch},
		{gold: "Ebrahim Raisi", answer: "Raisi", want: false, rule: ruleNoMatch}, // shorter: never
		{gold: "2015-02-03", answer: "He took office on 3 February 2015.", want: true, rule: ruleContains},
	} {
		a := esr.Answer{Value: c.answer, Abstain: c.abstain}
		qa := &esr.QA{GoldAnswer: c.gold, Aliases: c.aliases}
		v, err := Exact{}.Judge(context.Background(), qa, a)
		if err != nil {
			t.Fatal(err)
		}
		if v.Correct != c.want || v.Rule != c.rule {
			t.Errorf("gold %q answer %q: correct=%v rule=%s, want %v %s (tokens %q vs %q)",
				c.gold, c.answer, v.Correct, v.Rule, c.want, c.rule, canonTokens(c.answer), canonTokens(c.gold))
		}
	}
	v := Exact{NoContainment: true}.Decide("30 s", nil, esr.Says("The timeout is 30 s"))
	if v.Correct {
		t.Error("NoContainment still matched")
	}
	if v := (Exact{}).Decide("ABSTAIN", nil, esr.Says("I don't know")); !v.Correct || !v.Abstained {
		t.Errorf("abstention phrase: %+v", v)
	}
}
