package debian

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/esrkit/esrkit/esr/bench"
)

// Entry is one entry of a debian/changelog (deb-changelog(5)): the header
// line, the change details and the trailer line, with the gold fields read
// from the header and the trailer only.
type Entry struct {
	// Package, Version and Distribution are the header's "PACKAGE (VERSION)
	// DISTRIBUTION(S);" (several distributions joined by one space).
	Package, Version, Distribution string
	// Urgency is the header's urgency keyword, lower-cased and without its
	// optional comment (Debian Policy §5.6.17: "not case-sensitive",
	// "followed by an optional commentary (separated by a space)").
	Urgency string
	// Name and Email are the trailer's " -- NAME <EMAIL>  DATE".
	Name, Email string
	// Date is the trailer's date as written; Time is it in UTC.
	Date string
	Time time.Time
	// Text is the whole entry as written, header to trailer.
	Text string
	// Line is the header's line number in the file (1-based).
	Line int
}

// ParseChangelog reads the entries of a debian/changelog from the top.
// After each entry it calls more; reading stops when more returns false (so
// a caller that wants only recent entries never parses the old ones). Blank
// lines, comment lines ("#", as dh_installchangelogs' trim note) and editor
// settings between entries are skipped; anything else between entries, an
// entry without a trailer, or a header, trailer or date that does not parse
// is an error naming the file, the line and the field (*bench.LineError).
func ParseChangelog(name string, r io.Reader, more func(Entry) bool) ([]Entry, error) {
	var (
		out  []Entry
		cur  *Entry
		text []string
	)
	bad := func(line int, field, format string, args ...any) error {
		return &bench.LineError{File: name, Line: line, Field: field, Err: fmt.Errorf(format, args...)}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if !utf8.ValidString(line) {
			return out, bad(n, "", "not UTF-8 (Debian Policy §4.4: changelogs are UTF-8)")
		}
		if cur == nil {
			switch {
			case strings.TrimSpace(line) == "", strings.HasPrefix(line, "#"), isEditorLine(line):
				continue
			case strings.HasPrefix(line, " -- "):
				return out, bad(n, "trailer", "a trailer with no entry above it")
			case startsHeader(line):
				e, err := parseHeader(line)
				if err != nil {
					return out, bad(n, err.field, "%v", err.err)
				}
				e.Line = n
				cur, text = &e, []string{line}
				continue
			default:
				return out, bad(n, "", "%q is neither an entry header nor a blank or comment line", clip(line))
			}
		}
		if strings.HasPrefix(line, " -- ") {
			if err := parseTrailer(line, cur); err != nil {
				return out, bad(n, err.field, "%v", err.err)
			}
			text = append(text, line)
			// The change details keep their inner blank lines; those
			// before the first detail are the header's spacing, kept too:
			// the entry is quoted as written.
			cur.Text = strings.Join(text, "\n")
			out = append(out, *cur)
			e := *cur
			cur, text = nil, nil
			if !more(e) {
				return out, nil
			}
			continue
		}
		if startsHeader(line) {
			if _, err := parseHeader(line); err == nil {
				return out, bad(cur.Line, "trailer", "the entry for %s %s has no trailer before the next header (line %d)", cur.Package, cur.Version, n)
			}
		}
		text = append(text, line)
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("%s: %w", name, err)
	}
	if cur != nil {
		return out, bad(cur.Line, "trailer", "the entry for %s %s has no trailer", cur.Package, cur.Version)
	}
	return out, nil
}

// fieldErr is a parse error of one header or trailer field.
type fieldErr struct {
	field string
	err   error
}

func ferr(field, format string, args ...any) *fieldErr {
	return &fieldErr{field, fmt.Errorf(format, args...)}
}

// startsHeader reports whether line starts like a header: a package name
// character in the first column.
func startsHeader(line string) bool {
	return line != "" && (line[0] >= 'a' && line[0] <= 'z' || line[0] >= '0' && line[0] <= '9')
}

