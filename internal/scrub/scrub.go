// Package scrub privacy-minimises an ESR benchmark before release, following
// the paper's Ethics Statement: it drops actor fields and verbatim spans and
// replaces personal data and credentials in every text field with typed
// placeholders.
//
// What it does, field by field:
//   - Actor fields (events and atoms) are removed (or, with
//     Options.Pseudonymize, replaced by per-stream pseudonyms "actor-1", ...,
//     which keeps "same / different source" for the rule scorer).
//   - Verbatim spans: event meta fields that hold raw source text are
//     removed. A meta key is verbatim when, lower-cased, it is one of raw,
//     raw_text, body_raw, body_html, quote, quoted, quoted_text, verbatim,
//     original_text, source_text, or starts with "raw_" or ends with "_raw",
//     "_verbatim" or "_quote".
//   - Text fields (stream title and labels; event text and string meta
//     values; atom entity, attribute and value; QA question, gold answer,
//     aliases, rationale, entity and attribute) get, in this order:
//     e-mail addresses → <EMAIL>; API keys and tokens (sk-…, ghp_/gho_/ghu_/
//     ghs_/ghr_…, github_pat_…, hf_…, xox?-…, AKIA…, AIza…, GitLab's glpat-/
//     gldt-/glrt-/glptt-…, Stripe's sk_live_/rk_live_/sk_test_…, npm_…,
//     Docker Hub's dckr_pat_/dckr_oat_…, Twilio's SK + 32 hex digits, JWTs,
//     hex runs of 32+ characters, base64-like runs of 40+ characters mixing
//     upper case, lower case and digits) → <TOKEN>; IPv6 and IPv4 addresses → <IP>;
//     personal URL paths (the user segment of github.com/USER profile and
//     gist links, /home/USER, /Users/USER, C:\Users\USER) → <URL_PATH>;
//     @handles → <HANDLE>; and bare contributor names (every single-word
//     actor name and every @-mentioned handle seen in the benchmark,
//     case-insensitive, whole words; so an assignee value "maria-g" goes
//     when "@maria-g" was mentioned anywhere) → <HANDLE>.
//
// Repository URLs (github.com/OWNER/REPO/...) are kept: they are the source
// URLs that make the release retraceable. Scrubbing is deterministic and
// idempotent; Scan finds what a second pass would still replace.
package scrub

import (
	"net"
	"regexp"
	"sort"
	"strings"
)

// Kinds of replacement, the keys of Counts.
const (
	KindActor    = "actor_field"
	KindVerbatim = "verbatim_field"
	KindEmail    = "email"
	KindToken    = "token"
	KindIP       = "ip"
	KindURLPath  = "url_path"
	KindHandle   = "handle"
	KindName     = "name"
)

// Kinds lists every kind in report order.
var Kinds = []string{KindActor, KindVerbatim, KindEmail, KindToken, KindIP, KindURLPath, KindHandle, KindName}

// Placeholders written in place of each kind of text span.
const (
	Email   = "<EMAIL>"
	Token   = "<TOKEN>"
	IP      = "<IP>"
	URLPath = "<URL_PATH>"
	Handle  = "<HANDLE>"
)

// Counts is the number of replacements (or, from Scan, findings) per kind.
type Counts map[string]int

// Total is the sum over kinds.
func (c Counts) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// Add adds d into c.
func (c Counts) Add(d Counts) {
	for k, v := range d {
		c[k] += v
	}
}

