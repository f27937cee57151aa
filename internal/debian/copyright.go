package debian

import (
	"regexp"
	"sort"
	"strings"
)

// Licence is what a package's copyright file says about its licences.
type Licence struct {
	// MachineReadable: the file follows the copyright format 1.0 (DEP-5),
	// so the fields below are its License fields' short names.
	MachineReadable bool `json:"machine_readable"`
	// Main is the licence of the "Files: *" paragraph; Debian the licence
	// of the paragraph whose Files name debian/* (the changelog's own
	// licence when stated), or "" when there is none.
	Main   string `json:"main,omitempty"`
	Debian string `json:"debian,omitempty"`
	// All is every License short name of the file, sorted.
	All []string `json:"all,omitempty"`
	// Mentions, for a free-form file, names the licences its text mentions
	// by a fixed list of phrases (mentionPatterns): what the text names,
	// not a licence analysis.
	Mentions []string `json:"mentions,omitempty"`
}

// Summary is the licence in one short phrase for a table.
func (l Licence) Summary() string {
	switch {
	case l.MachineReadable && l.Main != "":
		return l.Main
	case l.MachineReadable:
		return strings.Join(l.All, "; ")
	case len(l.Mentions) > 0:
		return "free-form; mentions " + strings.Join(l.Mentions, ", ")
	}
	return "free-form; names no licence from the list"
}

// mentionPatterns are the phrases a free-form copyright file is searched
// for, with the short name (SPDX-like) a match records.
var mentionPatterns = []struct {
	name string
	re   *regexp.Regexp
}{
	{"AGPL", regexp.MustCompile(`(?i)GNU Affero General Public License`)},
	{"LGPL", regexp.MustCompile(`(?i)GNU (Lesser|Library) General Public License|\bLGPL`)},
	{"GPL", regexp.MustCompile(`(?i)GNU General Public License|/usr/share/common-licenses/GPL`)},
	{"GFDL", regexp.MustCompile(`(?i)GNU Free Documentation License|/usr/share/common-licenses/GFDL`)},
	{"Apache", regexp.MustCompile(`(?i)Apache License`)},
	{"Artistic", regexp.MustCompile(`(?i)Artistic License|/usr/share/common-licenses/Artistic`)},
	{"BSD", regexp.MustCompile(`(?i)\bBSD\b|Redistribution and use in source and binary forms`)},
	{"MIT/X11", regexp.MustCompile(`(?i)\bMIT\b|Permission is hereby granted, free of charge`)},
	{"ISC", regexp.MustCompile(`(?i)\bISC\b|Permission to use, copy, modify, and(/or)? distribute this software for any purpose`)},
	{"MPL", regexp.MustCompile(`(?i)Mozilla Public License`)},
	{"public-domain", regexp.MustCompile(`(?i)public domain`)},
}

// ParseCopyright reads a debian/copyright file's licences.
func ParseCopyright(text string) Licence {
	var l Licence
	paras := paragraphs(text)
	if len(paras) > 0 {
		f := paras[0]["format"]
		l.MachineReadable = strings.Contains(f, "copyright-format") || paras[0]["format-specification"] != ""
	}
	if !l.MachineReadable {
		for _, m := range mentionPatterns {
			if m.re.MatchString(text) {
				l.Mentions = append(l.Mentions, m.name)
			}
		}
		return l
	}
	all := map[string]bool{}
	for _, p := range paras {
		lic := firstLine(p["license"])
		if lic == "" {
			continue
		}
		all[lic] = true
		files := strings.Fields(p["files"])
		for _, f := range files {
			switch {
			case f == "*" && l.Main == "":
				l.Main = lic
			case (f == "debian/*" || f == "debian/") && l.Debian == "":
				l.Debian = lic
			}
		}
	}
	for k := range all {
		l.All = append(l.All, k)
	}
	sort.Strings(l.All)
	return l
}

// paragraphs splits deb822 text into paragraphs of lower-cased field names
// to values (continuation lines joined with "\n").
func paragraphs(text string) []map[string]string {
	var out []map[string]string
	var cur map[string]string
	last := ""
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r", ""), "\n") {
		if strings.TrimSpace(line) == "" {
			if cur != nil {
				out = append(out, cur)
			}
			cur, last = nil, ""
			continue
		}
		if cur == nil {
			cur = map[string]string{}
		}
		if line[0] == ' ' || line[0] == '\t' {
			if last != "" {
				cur[last] += "\n" + strings.TrimSpace(line)
			}
			continue
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		last = strings.ToLower(strings.TrimSpace(k))
		cur[last] = strings.TrimSpace(v)
	}
	if cur != nil {
		out = append(out, cur)
	}
	return out
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return strings.Join(strings.Fields(l), " ")
}