// isEditorLine reports an Emacs or Vim settings line, which changelogs may
// end with (deb-changelog(5)).
func isEditorLine(line string) bool {
	l := strings.ToLower(strings.TrimSpace(line))
	for _, p := range []string{"local variables:", "mode:", "end:", "add-log-mailing-address:", "vim:", "# vim:"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// validPackage reports a Debian package name (Policy §5.6.1): lower-case
// letters, digits, '+', '-' and '.', starting with a letter or digit.
func validPackage(s string) bool {
	if len(s) < 2 || !startsHeader(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// parseHeader reads "PACKAGE (VERSION) DIST [DIST...]; KEY=VALUE[, KEY=VALUE]".
func parseHeader(line string) (Entry, *fieldErr) {
	var e Entry
	pkg, rest, ok := strings.Cut(line, " (")
	if !ok || !validPackage(pkg) {
		return e, ferr("package", "header %q does not start with \"PACKAGE (\"", clip(line))
	}
	ver, rest, ok := strings.Cut(rest, ")")
	if !ok || ver == "" || strings.ContainsAny(ver, " \t(") {
		return e, ferr("version", "header %q has no \"(VERSION)\"", clip(line))
	}
	dists, kws, ok := strings.Cut(rest, ";")
	if !ok {
		return e, ferr("distribution", "header %q has no ';' after the distribution", clip(line))
	}
	ds := strings.Fields(dists)
	if len(ds) == 0 {
		return e, ferr("distribution", "header %q names no distribution", clip(line))
	}
	e.Package, e.Version, e.Distribution = pkg, ver, strings.Join(ds, " ")
	for _, kv := range strings.Split(kws, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return e, ferr("keywords", "%q is not KEY=VALUE", strings.TrimSpace(kv))
		}
		if strings.EqualFold(k, "urgency") {
			w := strings.Fields(v)
			if len(w) == 0 {
				return e, ferr("urgency", "empty")
			}
			e.Urgency = strings.ToLower(w[0])
		}
	}
	if e.Urgency == "" {
		return e, ferr("urgency", "header %q has no urgency", clip(line))
	}
	return e, nil
}

// parseTrailer reads " -- NAME <EMAIL>  DATE" into e.
func parseTrailer(line string, e *Entry) *fieldErr {
	rest := line[len(" -- "):]
	lt := strings.Index(rest, "<")
	gt := strings.Index(rest, ">")
	if lt < 0 || gt < lt {
		return ferr("maintainer", "trailer %q has no \"NAME <EMAIL>\"", clip(line))
	}
	e.Name = strings.TrimSpace(rest[:lt])
	e.Email = strings.TrimSpace(rest[lt+1 : gt])
	if e.Name == "" {
		return ferr("maintainer", "trailer %q has no name", clip(line))
	}
	e.Date = strings.TrimSpace(rest[gt+1:])
	t, err := ParseDate(e.Date)
	if err != nil {
		return ferr("date", "%v", err)
	}
	e.Time = t
	return nil
}

// dateLayouts are the RFC 5322 forms changelog dates take: with and without
// the day of the week (Go checks the weekday's spelling, not its value).
var dateLayouts = []string{
	"Mon, 2 Jan 2006 15:04:05 -0700",
	"Mon 2 Jan 2006 15:04:05 -0700",
	"2 Jan 2006 15:04:05 -0700",
}

// ParseDate reads a changelog trailer's date ("Sat, 01 Jul 2023 10:05:19
// +0200", deb-changelog(5)) into UTC. Runs of spaces count as one and a
// trailing zone comment such as "(CEST)" is ignored.
func ParseDate(s string) (time.Time, error) {
	d := strings.Join(strings.Fields(s), " ")
	if i := strings.Index(d, " ("); i > 0 && strings.HasSuffix(d, ")") {
		d = d[:i]
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, d); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not an RFC 5322 date (\"Mon, 2 Jan 2006 15:04:05 -0700\")", s)
}

// clip shortens a line for an error message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
