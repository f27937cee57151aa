package llm

import (
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// redacted is the placeholder that replaces a secret in text.
const redacted = "[REDACTED]"

// minSecret is the shortest query value replaced wherever it appears in
// text: a shorter one ("1", "json") would garble messages, and is only
// redacted inside URLs.
const minSecret = 8

// redact removes from s (an error or a log line) the API key, the base
// URL's password and query values, and the query values of any URL in it.
func (c *Client) redact(s string) string { return redactAll(s, c.secrets) }

// redactAnswer removes from an answer the API key and the base URL's
// password and query values (a proxy may echo the request), leaving the
// other URLs in it as they are.
func (c *Client) redactAnswer(s string) string { return redactKeys(s, c.secrets) }

// urlSecrets are the secrets a base URL carries: the password of its user
// info and its query values (as written and decoded) of at least minSecret
// bytes, api-version's aside (public, and a date that answers hold).
func urlSecrets(u *url.URL) []string {
	var out []string
	if pw, ok := u.User.Password(); ok && pw != "" {
		out = append(out, pw)
	}
	for _, item := range strings.FieldsFunc(u.RawQuery, func(r rune) bool { return r == '&' || r == ';' }) {
		name, v, _ := strings.Cut(item, "=")
		if strings.EqualFold(name, "api-version") {
			continue
		}
		dv, err := url.QueryUnescape(v)
		if err != nil {
			dv = v
		}
		for _, s := range []string{v, dv} {
			if len(s) >= minSecret {
				out = append(out, s)
			}
		}
	}
	return out
}

// redactKeys removes every key from s, as written or JSON-escaped in
// whole or in part (a server that echoes a request as JSON may write
// "sk-…" as "\u0073\u006b…"), longest first so that no key leaves a tail
// of a longer one that it is a prefix of, and the password of any URL in s
// ("https://user:pw@host").
func redactKeys(s string, keys []string) string {
	ks := append([]string(nil), keys...)
	sort.SliceStable(ks, func(i, j int) bool { return len(ks[i]) > len(ks[j]) })
	for _, k := range ks {
		if k != "" {
			s = strings.ReplaceAll(s, k, redacted)
			if strings.IndexByte(s, '\\') >= 0 {
				s = jsonEscapedKey(k).ReplaceAllLiteralString(s, redacted)
			}
		}
	}
	for _, f := range strings.Fields(s) {
		i := strings.Index(f, "://")
		at := strings.IndexByte(f, '@')
		if i < 0 || at < i {
			continue
		}
		if colon := strings.IndexByte(f[i+3:at], ':'); colon >= 0 {
			s = strings.ReplaceAll(s, f[i+3+colon+1:at], redacted)
		}
	}
	return s
}

// escapedKeys caches jsonEscapedKey's patterns, by key.
var escapedKeys sync.Map

// jsonEscapedKey matches key as a JSON string may hold it: each character
// as it is or as \uXXXX (hex digits in either case; a character beyond
// the Basic Multilingual Plane as its surrogate pair), "/" also as "\/",
// and '"' and "\" as their two-character escapes.
func jsonEscapedKey(key string) *regexp.Regexp {
	if re, ok := escapedKeys.Load(key); ok {
		return re.(*regexp.Regexp)
	}
	var b strings.Builder
	for _, r := range key {
		alts := []string{regexp.QuoteMeta(string(r))}
		switch r {
		case '/':
			alts = append(alts, `\\/`)
		case '"':
			alts = append(alts, `\\"`)
		case '\\':
			alts = append(alts, `\\\\`)
		}
		if r < 0x10000 {
			alts = append(alts, `\\u`+hexEitherCase(fmt.Sprintf("%04x", r)))
		} else if r <= utf8.MaxRune {
			r -= 0x10000
			alts = append(alts, `\\u`+hexEitherCase(fmt.Sprintf("%04x", 0xd800+(r>>10)))+`\\u`+hexEitherCase(fmt.Sprintf("%04x", 0xdc00+(r&0x3ff))))
		}
		b.WriteString("(?:" + strings.Join(alts, "|") + ")")
	}
	re := regexp.MustCompile(b.String())
	escapedKeys.Store(key, re)
	return re
}

// hexEitherCase is a pattern matching the hex digits h in either case.
func hexEitherCase(h string) string {
	var b strings.Builder
	for _, c := range h {
		if c >= 'a' && c <= 'f' {
			b.WriteString("[" + string(c) + strings.ToUpper(string(c)) + "]")
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// redactAll is redactKeys, and the query values of every URL in s gone too:
// for errors and log lines, which may quote the URL a request went to.
func redactAll(s string, keys []string) string { return redactQueries(redactKeys(s, keys)) }

// redactQueries replaces the value of every query parameter of every URL
// in s ("…://host/p?api-key=K&x=1" → "…?api-key=[REDACTED]&x=[REDACTED]"):
// a gateway may take its key there.
func redactQueries(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "://")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + 3 + strings.IndexFunc(s[i+3:], func(r rune) bool {
			return r <= ' ' || strings.ContainsRune("\"'<>`", r)
		})
		if end < i+3 {
			end = len(s)
		}
		u := s[:end]
		if q := strings.IndexByte(u[i:], '?'); q >= 0 {
			q += i
			query, frag := u[q+1:], ""
			if h := strings.IndexByte(query, '#'); h >= 0 {
				query, frag = query[:h], query[h:]
			}
			items := strings.FieldsFunc(query, func(r rune) bool { return r == '&' || r == ';' })
			for k, item := range items {
				name, _, hasValue := strings.Cut(item, "=")
				if hasValue {
					items[k] = name + "=" + redacted
				} else {
					items[k] = redacted
				}
			}
			u = u[:q+1] + strings.Join(items, "&") + frag
		}
		b.WriteString(u)
		s = s[end:]
	}
}

// redactKey removes key from s, and any URL's password and query values: for
// callers that print errors or URLs that may carry them.
func redactKey(s, key string) string { return redactAll(s, []string{key}) }
