package synth

import (
	"fmt"
	"math/rand/v2"
)

// Distractor attributes (Config.KeysPerStream): facts about the stream's
// own entities that no question asks about, as a real extractor finds them
// in issue threads (environment, versions, the error), revisions (language,
// calling code) and dated facts (industry, founding year). Every name and
// value is invented or generic.

func numberPool(lo, hi, n int, format string) func(*rand.Rand) []string {
	return func(r *rand.Rand) []string {
		seen := map[int]bool{}
		var out []string
		for len(out) < n {
			x := lo + r.IntN(hi-lo+1)
			if !seen[x] {
				seen[x] = true
				out = append(out, fmt.Sprintf(format, x))
			}
		}
		return out
	}
}

func inventedWords(stems, ends []string, n int) func(*rand.Rand) []string {
	return func(r *rand.Rand) []string {
		var out []string
		for tries := 0; len(out) < n && tries < 100; tries++ {
			out = dedupe(append(out, pick(r, stems)+pick(r, ends)))
		}
		return out
	}
}

var languageStems = []string{"Vel", "Kar", "Mir", "Tal", "Os", "Bren", "Ul", "Sar", "Dor", "Ast"}
var languageEnds = []string{"ish", "ese", "ic", "an", "i"}

var distractorInventory = map[entityKind][]*attr{
	entComponent: {
		{name: "gpu", phrase: "GPU", alt: "accelerator", ent: entComponent,
			pool: fixedPool("an RTX 4090", "an A100", "a T4", "no GPU", "an RTX 3060", "an H100")},
		{name: "data_format", phrase: "input format", alt: "format", ent: entComponent,
			pool: fixedPool("parquet", "CSV", "JSON lines", "Arrow IPC", "WebDataset tar shards")},
		{name: "cloud_provider", phrase: "storage provider", alt: "provider", ent: entComponent,
			pool: fixedPool("S3", "GCS", "Azure Blob", "a local NAS", "MinIO")},
		{name: "installed_version", phrase: "installed version", alt: "version", ent: entComponent,
			pool: fixedPool("2.4.1", "2.5.0", "2.3.2", "2.6.0.dev0", "2.4.0", "2.2.9")},
		{name: "install_method", phrase: "install method", alt: "installer", ent: entComponent,
			pool: fixedPool("pip", "conda", "a source checkout", "uv", "poetry")},
		{name: "storage_backend", phrase: "storage backend", alt: "backend", ent: entComponent,
			pool: fixedPool("pyarrow", "pandas", "polars", "duckdb", "sqlite")},
	},
	entIssue: {
		{name: "milestone", phrase: "milestone", alt: "target_release", ent: entIssue,
			pool: fixedPool("2.5", "2.6", "3.0", "backlog", "next patch release")},
		{name: "error_type", phrase: "error type", alt: "exception", ent: entIssue,
			pool: fixedPool("TimeoutError", "ConnectionResetError", "OSError", "KeyError", "MemoryError", "PermissionError")},
		{name: "linked_pull_request", phrase: "linked pull request", alt: "pr", ent: entIssue,
			pool: numberPool(1000, 9999, 6, "PR #%d")},
	},
	entPlace: {
		{name: "official_language", phrase: "official language", alt: "language", ent: entPlace,
			pool: inventedWords(languageStems, languageEnds, 6)},
		{name: "calling_code", phrase: "calling code", alt: "dialing_code", ent: entPlace,
			pool: numberPool(210, 998, 6, "+%d")},
		{name: "internet_tld", phrase: "internet domain", alt: "tld", ent: entPlace,
			pool: fixedPool(".vl", ".kq", ".mz", ".tq", ".oz", ".br")},
		{name: "driving_side", phrase: "driving side", alt: "drives_on", ent: entPlace,
			pool: fixedPool("left", "right")},
		{name: "hdi", phrase: "Human Development Index", alt: "hdi_score", ent: entPlace,
			pool: numberPool(600, 950, 6, "0.%d")},
	},
	entCountry: {
		{name: "official_language", phrase: "official language", alt: "language", ent: entCountry,
			pool: inventedWords(languageStems, languageEnds, 6)},
		{name: "calling_code", phrase: "calling code", alt: "dialing_code", ent: entCountry,
			pool: numberPool(210, 998, 6, "+%d")},
		{name: "driving_side", phrase: "driving side", alt: "drives_on", ent: entCountry,
			pool: fixedPool("left", "right")},
	},
	entCompany: {
		{name: "industry", phrase: "industry", alt: "sector", ent: entCompany,
			pool: fixedPool("logistics", "pharmaceuticals", "energy", "retail", "software", "shipbuilding")},
		{name: "founded", phrase: "founding year", alt: "established", ent: entCompany,
			pool: numberPool(1890, 2010, 5, "%d")},
		{name: "employees", phrase: "number of employees", alt: "staff", ent: entCompany,
			pool: numberPool(12, 980, 6, "%d00")},
	},
	entAthlete: {
		{name: "nationality", phrase: "nationality", alt: "country", ent: entAthlete,
			pool: func(r *rand.Rand) []string {
				var out []string
				for len(out) < 5 {
					out = dedupe(append(out, placeName(r)))
				}
				return out
			}},
		{name: "shirt_number", phrase: "shirt number", alt: "number", ent: entAthlete,
			pool: numberPool(1, 99, 6, "number %d")},
		{name: "preferred_foot", phrase: "preferred foot", alt: "foot", ent: entAthlete,
			pool: fixedPool("left", "right", "both")},
	},
	entOrg: {
		{name: "founded", phrase: "founding year", alt: "established", ent: entOrg,
			pool: numberPool(1920, 2005, 5, "%d")},
		{name: "member_states", phrase: "number of member states", alt: "members", ent: entOrg,
			pool: numberPool(8, 60, 6, "%d")},
		{name: "working_language", phrase: "working language", alt: "language", ent: entOrg,
			pool: inventedWords(languageStems, languageEnds, 6)},
	},
}

// distractorAttrs lists the distractor attributes of the stream's entities
// that none of its keys uses, in inventory order (no draw).
func (g *streamGen) distractorAttrs() []*attr {
	var kinds []entityKind
	switch g.src {
	case "github":
		kinds = []entityKind{entComponent, entIssue}
	case "wiki":
		kinds = []entityKind{entPlace}
	default:
		kinds = []entityKind{g.keys[0].a.ent}
	}
	used := map[esrKeyName]bool{}
	for _, k := range g.keys {
		used[esrKeyName{k.a.ent, k.a.name}] = true
	}
	var out []*attr
	for _, kind := range kinds {
		for _, a := range distractorInventory[kind] {
			if !used[esrKeyName{a.ent, a.name}] {
				out = append(out, a)
			}
		}
	}
	return out
}

type esrKeyName struct {
	ent  entityKind
	name string
}
