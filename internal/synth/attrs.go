package synth

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/esr"
)

// entityKind says what a key's entity is, so one stream's keys share it.
type entityKind int

const (
	entComponent entityKind = iota // a software component of a GitHub repo
	entIssue                       // the GitHub issue itself ("issue #123")
	entPlace                       // a Wikipedia article about a country
	entCompany                     // DyKnow-style subjects
	entCountry
	entAthlete
	entOrg
)

// attr is one attribute of an inventory: how its values look, how the text
// may paraphrase them, whether a narrower restatement (a refinement) exists,
// and which strata it can carry as a stream's main key.
type attr struct {
	name   string
	phrase string // how prose names it
	alt    string // the wrong attribute name the co-key noise writes
	ent    entityKind
	// pool returns distinct candidate values in random order.
	pool func(r *rand.Rand) []string
	// refiners are the ways a value can be narrowed (refine.go); none
	// when the attribute has no refinements.
	refiners []refiner
	// surfaces lists paraphrases of v that the prose may use (the atom keeps
	// the canonical value).
	surfaces func(v string) []string
	// mainFor lists the strata it can be a main key for.
	mainFor []esr.Phenomenon
	// special selects attribute-specific prose (see templates.go).
	special string
}

var (
	allStrata = []esr.Phenomenon{esr.Monotonic, esr.RevertedRevert, esr.CrossSourceConflict, esr.Refinement}
	rr        = esr.RevertedRevert
	csc       = esr.CrossSourceConflict
	ref       = esr.Refinement
	mono      = esr.Monotonic
)

