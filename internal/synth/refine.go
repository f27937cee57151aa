package synth

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
)

// RefineKind names how a refinement narrows the value it refines. Gold
// (relations.jsonl, the relation-type QA) says REFINES for every kind; the
// kind is recorded in the rationale of the key's QAs ("… → 30.4 s (refines,
// precise-number)", see RefinementKind) so results can be split by it.
type RefineKind string

// Refinement kinds. Only RefineQualifier writes a superstring of the refined
// value, the one shape the spec's §8 mining rule (and the rule scorer's
// containment cue) detects; the generator keeps it to at most a third of the
// refinements (TestRefinementKinds).
const (
	RefinePreciseNumber   RefineKind = "precise-number"   // "30 s" → "30.4 s", "4.3 million" → "4,312,586"
	RefineNarrowerPlace   RefineKind = "narrower-place"   // "the Tarn Coast" → "Port Jorra", a city in it
	RefineNarrowerVersion RefineKind = "narrower-version" // "downgrade to 2.x" → "downgrade to 2.3.1"
	RefineNarrowerTerm    RefineKind = "narrower-term"    // renamed but narrower: label "bug" → "regression"
	RefineQualifier       RefineKind = "qualifier"        // "30 s" → "30 s on slow networks" (a superstring)
)

// RefineKinds lists the kinds in the order tables show them.
var RefineKinds = []RefineKind{RefinePreciseNumber, RefineNarrowerPlace, RefineNarrowerVersion, RefineNarrowerTerm, RefineQualifier}

// refiner is one way an attribute's values can be narrowed.
type refiner struct {
	kind   RefineKind
	weight int // relative draw weight among the attribute's refiners
	// broad lists the values this refiner can narrow, in random order; nil
	// means the key's own pool. A refines stream's refined value is drawn
	// from it.
	broad func(r *rand.Rand) []string
	// narrow lists narrower restatements of v (none when v has none).
	narrow func(r *rand.Rand, v string) []string
}

// fits reports whether w is a refinement of v of the refiner's kind: a
// qualifier contains v and is at least 4 characters longer (spec §8); every
// other kind neither contains v nor is contained in it.
func (f *refiner) fits(v, w string) bool {
	nv, nw := esr.NormalizeValue(v), esr.NormalizeValue(w)
	if nv == "" || nw == "" || nv == nw {
		return false
	}
	if f.kind == RefineQualifier {
		return strings.Contains(nw, nv) && len(nw) >= len(nv)+4
	}
	return !strings.Contains(nw, nv) && !strings.Contains(nv, nw)
}

// qualified are refiners that append one of suffixes to the value.
func qualified(weight int, suffixes ...string) refiner {
	return refiner{kind: RefineQualifier, weight: weight, narrow: func(_ *rand.Rand, v string) []string {
		out := make([]string, len(suffixes))
		for i, s := range suffixes {
			out[i] = v + s
		}
		return out
	}}
}

// prefixed are refiners that put one of prefixes before the value.
func prefixed(weight int, prefixes ...string) refiner {
	return refiner{kind: RefineQualifier, weight: weight, narrow: func(_ *rand.Rand, v string) []string {
		var out []string
		for _, p := range prefixes {
			if !strings.Contains(v, strings.TrimSpace(p)) {
				out = append(out, p+v)
			}
		}
		return out
	}}
}

// mapped is a refiner of the given kind over a fixed table: the broad values
// are the table's keys, each narrowed to one of its entries.
func mapped(kind RefineKind, weight int, table map[string][]string) refiner {
	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	sort.Strings(keys) // map order is random; the draw must not be
	return refiner{kind: kind, weight: weight,
		broad:  func(r *rand.Rand) []string { return shuffled(r, keys) },
		narrow: func(_ *rand.Rand, v string) []string { return table[v] }}
}

// finer writes a number with one more decimal that still rounds to it:
// n·10^−scale ± d·10^−(scale+1), d = 1…4 (e.g. 30 → 29.7, 30.3).
func finer(n, scale int) []string {
	var out []string
	unit := 10
	for d := 1; d <= 4; d++ {
		for _, x := range []int{n*unit - d, n*unit + d} {
			if x > 0 {
				out = append(out, decimal(x, scale+1))
			}
		}
	}
	return out
}

// decimal writes x·10^−scale with scale decimals ("3041", 1 → "304.1").
func decimal(x, scale int) string {
	p := 1
	for i := 0; i < scale; i++ {
		p *= 10
	}
	return fmt.Sprintf("%d.%0*d", x/p, scale, x%p)
}

// preciseDuration narrows "30 s" to "30.3 s" and the like.
var preciseDuration = refiner{kind: RefinePreciseNumber, weight: 3, narrow: func(_ *rand.Rand, v string) []string {
	n, ok := leadingInt(v)
	if !ok || v != fmt.Sprintf("%d s", n) {
		return nil
	}
	out := finer(n, 0)
	for i := range out {
		out[i] += " s"
	}
	return out
}}

