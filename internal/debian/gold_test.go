package debian_test

import (
	"bufio"
	"fmt"
	"net/mail"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/internal/debian"
)

// The vendored sample: raw files of a few packages of data/debian, as
// scripts/build-debian.sh fetched them.
const (
	sampleRaw  = "testdata/raw"
	sampleList = "testdata/packages.txt"
)

// An independent reader of deb-changelog(5), written for this test from the
// manual page and dpkg's Dpkg::Changelog::Entry::Debian regular expressions
// rather than from the builder's line parser: headers and trailers by regexp,
// dates by net/mail.
var (
	reHeader  = regexp.MustCompile(`^(\w[-+0-9a-z.]*) \(([^() \t]+)\)((?:\s+[-+0-9A-Za-z.]+)+);\s*(.*?)\s*$`)
	reTrailer = regexp.MustCompile(`^ -- (.*?) <([^>]*)>( ?)\s*(.+?)\s*$`)
	reUrgency = regexp.MustCompile(`(?i)(?:^|,)\s*urgency=([A-Za-z]+)`)
)

type rawEntry struct {
	pkg, version, dist, urgency, name string
	when                              time.Time
	headerLine, trailerLine           int
	header, trailer                   string
}

// readRaw reads every entry of a changelog with the regexps above, stopping
// where the benchmark's documented window stops: the first entry of another
// package, the first dated before 2020, or after 70 entries.
func readRaw(t *testing.T, path, pkg string) []rawEntry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cutoff := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []rawEntry
	var cur *rawEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := reHeader.FindStringSubmatch(line); m != nil && cur == nil {
			u := reUrgency.FindStringSubmatch(m[4])
			if u == nil {
				t.Fatalf("%s:%d: no urgency in %q", path, n, line)
			}
			cur = &rawEntry{pkg: m[1], version: m[2], dist: strings.Join(strings.Fields(m[3]), " "),
				urgency: strings.ToLower(u[1]), headerLine: n, header: line}
			continue
		}
		if m := reTrailer.FindStringSubmatch(line); m != nil && cur != nil {
			when, err := mail.ParseDate(m[4])
			if err != nil {
				t.Fatalf("%s:%d: date %q: %v", path, n, m[4], err)
			}
			cur.name, cur.when, cur.trailerLine, cur.trailer = strings.TrimSpace(m[1]), when.UTC(), n, line
			if cur.pkg != pkg || cur.when.Before(cutoff) || len(out) == 70 {
				return out
			}
			out = append(out, *cur)
			cur = nil
		}
	}
	return out
}

// timeOrder is the entries oldest first: by date, ties in the file's
// bottom-to-top order (an insertion sort, so plainly stable).
func timeOrder(es []rawEntry) []rawEntry {
	var out []rawEntry
	for i := len(es) - 1; i >= 0; i-- {
		e := es[i]
		k := len(out)
		for k > 0 && e.when.Before(out[k-1].when) {
			k--
		}
		out = append(out[:k], append([]rawEntry{e}, out[k:]...)...)
	}
	return out
}

func field(e rawEntry, attr string) string {
	return map[string]string{"uploader": e.name, "distribution": e.dist, "urgency": e.urgency, "version": e.version}[attr]
}

// revertedRevert is spec §8's rule by brute force: i < j < k with
// v_j ≠ v_i and v_k = v_i.
func revertedRevert(v []string) bool {
	for i := range v {
		for j := i + 1; j < len(v); j++ {
			for k := j + 1; k < len(v); k++ {
				if v[j] != v[i] && v[k] == v[i] {
					return true
				}
			}
		}
	}
	return false
}

// expectedQA is one question the sample must hold, with its gold.
type expectedQA struct {
	gold, phenomenon      string
	support, deprecated   []string
	entity, attr, facet   string
	queryType             esr.QueryType
	sawInBuild, isFaceted bool
}

