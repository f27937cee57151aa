package llm

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/esrkit/esrkit/esr"
)

// abstainWords are answers that, as the whole answer (case, punctuation and
// surrounding white space ignored), are abstentions.
var abstainWords = []string{
	"abstain", "abstention", "unknown", "uncertain", "unclear", "undetermined", "indeterminate",
	"n/a", "na", "no answer", "not available", "cannot answer", "can't answer", "cannot say",
	"can't say", "not sure", "none of the above", "insufficient", "insufficient evidence",
	"unresolved", "conflicting", "ambiguous",
}

// abstainPhrases are phrases that make an answer an abstention wherever they
// occur in it (case ignored).
var abstainPhrases = []string{
	"cannot be determined", "can't be determined", "can not be determined", "could not be determined",
	"cannot determine", "can't determine", "unable to determine", "not possible to determine",
	"impossible to determine", "cannot be answered", "can't be answered",
	"not enough information", "insufficient information", "not enough context", "insufficient context",
	"not enough evidence", "no single answer", "i don't know", "i do not know", "i'm not sure",
	"does not specify", "doesn't specify", "is not specified", "not mentioned", "does not mention",
	"doesn't mention", "not stated", "no information", "conflicting information", "conflicting evidence",
}

var (
	thinkRE  = regexp.MustCompile(`(?s)<think>.*?</think>`)
	prefixRE = regexp.MustCompile(`(?i)^\s*(?:final\s+answer|answer|a)\s*[:：]\s*`)
)

// ParseAnswer turns a model's raw reply into an answer:
//   - <think>…</think> blocks and ``` fence lines are dropped;
//   - the text after the last "Answer:" or "Final answer:" label is taken
//     when there is one, else the first non-empty line;
//   - markdown emphasis, surrounding quotes and final punctuation are
//     trimmed and white space folded;
//   - the result is an abstention when IsAbstention says so (ABSTAIN as the
//     first word, one of abstainWords as the whole answer, one of
//     abstainPhrases anywhere, or an empty reply).
func ParseAnswer(raw string) esr.Answer {
	s := CleanReply(raw)
	if IsAbstention(s) {
		return esr.Abstain
	}
	return esr.Says(s)
}

// CleanReply applies the text steps of ParseAnswer without the abstention
// decision.
func CleanReply(raw string) string {
	s := thinkRE.ReplaceAllString(raw, " ")
	if i := strings.Index(s, "</think>"); i >= 0 { // an opening tag lost to truncation
		s = s[i+len("</think>"):]
	}
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || t == "" {
			continue
		}
		lines = append(lines, t)
	}
	pick := ""
	for _, l := range lines {
		if loc := prefixRE.FindStringIndex(l); loc != nil {
			pick = l[loc[1]:]
		}
	}
	if pick == "" && len(lines) > 0 {
		pick = lines[0]
		if loc := prefixRE.FindStringIndex(pick); loc != nil {
			pick = pick[loc[1]:]
		}
	}
	pick = strings.Join(strings.Fields(pick), " ")
	pick = strings.Trim(pick, "*_ ")
	pick = strings.TrimFunc(pick, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("\"'`“”‘’", r)
	})
	pick = strings.TrimRight(pick, ".;,! ")
	return pick
}

// IsAbstention reports whether a cleaned answer declines to answer (see
// ParseAnswer).
func IsAbstention(s string) bool {
	t := strings.TrimSpace(s)
	if t == "" {
		return true
	}
	if f := strings.Fields(t); len(f) > 0 && strings.HasPrefix(strings.Trim(f[0], ".,:;!*\"'()[]"), "ABSTAIN") {
		return true
	}
	low := strings.ToLower(t)
	whole := strings.Join(strings.Fields(strings.TrimFunc(low, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsPunct(r) && r != '/'
	})), " ")
	for _, w := range abstainWords {
		if whole == w {
			return true
		}
	}
	if strings.HasPrefix(whole, "abstain") {
		return true
	}
	low = strings.ReplaceAll(low, "’", "'")
	for _, p := range abstainPhrases {
		if strings.Contains(low, p) {
			return true
		}
	}
	return false
}