// precisePopulation narrows "4.3 million" to "4.31 million" or to a head
// count such as "4,312,586" that rounds to it.
var precisePopulation = refiner{kind: RefinePreciseNumber, weight: 3, narrow: func(r *rand.Rand, v string) []string {
	whole, frac, ok := strings.Cut(strings.TrimSuffix(v, " million"), ".")
	if !ok || len(frac) != 1 || !strings.HasSuffix(v, " million") {
		return nil
	}
	w, ok1 := leadingInt(whole)
	f, ok2 := leadingInt(frac)
	if !ok1 || !ok2 {
		return nil
	}
	tenths := w*10 + f
	var out []string
	for _, s := range finer(tenths, 1) {
		out = append(out, s+" million")
	}
	for i := 0; i < 3; i++ {
		d := 1 + r.IntN(49998) // never 0: "4,300,000" is only another way to write 4.3 million
		if r.IntN(2) == 0 {
			d = -d
		}
		if n := tenths*100000 + d; n > 0 {
			out = append(out, commas(n))
		}
	}
	return out
}}

// preciseArea narrows "12,345 km2" to "12,345.3 km2" and the like.
var preciseArea = refiner{kind: RefinePreciseNumber, weight: 1, narrow: func(_ *rand.Rand, v string) []string {
	num, ok := strings.CutSuffix(v, " km2")
	if !ok {
		return nil
	}
	n, ok := leadingInt(strings.ReplaceAll(num, ",", ""))
	if !ok || commas(n) != num {
		return nil
	}
	out := finer(n, 0)
	for i, s := range out {
		whole, frac, _ := strings.Cut(s, ".")
		w, _ := leadingInt(whole)
		out[i] = commas(w) + "." + frac + " km2"
	}
	return out
}}

// preciseGDP narrows "$520 billion" to "$520.3 billion" and the like.
var preciseGDP = refiner{kind: RefinePreciseNumber, weight: 1, narrow: func(_ *rand.Rand, v string) []string {
	n, ok := leadingInt(strings.TrimPrefix(v, "$"))
	if !ok || v != fmt.Sprintf("$%d billion", n) {
		return nil
	}
	out := finer(n, 0)
	for i := range out {
		out[i] = "$" + out[i] + " billion"
	}
	return out
}}

// Invented regions, each narrowed to a city in it (the cities are invented
// too; gold says the city lies in the region).
var regionNames = []string{"the Tarn Coast", "the Eastern Marches", "Upper Dorn", "the Kessa Valley",
	"the Halvar Lowlands", "the Iron Hills", "the Selmar Delta", "the Northern Reach"}

var narrowerPlace = refiner{kind: RefineNarrowerPlace, weight: 3,
	broad: func(r *rand.Rand) []string { return shuffled(r, regionNames) },
	narrow: func(r *rand.Rand, _ string) []string {
		return []string{cityName(r), cityName(r), cityName(r)}
	}}

// Narrower versions of workarounds and reproduction conditions.
var workaroundVersions = mapped(RefineNarrowerVersion, 2, map[string][]string{
	"downgrade to 2.x":         {"downgrade to 2.3.1", "downgrade to 2.2.4"},
	"pin urllib3<2":            {"pin urllib3==1.26.18", "pin urllib3==1.26.15"},
	"use a newer fsspec":       {"use fsspec 2024.3.1", "use fsspec 2023.12.2"},
	"use Python 3.11 or older": {"use Python 3.10.12", "use Python 3.11.8"},
})

var workaroundTerms = mapped(RefineNarrowerTerm, 2, map[string][]string{
	"clear the cache directory":       {"delete the datasets lock files", "remove the stale download shards"},
	"raise the file descriptor limit": {"ulimit -n 65536", "set LimitNOFILE=65536 in the unit file"},
	"disable multiprocessing":         {"run the loader with num_workers=0"},
	"use the legacy resolver":         {"pass --use-deprecated=legacy-resolver"},
	"use the spawn start method":      {"call set_start_method('spawn') before the pool starts"},
})

var conditionTerms = mapped(RefineNarrowerTerm, 2, map[string][]string{
	"on macOS arm64":           {"on an M2 MacBook Air", "on Apple M1 machines"},
	"inside Docker":            {"in an Alpine-based image", "in a rootless container on Fedora"},
	"behind a corporate proxy": {"behind a Zscaler proxy with TLS inspection"},
	"on NFS mounts":            {"on NFSv3 mounts with root squash"},
	"with a cold cache":        {"right after clearing the download cache"},
	"on Windows":               {"on a Windows Server 2019 runner", "with a mapped network drive on Windows 11"},
})

