package scrub

import (
	"fmt"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr/bench"
)

// Options configure Bench.
type Options struct {
	// Pseudonymize replaces actor fields with per-stream pseudonyms
	// ("actor-1", "actor-2", … in order of first appearance) instead of
	// dropping them.
	Pseudonymize bool
}

// verbatimKey reports whether an event meta key holds verbatim source text
// (see the package documentation).
func verbatimKey(k string) bool {
	k = strings.ToLower(k)
	switch k {
	case "raw", "raw_text", "body_raw", "body_html", "quote", "quoted", "quoted_text", "verbatim", "original_text", "source_text":
		return true
	}
	return strings.HasPrefix(k, "raw_") || strings.HasSuffix(k, "_raw") || strings.HasSuffix(k, "_verbatim") || strings.HasSuffix(k, "_quote")
}

// ActorNames lists the distinct actor names of a benchmark's events and
// atoms, sorted.
func ActorNames(b *bench.Bench) []string {
	seen := map[string]bool{}
	for _, s := range b.Streams {
		for i := range s.Events {
			if n := s.Events[i].ActorName(); n != "" {
				seen[n] = true
			}
		}
		for i := range b.Atoms[s.ID] {
			if n := b.Atoms[s.ID][i].ActorName(); n != "" {
				seen[n] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// MentionedHandles lists the distinct @handles mentioned in a benchmark's
// event texts, without the @, sorted: a handle mentioned once is a user name
// wherever else it appears (an assignee value, a path, a sentence).
func MentionedHandles(b *bench.Bench) []string {
	seen := map[string]bool{}
	for _, s := range b.Streams {
		for i := range s.Events {
			for _, m := range handleRe.FindAllStringSubmatch(emailRe.ReplaceAllString(s.Events[i].Text, Email), -1) {
				seen[m[2]] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Bench scrubs b in place and returns the replacement counts per kind. The
// bare names it replaces are the actor names and the @-mentioned handles.
func Bench(b *bench.Bench, opt Options) Counts {
	c := Counts{}
	sc := New(append(ActorNames(b), MentionedHandles(b)...))
	text := func(t string) string { return sc.Text(t, c) }
	for _, s := range b.Streams {
		pseudo := map[string]*string{}
		actor := func(a **string) {
			if *a == nil {
				return
			}
			c[KindActor]++
			if !opt.Pseudonymize {
				*a = nil
				return
			}
			p := pseudo[**a]
			if p == nil {
				v := fmt.Sprintf("actor-%d", len(pseudo)+1)
				p = &v
				pseudo[**a] = p
			}
			*a = p
		}
		s.Title = text(s.Title)
		for i := range s.CurrentLabels {
			s.CurrentLabels[i] = text(s.CurrentLabels[i])
		}
		for i := range s.Events {
			e := &s.Events[i]
			actor(&e.Actor)
			e.Text = text(e.Text)
			for k, v := range e.Meta {
				if verbatimKey(k) {
					delete(e.Meta, k)
					c[KindVerbatim]++
					continue
				}
				e.Meta[k] = scrubValue(v, text)
			}
		}
		atoms := b.Atoms[s.ID]
		for i := range atoms {
			a := &atoms[i]
			actor(&a.Actor)
			a.Entity, a.Attribute, a.Value = text(a.Entity), text(a.Attribute), text(a.Value)
		}
	}
	for i := range b.QAs {
		q := &b.QAs[i]
		q.Question, q.Rationale = text(q.Question), text(q.Rationale)
		if !q.GoldAbstain() {
			q.GoldAnswer = text(q.GoldAnswer)
		}
		q.Entity, q.Attribute = text(q.Entity), text(q.Attribute)
		for j := range q.Aliases {
			q.Aliases[j] = text(q.Aliases[j])
		}
	}
	return c
}

// scrubValue scrubs the strings inside a JSON-like meta value.
func scrubValue(v any, text func(string) string) any {
	switch x := v.(type) {
	case string:
		return text(x)
	case []any:
		for i := range x {
			x[i] = scrubValue(x[i], text)
		}
		return x
	case map[string]any:
		for k, e := range x {
			x[k] = scrubValue(e, text)
		}
		return x
	}
	return v
}

// Scan counts what a further scrub would still find in b: actor fields,
// verbatim meta fields and every kind of text span (names excluded: after a
// scrub there are no actor names left to look for).
func Scan(b *bench.Bench) Counts {
	c := Counts{}
	find := func(t string) { c.Add(Find(t)) }
	for _, s := range b.Streams {
		find(s.Title)
		for _, l := range s.CurrentLabels {
			find(l)
		}
		for i := range s.Events {
			e := &s.Events[i]
			if e.Actor != nil && !strings.HasPrefix(*e.Actor, "actor-") {
				c[KindActor]++
			}
			find(e.Text)
			for k, v := range e.Meta {
				if verbatimKey(k) {
					c[KindVerbatim]++
				}
				scrubValue(deepCopy(v), func(t string) string { find(t); return t })
			}
		}
		for _, a := range b.Atoms[s.ID] {
			if a.Actor != nil && !strings.HasPrefix(*a.Actor, "actor-") {
				c[KindActor]++
			}
			find(a.Entity)
			find(a.Attribute)
			find(a.Value)
		}
	}
	for _, q := range b.QAs {
		for _, t := range append([]string{q.Question, q.Rationale, q.GoldAnswer, q.Entity, q.Attribute}, q.Aliases...) {
			find(t)
		}
	}
	for k, v := range c {
		if v == 0 {
			delete(c, k)
		}
	}
	return c
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = deepCopy(x[i])
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	}
	return v
}

// Report is what `esr scrub` prints: replacements per kind, then what a
// second pass over the output still finds (it should be empty).
type Report struct {
	Replaced Counts `json:"replaced"`
	Residual Counts `json:"residual"`
	Streams  int    `json:"streams"`
	QAs      int    `json:"qas"`
}

// Dir scrubs the benchmark in src into out (LICENSE and PROVENANCE.md are
// copied when present) and checks the output with a second pass.
func Dir(src, out string, opt Options) (*Report, error) {
	b, err := bench.Load(src)
	if err != nil {
		return nil, err
	}
	rep := &Report{Replaced: Bench(b, opt), Streams: len(b.Streams), QAs: len(b.QAs)}
	for _, k := range Kinds {
		if _, ok := rep.Replaced[k]; !ok {
			rep.Replaced[k] = 0
		}
	}
	// The scrubbed files and the copied documents are one set: a failure
	// leaves out as it was.
	if err := bench.WriteFolder(out, func(tmp string) error {
		if err := b.WriteFiles(tmp); err != nil {
			return err
		}
		return copyDocs(src, tmp)
	}); err != nil {
		return nil, err
	}
	again, err := bench.Load(out)
	if err != nil {
		return nil, fmt.Errorf("scrubbed output does not load: %w", err)
	}
	rep.Residual = Scan(again)
	return rep, nil
}
