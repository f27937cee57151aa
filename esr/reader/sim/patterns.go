package sim

import (
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/esrkit/esrkit/esr"
)

// words lowercases s and splits it on everything but letters and digits, so
// "request_timeout" gives "request", "timeout".
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// stopWords are question words that say nothing about which key is asked.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "what": true, "which": true, "who": true, "whom": true,
	"is": true, "was": true, "are": true, "were": true, "be": true, "been": true, "being": true,
	"of": true, "for": true, "in": true, "on": true, "at": true, "to": true, "by": true, "with": true,
	"from": true, "currently": true, "current": true, "now": true, "force": true,
	"value": true, "values": true, "immediately": true, "before": true, "one": true, "did": true,
	"does": true, "do": true, "last": true, "change": true, "refine": true, "refines": true,
	"replace": true, "replaces": true, "prior": true, "previous": true, "previously": true,
	"it": true, "its": true, "this": true, "that": true, "or": true, "and": true, "as": true,
	"has": true, "have": true, "had": true, "how": true, "there": true, "any": true, "latest": true,
	"state": true,
}

// contentWords are the question's words minus stop words, as a set.
// The sets are memoised (wordSets) and shared: callers only read them.
func contentWords(s string) map[string]bool {
	if memoWords {
		if m, ok := wordSets.Load(s); ok {
			return m.(map[string]bool)
		}
	}
	out := map[string]bool{}
	for _, w := range words(s) {
		if !stopWords[w] {
			out[w] = true
		}
	}
	if memoWords {
		if wordSetsN.Add(1) > wordSetsMax {
			wordSets.Clear()
			wordSetsN.Store(0)
		}
		wordSets.Store(s, out)
	}
	return out
}

// wordSets memoises contentWords: a run reads the same questions and key
// labels through every memory and family (a deployed suite splits each
// question's words about 75 times), and splitting them was a seventh of
// its CPU (BenchmarkReadSuiteRenders). It is emptied past wordSetsMax
// strings, so a long session's memory stays bounded.
var (
	wordSets  sync.Map // string → map[string]bool, read-only
	wordSetsN atomic.Int64
	memoWords = true // false only in the benchmark's baseline
)

const wordSetsMax = 1 << 16

// keyScore is how many of a key label's words the question mentions, and
// which share of the label that is.
func keyScore(label string, q map[string]bool) (int, float64) {
	ws := contentWords(label)
	if len(ws) == 0 {
		return 0, 0
	}
	n := 0
	for w := range ws {
		if q[w] {
			n++
		}
	}
	return n, float64(n) / float64(len(ws))
}

// valuePattern is how a reader recognises an attribute's values in
// unmarked event text.
type valuePattern struct {
	name  string
	hints []string // attribute words that select the pattern ("a b": both words)
	re    *regexp.Regexp
	// context, when set, must match the line for the pattern to apply
	// (words like "high" or "@someone" are values only in some sentences).
	context *regexp.Regexp
}

const (
	timeUnits = `ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|weeks?`
	sizeUnits = `[kmgt]i?b|bytes?|kilobytes?|megabytes?|gigabytes?|terabytes?`
)

// valuePatterns are the value shapes the scripted reader can spot in raw
// text, selected by words of the attribute (from the question or the key
// label), first match wins. Attributes none of them fits (labels,
// workarounds, reproduction conditions, claims, names) have no pattern:
// their values are free text that only an extractor or a real model can pick
// out, and the reader abstains.
var valuePatterns = []valuePattern{
	{name: "duration", hints: []string{"timeout", "time", "duration", "delay", "interval", "latency", "ttl",
		"period", "age", "expiry", "expiration", "wait", "backoff", "retention"},
		re: regexp.MustCompile(`(?i)\b\d+(?:[.,]\d+)?\s?(?:` + timeUnits + `)\b`)},
	{name: "size", hints: []string{"size", "memory", "quota", "batch", "buffer", "capacity", "disk", "cache", "heap"},
		re: regexp.MustCompile(`(?i)\b\d+(?:[.,]\d+)?\s?(?:` + sizeUnits + `)\b`)},
	{name: "percent", hints: []string{"rate", "ratio", "percent", "percentage", "threshold", "share", "coverage"},
		re: regexp.MustCompile(`(?i)\b\d+(?:[.,]\d+)?\s?(?:%|percent)`)},
	{name: "version", hints: []string{"version", "release", "tag"},
		re: regexp.MustCompile(`(?i)\bv?\d+(?:\.\d+){1,3}(?:-[0-9a-z.]+)?\b`)},
	{name: "count", hints: []string{"count", "retries", "workers", "threads", "replicas", "port", "number", "max", "min"},
		re: regexp.MustCompile(`\b\d+\b`)},
	{name: "issue-status", hints: []string{"status", "issue state"},
		re: regexp.MustCompile(`(?i)\b(?:reopened|re-opened|open|opened|closed|resolved|fixed|merged|wontfix|won't fix|duplicate|stale)\b`)},
	{name: "severity", hints: []string{"severity", "priority"},
		re:      regexp.MustCompile(`(?i)\b(?:critical|blocker|high|medium|low|major|minor|trivial|p[0-4])\b`),
		context: regexp.MustCompile(`(?i)severity|priority|\bsev\b`)},
	{name: "owner", hints: []string{"owner", "assignee", "assigned", "maintainer"},
		re:      regexp.MustCompile(`@[A-Za-z0-9][A-Za-z0-9-]*`),
		context: regexp.MustCompile(`(?i)assign|owner|handing|hand over|handed|look(?:ing)? into|taking (?:this|it)|take (?:this|it)|on it`)},
	{name: "date", hints: []string{"date", "deadline", "since", "until", "released", "eol"},
		re: regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)},
}