var conditionVersions = mapped(RefineNarrowerVersion, 1, map[string][]string{
	"with Python 3.12 or newer": {"with Python 3.13.1", "with Python 3.12.4"},
	"with CUDA 12.x":            {"with CUDA 12.4", "with CUDA 12.1.1"},
	"with an old setuptools":    {"with setuptools 58.0.4"},
	"on glibc older than 2.28":  {"on glibc 2.17 (CentOS 7)"},
})

var conditionNumbers = mapped(RefinePreciseNumber, 1, map[string][]string{
	"with files over 2 GB": {"with a 2.7 GB file", "with a 3.4 GB archive"},
	"under high load":      {"at about 500 requests per second", "with 64 concurrent clients"},
})

var blockerTerms = mapped(RefineNarrowerTerm, 4, map[string][]string{
	"upstream fix in fsspec":     {"fsspec PR #1523 awaiting a release"},
	"waiting on CI runners":      {"waiting on the macOS arm64 runner pool"},
	"pending maintainer review":  {"pending review from the storage maintainers"},
	"missing test fixture":       {"no fixture for multi-gigabyte uploads"},
	"flaky integration test":     {"test_resume_upload times out intermittently"},
	"release freeze":             {"the 2.5 code freeze"},
	"dependency license check":   {"license review of the pyarrow wheel"},
	"design decision on the API": {"decision on the retry callback signature"},
})

// labelTerms renames a label to a narrower one (the label set is then that
// one label).
var labelTerms = mapped(RefineNarrowerTerm, 4, map[string][]string{
	"bug":           {"regression", "crash", "data-loss"},
	"performance":   {"memory-leak", "slow-startup"},
	"documentation": {"docs-typo", "missing-docstring"},
	"enhancement":   {"api-addition", "new-cli-flag"},
	"question":      {"how-to", "install-help"},
})

var validityTerms = mapped(RefineNarrowerTerm, 4, map[string][]string{
	"confirmed":        {"reproduced by a maintainer", "reproduced in CI"},
	"invalid":          {"user error", "misconfigured environment"},
	"cannot reproduce": {"not reproducible on a clean install"},
	"duplicate":        {"same root cause as the resume bug"},
})

var positionTerms = mapped(RefineNarrowerTerm, 4, map[string][]string{
	"defender":   {"centre-back", "full-back", "wing-back"},
	"midfielder": {"playmaker", "regista"},
	"forward":    {"striker", "false nine"},
	"goalkeeper": {"sweeper-keeper"},
})

// RefinementKind is the kind of refinement recorded in q's rationale
// ("… (refines, KIND)"), or "" when q's key was never refined.
func RefinementKind(q *esr.QA) RefineKind {
	const mark = " (refines, "
	i := strings.LastIndex(q.Rationale, mark)
	if i < 0 {
		return ""
	}
	rest := q.Rationale[i+len(mark):]
	j := strings.IndexByte(rest, ')')
	if j < 0 {
		return ""
	}
	return RefineKind(rest[:j])
}

// drawRefinement picks the refiner (by weight, the others in order as
// fallbacks) and a value pair (v, w) it fits, both compatible with every
// value the key used; it marks both used.
func (k *keyPlan) drawRefinement(r *rand.Rand) (RefineKind, string, string, error) {
	fs := k.a.refiners
	total := 0
	for _, f := range fs {
		total += f.weight
	}
	if total == 0 {
		return "", "", "", fmt.Errorf("synth: attribute %s has no refinements", k.a.name)
	}
	x, first := r.IntN(total), 0
	for ; x >= fs[first].weight; first++ {
		x -= fs[first].weight
	}
	order := []int{first}
	for i := range fs {
		if i != first {
			order = append(order, i)
		}
	}
	for _, i := range order {
		f := &fs[i]
		cands := k.pool
		if f.broad != nil {
			cands = f.broad(r)
		}
		for _, v := range cands {
			if !k.compatible(v) {
				continue
			}
			for _, w := range shuffled(r, f.narrow(r, v)) {
				if !f.fits(v, w) || !k.compatibleWith(w, v) {
					continue
				}
				k.used = append(k.used, v, w)
				return f.kind, v, w, nil
			}
		}
	}
	return "", "", "", fmt.Errorf("synth: attribute %s: no refinement fits the values left", k.a.name)
}

// compatibleWith reports whether w neither equals, contains nor is contained
// in any used value other than except.
func (k *keyPlan) compatibleWith(w, except string) bool {
	nw := esr.NormalizeValue(w)
	for _, u := range k.used {
		if u == except {
			continue
		}
		nu := esr.NormalizeValue(u)
		if nu == nw || strings.Contains(nu, nw) || strings.Contains(nw, nu) {
			return false
		}
	}
	return true
}