var (
	emailRe = regexp.MustCompile(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}`)
	tokenRe = regexp.MustCompile(`\bsk-(?:proj-|ant-)?[A-Za-z0-9_\-]{16,}|\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}` +
		`|\bhf_[A-Za-z0-9]{20,}|\bxox[abprs]-[A-Za-z0-9\-]{10,}|\bAKIA[0-9A-Z]{16}\b|\bAIza[0-9A-Za-z_\-]{35}` +
		`|\beyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}|\b[0-9a-fA-F]{32,}\b` +
		// GitLab (personal, deploy, runner, trigger; the routable format's
		// dotted tail too), Stripe secret and restricted keys, npm, Docker
		// Hub, Twilio API key SIDs.
		`|\bgl(?:pat|dt|rt|ptt)-[A-Za-z0-9_\-]{20,}(?:\.[A-Za-z0-9_\-]+)*|\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}` +
		`|\bnpm_[A-Za-z0-9]{36}\b|\bdckr_(?:pat|oat)_[A-Za-z0-9_\-]{20,}|\bSK[0-9a-fA-F]{32}\b`)
	b64Re    = regexp.MustCompile(`[A-Za-z0-9+/]{40,}={0,2}`)
	ipv6Re   = regexp.MustCompile(`(?i)[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}`)
	ipv4Re   = regexp.MustCompile(`\b(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\b`)
	ghUserRe = regexp.MustCompile(`(?i)\b((?:https?://)?(?:www\.)?(gist\.)?github\.com/)([A-Za-z0-9][A-Za-z0-9\-]{0,38})(/[A-Za-z0-9._\-]+)?`)
	homeRe   = regexp.MustCompile(`(/home/|/Users/|\b[A-Za-z]:\\Users\\)([^/\\\s<>"'` + "`" + `]+)`)
	handleRe = regexp.MustCompile(`(^|[^A-Za-z0-9_.@/<\\])@([A-Za-z0-9][A-Za-z0-9\-]{0,38})`)
)

// githubReserved are first path segments of github.com that are not users.
var githubReserved = map[string]bool{
	"orgs": true, "settings": true, "features": true, "marketplace": true, "topics": true, "about": true,
	"pricing": true, "login": true, "apps": true, "search": true, "explore": true, "notifications": true,
	"enterprise": true, "issues": true, "pulls": true, "collections": true, "trending": true, "security": true,
	"site": true, "contact": true, "join": true, "new": true,
}

// Scrubber replaces personal data in text. Names are the contributor names
// to replace as bare words.
type Scrubber struct {
	nameRe *regexp.Regexp
}

// New makes a scrubber that also replaces the given contributor names (only
// single-word names of at least three characters are used).
func New(names []string) *Scrubber {
	var keep []string
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		l := strings.ToLower(n)
		if len(n) < 3 || strings.ContainsAny(n, " \t\n") || seen[l] || strings.HasPrefix(n, "<") {
			continue
		}
		seen[l] = true
		keep = append(keep, regexp.QuoteMeta(n))
	}
	s := &Scrubber{}
	if len(keep) > 0 {
		// Longest first, so a name that extends another wins.
		sort.Slice(keep, func(i, j int) bool {
			if len(keep[i]) != len(keep[j]) {
				return len(keep[i]) > len(keep[j])
			}
			return keep[i] < keep[j]
		})
		s.nameRe = regexp.MustCompile(`(?i)(^|[^A-Za-z0-9_\-.@<])(` + strings.Join(keep, "|") + `)($|[^A-Za-z0-9_\-@>])`)
	}
	return s
}

// Text returns t with every span replaced, adding the replacements to c
// (which may be nil).
func (s *Scrubber) Text(t string, c Counts) string {
	if c == nil {
		c = Counts{}
	}
	t = replaceAll(emailRe, t, func(m []int) (string, bool) { return Email, true }, c, KindEmail)
	t = replaceAll(tokenRe, t, func(m []int) (string, bool) { return Token, true }, c, KindToken)
	t = replaceAll(b64Re, t, func(m []int) (string, bool) { return Token, looksBase64(t[m[0]:m[1]]) }, c, KindToken)
	t = replaceAll(ipv6Re, t, func(m []int) (string, bool) { return IP, isIPv6(t, m[0], m[1]) }, c, KindIP)
	t = replaceAll(ipv4Re, t, func(m []int) (string, bool) { return IP, isIPv4(t, m[0], m[1]) }, c, KindIP)
	t = replaceAll(ghUserRe, t, func(m []int) (string, bool) {
		user := t[m[6]:m[7]]
		gist := m[4] >= 0
		if user == URLPath[1:len(URLPath)-1] || !gist && (m[8] >= 0 || githubReserved[strings.ToLower(user)]) {
			return "", false // a repository URL (kept as a source URL) or a site page
		}
		return t[m[2]:m[3]] + URLPath + t[m[3]+len(user):m[1]], true
	}, c, KindURLPath)
	t = replaceAll(homeRe, t, func(m []int) (string, bool) { return t[m[2]:m[3]] + URLPath, true }, c, KindURLPath)
	t = replaceAll(handleRe, t, func(m []int) (string, bool) { return t[m[2]:m[3]] + Handle, true }, c, KindHandle)
	if s != nil && s.nameRe != nil {
		// Names can be adjacent ("alice bob"): repeat until stable.
		for {
			n := c[KindName]
			t = replaceAll(s.nameRe, t, func(m []int) (string, bool) {
				return t[m[2]:m[3]] + Handle + t[m[6]:m[7]], true
			}, c, KindName)
			if c[KindName] == n {
				break
			}
		}
	}
	return t
}

// replaceAll replaces each match of re in t for which f says so, counting
// replacements under kind. f gets the submatch indices (into t).
func replaceAll(re *regexp.Regexp, t string, f func(m []int) (string, bool), c Counts, kind string) string {
	ms := re.FindAllStringSubmatchIndex(t, -1)
	if len(ms) == 0 {
		return t
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		rep, ok := f(m)
		if !ok {
			continue
		}
		b.WriteString(t[last:m[0]])
		b.WriteString(rep)
		last = m[1]
		c[kind]++
	}
	if last == 0 {
		return t
	}
	b.WriteString(t[last:])
	return b.String()
}

func looksBase64(s string) bool {
	var up, low, dig bool
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			up = true
		case c >= 'a' && c <= 'z':
			low = true
		case c >= '0' && c <= '9':
			dig = true
		}
	}
	return up && low && dig && !strings.Contains(s, "//")
}

func wordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// isIPv6 accepts a candidate that parses as an IPv6 address, is not glued to
// surrounding word characters (so "std::vector" stays) and has at least two
// hexadecimal groups.
func isIPv6(t string, i, j int) bool {
	cand := t[i:j]
	if i > 0 && (wordByte(t[i-1]) || t[i-1] == ':' || t[i-1] == '.') || j < len(t) && (wordByte(t[j]) || t[j] == ':') {
		return false
	}
	groups := 0
	for _, g := range strings.Split(cand, ":") {
		if g != "" {
			groups++
		}
	}
	ip := net.ParseIP(cand)
	return groups >= 2 && ip != nil && strings.Contains(cand, ":")
}

// isIPv4 rejects dotted numbers that are part of a longer dotted run or a
// version string ("v1.2.3.4").
func isIPv4(t string, i, j int) bool {
	if i > 0 && (t[i-1] == '.' || t[i-1] == 'v' || t[i-1] == 'V') {
		return false
	}
	if j+1 < len(t) && t[j] == '.' && t[j+1] >= '0' && t[j+1] <= '9' {
		return false
	}
	return true
}

// Find counts what Text would replace in t (names excluded), without
// changing anything.
func Find(t string) Counts {
	c := Counts{}
	(*Scrubber)(nil).Text(t, c)
	return c
}
