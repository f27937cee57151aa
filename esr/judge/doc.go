// Package judge scores an answer against a QA's gold answer: Exact
// (normalised match: case, punctuation, articles, units, dates, aliases,
// safe containment, ABSTAIN), its variants ExactLenient (the gold named
// anywhere, LongMemEval-style) and ExactStrict (no containment), or
// LLMJudge (an OpenAI-compatible endpoint with a named judge template:
// the kit's, LongMemEval's knowledge-update judge or a strict one; cached).
// Parse picks one by name ("exact", "exact-lenient", "exact-strict",
// "llm[:MODEL][@template=NAME]"). Classify labels a judged answer correct,
// outdated, abstained or wrong from the key's PriorValues; Audit measures a
// judge's acceptance of planted answers with a verdict (AuditVerdict);
// checkAgreement compares a judge with external labels by Cohen's κ.
package judge
