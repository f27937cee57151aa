package judge

import (
	"context"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/llm"
)

// Exact is the normalised exact-match judge. Its rules, in order:
//
//  1. Abstention. An answer abstains when its Abstain flag is set or its text
//     is an abstention (llm.IsAbstention: "ABSTAIN", "unknown", "cannot be
//     determined", an empty answer, ...). Against a gold ABSTAIN an answer is
//     correct exactly when it abstains; against a value gold an abstention is
//     wrong.
//  2. Canonical equality with the gold answer or one of the QA's Aliases.
//     Both sides become canonical tokens: lower case; accents folded
//     ("Støre" = "Store"); punctuation dropped except inside numbers
//     ("1.5", "2015-02-03"); thousands commas dropped; the articles a, an,
//     the dropped (unless nothing else is left); quantities with units in
//     base units ("30 s" = "30s" = "30 seconds" = "half a minute" =
//     "0.5 min" = "30000 ms"; sizes in bytes; "50%" = "50 percent"); dates as
//     one token ("2015-02-03" = "3 February 2015" = "February 3, 2015" =
//     "3rd Feb 2015"; "February 2015" = "2015-02"; dates must agree in
//     precision).
//  3. Relation-type words: against a gold "refines" or "replaces", an answer
//     that uses words of exactly one family (refine/refines/refined/
//     refinement/narrows vs replace/replaces/replaced/replacement/
//     supersedes/superseded) is judged by that family.
//  4. Containment, when safe: a longer answer sentence is correct when it
//     contains the gold's (or an alias's) whole token sequence and (a) has at
//     most 40 tokens, (b) has no hedging, negation or staleness word (not,
//     no, never, previously, formerly, was, were, used, before, instead, old,
//     outdated, until, or, either, but, ...), and (c) when the gold holds a
//     number, quantity or date, has no other number, quantity or date
//     outside the matched span. So "The timeout is 30 seconds." matches
//     gold "30 s", while "It changed from 30 s to 60 s", "30 s or 60 s" and
//     "previously 30 s" do not. An answer SHORTER than the gold never
//     matches ("Banga" is not "Ajaypal Singh Banga"). NoContainment turns
//     this rule off.
//
// The zero value is ready to use.
type Exact struct {
	NoContainment bool
}

func (Exact) Name() string { return "exact" }

// maxContainmentTokens bounds the answers rule 4 applies to.
const maxContainmentTokens = 40

// Judge applies the rules above.
func (e Exact) Judge(_ context.Context, qa *esr.QA, a esr.Answer) (Verdict, error) {
	return e.Decide(qa.GoldAnswer, qa.Aliases, a), nil
}

// Decide judges answer a against gold and its aliases.
func (e Exact) Decide(gold string, aliases []string, a esr.Answer) Verdict {
	abst := a.Abstain || llm.IsAbstention(a.Value)
	goldAbst := strings.TrimSpace(gold) == esr.AbstainText
	if abst || goldAbst {
		v := Verdict{Correct: abst && goldAbst, Abstained: abst, Rule: ruleAbstain}
		return v
	}
	ans := canonTokens(a.Value)
	// The gold's and each alias's tokens, each made once for the rules below.
	golds := make([][]string, 1+len(aliases))
	for i := range golds {
		g := gold
		if i > 0 {
			g = aliases[i-1]
		}
		golds[i] = canonTokens(g)
		if equalTokens(ans, golds[i]) {
			if i == 0 {
				return Verdict{Correct: true, Rule: ruleExact}
			}
			return Verdict{Correct: true, Rule: ruleAlias}
		}
	}
	if fam := relationFamily(golds[0]); fam != "" {
		got := relationFamily(ans)
		return Verdict{Correct: got == fam, Rule: ruleRelation}
	}
	if !e.NoContainment {
		for _, g := range golds {
			if containsSafely(ans, g) {
				return Verdict{Correct: true, Rule: ruleContains}
			}
		}
	}
	return Verdict{Rule: ruleNoMatch}
}

// Rules a Verdict names.
const (
	ruleAbstain  = "abstain"
	ruleExact    = "exact"
	ruleAlias    = "alias"
	ruleRelation = "relation"
	ruleContains = "contains"
	ruleNoMatch  = "no-match"
	ruleLLM      = "llm"
)

var refineWords = map[string]bool{"refine": true, "refines": true, "refined": true, "refinement": true,
	"refining": true, "narrows": true, "narrowed": true, "narrower": true}
var replaceWords = map[string]bool{"replace": true, "replaces": true, "replaced": true, "replacement": true,
	"replacing": true, "supersedes": true, "superseded": true, "supersede": true}

// relationFamily is "refines" or "replaces" when the tokens use words of
// exactly one family.
func relationFamily(toks []string) string {
	ref, rep := false, false
	for _, t := range toks {
		ref = ref || refineWords[t]
		rep = rep || replaceWords[t]
	}
	switch {
	case ref && !rep:
		return esr.AnswerRefines
	case rep && !ref:
		return esr.AnswerReplaces
	}
	return ""
}

// unsafeWords make containment unsafe: they negate, hedge or mark a value
// as no longer in force.
var unsafeWords = map[string]bool{
	"not": true, "no": true, "never": true, "longer": true, "previously": true, "formerly": true,
	"former": true, "was": true, "were": true, "used": true, "before": true, "earlier": true,
	"instead": true, "old": true, "older": true, "outdated": true, "until": true, "except": true,
	"nor": true, "neither": true, "or": true, "either": true, "unless": true, "but": true,
	"dont": true, "doesnt": true, "isnt": true, "wasnt": true, "arent": true, "cannot": true,
	"cant": true, "prior": true, "replaced": true, "superseded": true, "deprecated": true, "from": true,
}

func numeric(t string) bool {
	if special(t) {
		return true
	}
	_, ok := number(t)
	return ok
}

func containsSafely(ans, gold []string) bool {
	if len(gold) == 0 || len(ans) <= len(gold) || len(ans) > maxContainmentTokens {
		return false
	}
	at := indexTokens(ans, gold)
	if at < 0 {
		return false
	}
	goldNumeric := false
	for _, t := range gold {
		goldNumeric = goldNumeric || numeric(t)
	}
	for i, t := range ans {
		if unsafeWords[t] {
			return false
		}
		if goldNumeric && (i < at || i >= at+len(gold)) && numeric(t) {
			return false
		}
	}
	return true
}