// patternFor picks the value pattern for an attribute described by the
// given words (first match in valuePatterns order), or nil.
func patternFor(attrWords map[string]bool) *valuePattern {
	for i := range valuePatterns {
	hints:
		for _, h := range valuePatterns[i].hints {
			for _, w := range words(h) {
				if !attrWords[w] {
					continue hints
				}
			}
			return &valuePatterns[i]
		}
	}
	return nil
}

// staleCue marks a value mention as the old value of a change ("from 30 s
// to 60 s", "instead of 30 s", "previously 30 s").
var staleCue = regexp.MustCompile(`(?i)(?:\bfrom|\binstead of|\bpreviously|\bformerly|\bwas|\bno longer|\breplacing|\breplaces|\breplaced|\breplace|\bnot)\s*$`)

// newCue marks a value mention as the new value ("back to 30 s", "now
// medium", "with medium", "should be 15 s", "= 30 s").
var newCue = regexp.MustCompile(`(?i)(?:\bto|\bnow|\bwith|\bbe|\bbecomes|\bis|=|:)\s*$`)

// cueWindow bounds the bytes a cue can span: the longest cue word with
// (?i)'s long s, and the character before it for \b.
const cueWindow = 32

// cueBefore reports whether cue (one of the cue patterns above, ending in
// \s*$) matches prefix, the text before a mention. It matches only the
// last cueWindow bytes before the trailing white space: a cue ends where
// that space begins, so the rest of a long changelog entry cannot change
// the answer, and scanning it for every mention took most of a sim
// reader's time on data/debian (TestCueBeforeMatchesWholePrefix).
func cueBefore(cue *regexp.Regexp, prefix string) bool {
	q := strings.TrimRight(prefix, " \t\n\f\r") // RE2's \s
	i := max(0, len(q)-cueWindow)
	for i > 0 && !utf8.RuneStart(q[i]) {
		i--
	}
	return cue.MatchString(q[i:])
}

// mention is one value found in a line of text.
type mention struct {
	value string
	at    int
}

// findValues picks the value a line of event text states for the key: known
// values (seen for the key elsewhere in the render) matched as whole words,
// case-insensitively, plus the pattern's matches (when its context, if any,
// is in the line); mentions right after a stale cue ("from", "instead of",
// "previously", "replaced", "not", ...) are dropped; of several different
// values left, those right after a new-value cue ("to", "now", "with", "is",
// "=") are preferred, and the last one is kept ("X → Y"). ok is false when
// the line states none.
func findValues(text string, known []string, pat *valuePattern) (string, bool) {
	var ms []mention
	low := strings.ToLower(text)
	for _, k := range known {
		kl := strings.ToLower(k)
		if kl == "" {
			continue
		}
		for from := 0; ; {
			i := strings.Index(low[from:], kl)
			if i < 0 {
				break
			}
			at := from + i
			end := at + len(kl)
			if boundary(low, at-1) && boundary(low, end) {
				ms = append(ms, mention{value: text[at:end], at: at})
			}
			from = at + 1
		}
	}
	if pat != nil && (pat.context == nil || pat.context.MatchString(text)) {
		for _, loc := range pat.re.FindAllStringIndex(text, -1) {
			ms = append(ms, mention{value: text[loc[0]:loc[1]], at: loc[0]})
		}
	}
	if len(ms) == 0 {
		return "", false
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].at < ms[j].at })
	var kept []mention
	for _, m := range ms {
		if cueBefore(staleCue, text[:m.at]) {
			continue
		}
		kept = append(kept, m)
	}
	if len(kept) == 0 {
		return "", false
	}
	var cued []mention
	for _, m := range kept {
		if cueBefore(newCue, text[:m.at]) {
			cued = append(cued, m)
		}
	}
	if len(cued) > 0 {
		kept = cued
	}
	return kept[len(kept)-1].value, true
}

// boundary reports whether position i of s is outside a word (or outside s).
func boundary(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return true
	}
	c := s[i]
	return !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80)
}

// sameValue compares values as the ledger does (esr.NormalizeValue).
func sameValue(a, b string) bool { return esr.NormalizeValue(a) == esr.NormalizeValue(b) }