// TestGoldFromRawSample re-derives, from the vendored raw changelogs alone,
// every question the builder asks about the sample and every gold field:
// the answer, the supporting and deprecated events, the stratum; and checks
// that each event is the entry's text as written and each atom's value is
// its header's or trailer's. No question is missing and none is extra.
func TestGoldFromRawSample(t *testing.T) {
	list, err := debian.ReadList(sampleList)
	if err != nil {
		t.Fatal(err)
	}
	res, err := debian.Build(sampleRaw, list)
	if err != nil {
		t.Fatal(err)
	}
	b := res.Bench
	want := map[string]*expectedQA{}
	streams := 0
	for _, pkg := range list {
		raw, err := os.ReadFile(filepath.Join(sampleRaw, pkg, "changelog"))
		if err != nil {
			t.Fatal(err)
		}
		es := timeOrder(readRaw(t, filepath.Join(sampleRaw, pkg, "changelog"), pkg))
		sid := "debian-" + pkg
		s := b.Stream(sid)
		if len(es) == 0 {
			if s != nil {
				t.Errorf("%s: a stream, but no entry is in the window", pkg)
			}
			continue
		}
		streams++
		if s == nil {
			t.Fatalf("%s: no stream", pkg)
		}
		if len(s.Events) != len(es) {
			t.Fatalf("%s: %d events, the raw file has %d entries in the window", pkg, len(s.Events), len(es))
		}
		lines := strings.Split(string(raw), "\n")
		for i, e := range es {
			ev := s.Events[i]
			text := strings.Join(lines[e.headerLine-1:e.trailerLine], "\n")
			if ev.Text != text {
				t.Errorf("%s %s: event text is not the entry as written:\n%q\nwant\n%q", pkg, ev.ID, ev.Text, text)
			}
			if !ev.Timestamp.Equal(e.when) || ev.ActorName() != e.name {
				t.Errorf("%s %s: at %v by %q, want %v by %q", pkg, ev.ID, ev.Timestamp, ev.ActorName(), e.when, e.name)
			}
		}
		for _, a := range b.Atoms[sid] {
			e := es[a.EventIndex]
			if a.Value != field(e, a.Attribute) || a.Entity != pkg {
				t.Errorf("%s: atom %s = %q about %q, the raw entry says %q", pkg, a.ID, a.Value, a.Entity, field(e, a.Attribute))
			}
			if f := "distribution=" + e.dist; (a.Attribute == "version") != (a.Facet == f) {
				t.Errorf("%s: atom %s facet %q (entry's distribution %q)", pkg, a.ID, a.Facet, e.dist)
			}
		}
		// Keys: three plain, and a version per distribution.
		type key struct{ attr, dist string }
		keys := []key{{"uploader", ""}, {"distribution", ""}, {"urgency", ""}}
		seen := map[string]bool{}
		for _, e := range es {
			if !seen[e.dist] {
				seen[e.dist] = true
				keys = append(keys, key{"version", e.dist})
			}
		}
		for _, k := range keys {
			var vals, ids []string
			for i, e := range es {
				if k.dist == "" || e.dist == k.dist {
					vals = append(vals, field(e, k.attr))
					ids = append(ids, fmt.Sprintf("e%d", i+1))
				}
			}
			n := len(vals)
			cur := vals[n-1]
			from := n - 1
			for from > 0 && vals[from-1] == cur {
				from--
			}
			var deprecated []string
			for i, v := range vals {
				if v != cur {
					deprecated = append(deprecated, ids[i])
				}
			}
			phen := "monotonic"
			if revertedRevert(vals) {
				phen = "reverted_revert"
			}
			short, facet := k.attr, ""
			if k.dist != "" {
				short, facet = k.attr+"-"+strings.ReplaceAll(k.dist, " ", "+"), "distribution="+k.dist
			}
			base := sid + "-" + short + "-"
			mk := func(qt esr.QueryType, gold string, sup []string) *expectedQA {
				return &expectedQA{gold: gold, phenomenon: phen, support: sup, deprecated: deprecated, entity: pkg,
					attr: k.attr, facet: facet, queryType: qt}
			}
			want[base+"snap"] = mk(esr.Snapshot, cur, ids[from:])
			if from == 0 {
				continue
			}
			prior := vals[from-1]
			pfrom := from - 1
			for pfrom > 0 && vals[pfrom-1] == prior {
				pfrom--
			}
			want[base+"prov"] = mk(esr.Provenance, prior, ids[pfrom:from])
			want[base+"rel"] = mk(esr.RelationType, "replaces", ids[from:])
		}
	}
	if len(b.Streams) != streams {
		t.Errorf("%d streams, want %d", len(b.Streams), streams)
	}
	for _, q := range b.QAs {
		w := want[q.QID]
		if w == nil {
			t.Errorf("%s: a question the raw changelogs do not call for", q.QID)
			continue
		}
		w.sawInBuild = true
		if q.GoldAnswer != w.gold || string(q.Phenomenon) != w.phenomenon || q.Type() != w.queryType ||
			q.Entity != w.entity || q.Attribute != w.attr || q.Facet != w.facet ||
			!equal(q.GoldSupportingEventIDs, w.support) || !equal(q.GoldDeprecatedEventIDs, w.deprecated) {
			t.Errorf("%s: built %q %s %s/%s[%s] support %v deprecated %v;\n  raw gives %q %s %s/%s[%s] support %v deprecated %v",
				q.QID, q.GoldAnswer, q.Phenomenon, q.Entity, q.Attribute, q.Facet, q.GoldSupportingEventIDs, q.GoldDeprecatedEventIDs,
				w.gold, w.phenomenon, w.entity, w.attr, w.facet, w.support, w.deprecated)
		}
	}
	var missing []string
	for id, w := range want {
		if !w.sawInBuild {
			missing = append(missing, id)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("questions the raw changelogs call for but the build lacks: %v", missing)
	}
	// The sample covers what the checks are for.
	rr, faceted := 0, 0
	for _, q := range b.QAs {
		if q.Phenomenon == esr.RevertedRevert {
			rr++
		}
		if q.Facet != "" {
			faceted++
		}
	}
	if rr < 10 || faceted < 10 || len(res.Exclusions) != 1 {
		t.Errorf("sample: %d reverted-revert and %d faceted questions, %d excluded packages; want ≥ 10, ≥ 10, 1", rr, faceted, len(res.Exclusions))
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
