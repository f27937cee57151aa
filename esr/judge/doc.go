// Package judge scores an answer against a QA's gold answer: Exact
// (normalised match: case, punctuation, articles, units, dates, aliases,
// safe containment, ABSTAIN) or LLMJudge (an OpenAI-compatible endpoint
// with the judge template, cached). Parse picks one by name ("exact", "llm",
// "llm:MODEL"); CheckAgreement compares a judge with external labels by
// Cohen's κ.
package judge