func shuffled(r *rand.Rand, xs []string) []string {
	out := append([]string(nil), xs...)
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

func fixedPool(xs ...string) func(*rand.Rand) []string {
	return func(r *rand.Rand) []string { return shuffled(r, xs) }
}

// Durations: canonical "30 s"; prose may say "30 seconds", "30s", "half a minute".
var durationWords = map[int][]string{
	15: {"fifteen seconds"}, 30: {"half a minute", "thirty seconds"}, 60: {"one minute", "a minute"},
	90: {"a minute and a half"}, 120: {"two minutes"}, 180: {"three minutes"}, 300: {"five minutes"},
}

func durationPool(r *rand.Rand) []string {
	var out []string
	for _, n := range []int{10, 15, 20, 30, 45, 60, 90, 120, 180, 300} {
		out = append(out, fmt.Sprintf("%d s", n))
	}
	return shuffled(r, out)
}

func leadingInt(v string) (int, bool) {
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	n, err := strconv.Atoi(v[:i])
	return n, err == nil
}

func durationSurfaces(v string) []string {
	num, ok := strings.CutSuffix(v, " s")
	if !ok || !isNumber(num) {
		return nil
	}
	out := []string{num + " seconds", num + "s", num + " sec"}
	if n, err := strconv.Atoi(num); err == nil {
		out = append(out, durationWords[n]...)
	}
	return out
}

// isNumber reports a plain decimal number: digits with at most one inner
// point ("30", "30.4").
func isNumber(s string) bool {
	whole, frac, dot := strings.Cut(s, ".")
	digits := func(x string) bool {
		for i := 0; i < len(x); i++ {
			if x[i] < '0' || x[i] > '9' {
				return false
			}
		}
		return x != ""
	}
	return digits(whole) && (!dot || digits(frac))
}

func sizePool(r *rand.Rand) []string {
	var out []string
	for _, n := range []int{16, 32, 64, 128, 256, 512} {
		out = append(out, fmt.Sprintf("%d MB", n))
	}
	return shuffled(r, out)
}

func sizeSurfaces(v string) []string {
	n, ok := leadingInt(v)
	if !ok || !strings.HasSuffix(v, " MB") || strings.Count(v, " ") != 1 {
		return nil
	}
	return []string{fmt.Sprintf("%dMB", n), fmt.Sprintf("%d megabytes", n)}
}

// Populations: canonical "4.3 million"; prose may write "4,300,000".
func populationPool(r *rand.Rand) []string {
	base := 8 + r.IntN(600) // tenths of a million
	seen := map[int]bool{}
	var out []string
	for len(out) < 6 {
		d := base + r.IntN(41) - 20
		if d < 5 || seen[d] {
			continue
		}
		seen[d] = true
		out = append(out, fmt.Sprintf("%d.%d million", d/10, d%10))
	}
	return out
}

func populationSurfaces(v string) []string {
	num, ok := strings.CutSuffix(v, " million")
	if !ok {
		if n, err := strconv.Atoi(strings.ReplaceAll(v, ",", "")); err == nil && commas(n) == v {
			return []string{strconv.Itoa(n), v + " people"} // a head count
		}
		return nil
	}
	whole, frac, dot := strings.Cut(num, ".")
	w, err := strconv.Atoi(whole)
	if !dot || err != nil || len(frac) < 1 || len(frac) > 2 || !isNumber(frac) {
		return nil
	}
	f, _ := strconv.Atoi(frac)
	if len(frac) == 1 {
		f *= 10
	}
	n := w*100 + f // ten-thousands
	digits := fmt.Sprintf("%d,%03d,000", n/100, n%100*10)
	if n < 100 {
		digits = fmt.Sprintf("%d,000", n*10)
	}
	return []string{digits, "about " + v, "roughly " + v + " people"}
}

func areaPool(r *rand.Rand) []string {
	base := 5000 + r.IntN(400000)
	var out []string
	for i := 0; i < 5; i++ {
		n := base + r.IntN(3000) - 1500
		out = append(out, fmt.Sprintf("%s km2", commas(n)))
	}
	return dedupe(out)
}

func areaSurfaces(v string) []string {
	if !strings.HasSuffix(v, " km2") {
		return nil
	}
	n := strings.ReplaceAll(strings.TrimSuffix(v, " km2"), ",", "")
	return []string{n + " square kilometres", strings.TrimSuffix(v, " km2") + " km²"}
}

func gdpPool(r *rand.Rand) []string {
	base := 20 + r.IntN(900)
	var out []string
	for i := 0; i < 5; i++ {
		out = append(out, fmt.Sprintf("$%d billion", base+r.IntN(60)-30))
	}
	return dedupe(out)
}

func gdpSurfaces(v string) []string {
	if !strings.HasPrefix(v, "$") {
		return nil
	}
	return []string{"US" + v, strings.TrimPrefix(strings.TrimSuffix(v, " billion"), "$") + " billion dollars"}
}

func commas(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func namePool(r *rand.Rand) []string {
	var out []string
	for len(out) < 7 {
		out = append(out, personName(r))
	}
	return dedupe(out)
}

// nameSurfaces: prose may use the surname alone or an initial.
func nameSurfaces(v string) []string {
	f := strings.Fields(v)
	if len(f) != 2 {
		return nil
	}
	return []string{f[1], f[0][:1] + ". " + f[1]}
}

func handlePool(r *rand.Rand) []string {
	var out []string
	for len(out) < 7 {
		out = append(out, handle(r))
	}
	return dedupe(out)
}

func cityPool(r *rand.Rand) []string {
	var out []string
	for len(out) < 7 {
		out = append(out, cityName(r))
	}
	return dedupe(out)
}

func clubPool(r *rand.Rand) []string {
	var out []string
	for len(out) < 7 {
		out = append(out, clubName(r))
	}
	return dedupe(out)
}

var githubAttrs = []*attr{
	{name: "request_timeout", phrase: "request timeout", alt: "timeout", ent: entComponent,
		pool: durationPool, surfaces: durationSurfaces,
		refiners: []refiner{preciseDuration, qualified(1, " for uploads over 1 GB", " on slow networks", " per retry attempt", " for the first request")},
		mainFor:  allStrata},
	{name: "max_batch_size", phrase: "maximum batch size", alt: "batch_size", ent: entComponent,
		pool: sizePool, surfaces: sizeSurfaces, mainFor: []esr.Phenomenon{mono, rr, csc}},
	{name: "proposed_workaround", phrase: "workaround", alt: "workaround", ent: entComponent,
		pool: fixedPool("use --no-cache", "pin urllib3<2", "set OMP_NUM_THREADS=1", "downgrade to 2.3.1",
			"disable multiprocessing", "clear the cache directory", "use the legacy resolver", "set num_proc=1",
			"run with --offline", "raise the file descriptor limit", "use the pure-Python backend",
			"export NO_PROXY=localhost", "set keep_in_memory=True", "upgrade fsspec", "delete the lock file",
			"use the spawn start method"),
		refiners: []refiner{workaroundVersions, workaroundTerms,
			qualified(1, " on Linux", " on Windows", " inside Docker", " with Python 3.12", " in CI only", " until 2.5 ships", " for streaming mode")},
		mainFor: allStrata},
	{name: "reproduction_condition", phrase: "reproduction condition", alt: "repro_condition", ent: entComponent,
		pool: fixedPool("on Windows", "on macOS arm64", "with Python 3.12", "inside Docker", "with CUDA 12.1",
			"behind a corporate proxy", "with files over 2 GB", "on NFS mounts", "with a cold cache", "under high load"),
		refiners: []refiner{conditionTerms, conditionVersions, conditionNumbers,
			qualified(1, " with long paths disabled", " when offline", " after a cold start", " with the default config", " on the first run")},
		mainFor: allStrata},
	{name: "active_blocker", phrase: "blocker", alt: "blocker", ent: entComponent,
		pool: fixedPool("upstream fix in fsspec", "waiting on CI runners", "pending maintainer review", "missing test fixture",
			"dependency license check", "flaky integration test", "release freeze", "design decision on the API"),
		refiners: []refiner{blockerTerms, qualified(1, " for the 2.5 release", " on the Windows runners", " in the nightly build")},
		mainFor:  []esr.Phenomenon{mono, rr, ref}},
	{name: "assigned_owner", phrase: "assignee", alt: "owner", ent: entIssue,
		pool: handlePool, mainFor: []esr.Phenomenon{mono, rr}, special: "owner"},
	{name: "severity", phrase: "severity", alt: "priority", ent: entIssue,
		pool:    fixedPool("low", "medium", "high", "critical"),
		mainFor: []esr.Phenomenon{mono, rr, csc}},
	{name: "issue_status", phrase: "status", alt: "state", ent: entIssue,
		pool: fixedPool("open", "closed"), mainFor: []esr.Phenomenon{mono, rr}, special: "status"},
	{name: "issue_label_set", phrase: "labels", alt: "labels", ent: entIssue,
		pool:     fixedPool("bug", "enhancement", "question", "documentation", "performance", "regression"),
		refiners: []refiner{labelTerms, qualified(1, ", needs-triage", ", good first issue", ", windows")},
		mainFor:  []esr.Phenomenon{mono, rr, ref}, special: "labels"},
	{name: "claim_validity", phrase: "validity of the report", alt: "validity", ent: entIssue,
		pool:     fixedPool("confirmed", "cannot reproduce", "invalid", "duplicate"),
		refiners: []refiner{validityTerms, qualified(1, " on 2.4.1", " with the nightly build", " on the main branch")},
		mainFor:  []esr.Phenomenon{mono, csc, ref}},
}

var wikiAttrs = []*attr{
	{name: "population", phrase: "population", alt: "population_estimate", ent: entPlace,
		pool: populationPool, surfaces: populationSurfaces,
		refiners: []refiner{precisePopulation, qualified(1, " at the 2021 census", " per the 2022 estimate", " in the last census")},
		mainFor:  allStrata},
	{name: "capital", phrase: "capital", alt: "capital_city", ent: entPlace, pool: cityPool,
		mainFor: []esr.Phenomenon{mono, rr, csc}},
	{name: "head_of_state", phrase: "head of state", alt: "leader", ent: entPlace, pool: namePool,
		surfaces: nameSurfaces, mainFor: []esr.Phenomenon{mono, rr, csc}},
	{name: "head_of_government", phrase: "head of government", alt: "prime_minister", ent: entPlace, pool: namePool,
		surfaces: nameSurfaces, mainFor: []esr.Phenomenon{mono, rr, csc}},
	{name: "government_type", phrase: "form of government", alt: "government", ent: entPlace,
		pool:    fixedPool("parliamentary republic", "constitutional monarchy", "presidential system", "absolute monarchy", "directorial system"),
		mainFor: []esr.Phenomenon{mono, rr, csc}},
	{name: "currency", phrase: "currency", alt: "currency_name", ent: entPlace,
		pool:    fixedPool("mark", "crown", "dinar", "florin", "thaler", "peso", "lira"),
		mainFor: []esr.Phenomenon{mono, rr}},
	{name: "area", phrase: "total area", alt: "area_total", ent: entPlace, pool: areaPool, surfaces: areaSurfaces,
		refiners: []refiner{preciseArea}, mainFor: []esr.Phenomenon{mono, csc, ref}},
	{name: "gdp_nominal", phrase: "nominal GDP", alt: "gdp", ent: entPlace, pool: gdpPool, surfaces: gdpSurfaces,
		refiners: []refiner{preciseGDP}, mainFor: []esr.Phenomenon{mono, rr, csc, ref}},
	{name: "time_zone", phrase: "time zone", alt: "timezone", ent: entPlace,
		pool:     fixedPool("UTC+1", "UTC+2", "UTC-3", "UTC+5:30", "UTC+8", "UTC+10"),
		refiners: []refiner{qualified(1, " with daylight saving", " outside the islands", " on the mainland")},
		mainFor:  []esr.Phenomenon{mono, ref}},
	{name: "largest_city", phrase: "largest city", alt: "biggest_city", ent: entPlace, pool: cityPool,
		mainFor: []esr.Phenomenon{mono, rr, csc}},
}

var dyknowAttrs = []*attr{
	{name: "head_of_state", phrase: "head of state", alt: "leader", ent: entCountry, pool: namePool,
		surfaces: nameSurfaces, mainFor: []esr.Phenomenon{mono, rr, csc}},
	{name: "head_of_government", phrase: "head of government", alt: "prime_minister", ent: entCountry, pool: namePool,
		surfaces: nameSurfaces, mainFor: []esr.Phenomenon{mono, rr, csc}},
	{name: "capital", phrase: "capital", alt: "capital_city", ent: entCountry, pool: cityPool,
		mainFor: []esr.Phenomenon{mono}},
	{name: "chief_executive_officer", phrase: "chief executive officer", alt: "ceo", ent: entCompany, pool: namePool,
		surfaces: nameSurfaces, mainFor: []esr.Phenomenon{mono, rr, csc}},
	{name: "chairperson", phrase: "chairperson", alt: "chair", ent: entCompany, pool: namePool,
		surfaces: nameSurfaces, mainFor: []esr.Phenomenon{mono, rr, csc}},
	{name: "headquarters", phrase: "headquarters", alt: "hq_location", ent: entCompany, pool: cityPool,
		refiners: []refiner{narrowerPlace, qualified(1, ", North District", ", Harbour Quarter", " business park")},
		mainFor:  []esr.Phenomenon{mono, csc, ref}},
	{name: "team", phrase: "team", alt: "club", ent: entAthlete, pool: clubPool,
		mainFor: []esr.Phenomenon{mono, rr, csc}},
	{name: "position", phrase: "playing position", alt: "role", ent: entAthlete,
		pool:     fixedPool("forward", "midfielder", "defender", "goalkeeper", "winger"),
		refiners: []refiner{positionTerms, prefixed(1, "centre-", "defensive ", "attacking ", "left ", "right ")},
		mainFor:  []esr.Phenomenon{mono, rr, ref}},
	{name: "secretary_general", phrase: "secretary-general", alt: "head", ent: entOrg, pool: namePool,
		surfaces: nameSurfaces, mainFor: []esr.Phenomenon{mono, rr, csc}},
	{name: "president", phrase: "president", alt: "head", ent: entOrg, pool: namePool,
		surfaces: nameSurfaces, mainFor: []esr.Phenomenon{mono, rr, csc}},
}

// canRefine reports whether attribute a has refinements.
func (a *attr) canRefine() bool { return len(a.refiners) > 0 }

// mainOK reports whether a can be a main key for stratum p.
func (a *attr) mainOK(p esr.Phenomenon) bool {
	for _, q := range a.mainFor {
		if q == p {
			return p != esr.Refinement || a.canRefine()
		}
	}
	return false
}

// surfacesOf is the paraphrase list of v under a (nil when none).
func (a *attr) surfacesOf(v string) []string {
	if a.surfaces == nil {
		return nil
	}
	return a.surfaces(v)
}
