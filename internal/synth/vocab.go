package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Word pools. Every name here is invented: the benchmark must not reward a
// reader's parametric knowledge, and it must carry no real person's data.

var firstNames = []string{
	"Lena", "Marc", "Aiko", "Tomas", "Priya", "Kwame", "Ines", "Mateo", "Sofia", "Yusuf",
	"Hana", "Olek", "Nadia", "Ravi", "Elin", "Diego", "Amara", "Jonas", "Mei", "Farid",
	"Greta", "Idris", "Luca", "Noor", "Pavel", "Rosa", "Sami", "Tova", "Umar", "Vera",
	"Wen", "Ximena", "Yara", "Zoltan", "Bruno", "Chiara", "Dmitri", "Esme", "Femi", "Goran",
	"Helga", "Ilan", "Joaquim", "Kaia", "Lior", "Mirela", "Nico", "Oona", "Quentin", "Rahel",
}

var lastNames = []string{
	"Okafor", "Diallo", "Kowalski", "Tanaka", "Brennan", "Haddad", "Lindqvist", "Moreau",
	"Nakamura", "Petrov", "Quiroga", "Rossi", "Sandoval", "Takahashi", "Underwood", "Varga",
	"Whitlock", "Xu", "Yilmaz", "Zapata", "Abernathy", "Bergstrom", "Castellano", "Dvorak",
	"Esposito", "Fairbanks", "Gallagher", "Hoffmann", "Ivanova", "Jankowski", "Kovacs",
	"Larsen", "Mbeki", "Novak", "Oyelaran", "Pereira", "Rahimi", "Sorensen", "Thorne",
	"Uchenna", "Valdivia", "Wakefield", "Yamada", "Zielinski", "Achebe", "Bianchi",
	"Cardoso", "Delacroix", "Eriksen", "Fontaine",
}

var components = []string{
	"uploader", "http client", "scheduler", "cache layer", "config loader", "dataset builder",
	"tokenizer", "sync agent", "image pipeline", "auth service", "metrics exporter", "job runner",
	"plugin loader", "search indexer", "backup tool", "stream reader", "webhook relay", "cli",
}

var repoNames = []string{
	"fluxstore", "tidekit", "emberdb", "quillsync", "larkpipe", "cobaltq", "mossflow", "pinegrid",
	"harborfs", "vantaml", "otterctl", "ripplejs",
}

var symptoms = []string{
	"ReadTimeout on large uploads", "crash on startup", "memory grows without bound",
	"hangs when offline", "fails with PermissionError", "very slow first run",
	"duplicate rows after a retry", "UnicodeDecodeError on Windows paths", "segfault with CUDA 12",
	"stale cache after upgrade", "silent data loss on interrupt", "wrong results with num_proc > 1",
}

var placeSyl1 = []string{"Vel", "Kar", "Mir", "Tal", "Os", "Bren", "Ul", "Sar", "Dor", "Ast", "Qel", "Nor", "Ev", "Lun", "Zar", "Hal", "Cor", "Ith", "Pel", "Rud"}
var placeSyl2 = []string{"oria", "avia", "esh", "ado", "ania", "mark", "ora", "enne", "ica", "ovo", "eth", "ara"}
var citySyl = []string{"Aldren", "Corvel", "Mistra", "Tannis", "Oberon", "Kesh", "Valmora", "Dunmere", "Rivka", "Solen", "Braxis", "Ferrow", "Ilvane", "Jorra", "Lethe", "Marrow"}
var cityPre = []string{"Port ", "San ", "New ", "Lake ", "", "", "", "Fort "}

var companySuffix = []string{"Holdings", "Group", "AG", "Corp", "Energy", "Motors", "Pharma", "Logistics", "Systems", "Foods"}
var clubSuffix = []string{"FC", "United", "Athletic", "Rovers", "SC", "City"}
var orgPatterns = []string{"International %s Council", "%s Development Bank", "%s Trade Organization", "Union of %s States", "%s Maritime Authority"}

// Wikipedia-style editor names and bot names.
var editorNames = []string{"Kestrel42", "Mapmaker_Ro", "Quillfeather", "TundraFox", "Ledgerline", "Oakmoss", "SilverHeron", "Cartograph", "PlainsReader", "Driftwood77", "Archivist_K", "NorthStarEd"}

// Sources a DyKnow-style stream can cite for conflicting facts.
var factSources = []string{"a registry filing", "a press report", "the official website", "an annual report", "a wire service", "a trade register"}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func personName(r *rand.Rand) string { return pick(r, firstNames) + " " + pick(r, lastNames) }

// handle makes a GitHub-style login from a name.
func handle(r *rand.Rand) string {
	f, l := pick(r, firstNames), pick(r, lastNames)
	switch r.IntN(4) {
	case 0:
		return strings.ToLower(f[:1] + l)
	case 1:
		return strings.ToLower(f + "-" + l[:min(3, len(l))])
	case 2:
		return strings.ToLower(l) + fmt.Sprint(10+r.IntN(90))
	}
	return strings.ToLower(f + l[:1] + "-dev")
}

func placeName(r *rand.Rand) string { return pick(r, placeSyl1) + pick(r, placeSyl2) }
func cityName(r *rand.Rand) string  { return pick(r, cityPre) + pick(r, citySyl) }
func companyName(r *rand.Rand) string {
	return pick(r, placeSyl1) + strings.ToLower(pick(r, placeSyl2)) + " " + pick(r, companySuffix)
}
func clubName(r *rand.Rand) string { return pick(r, citySyl) + " " + pick(r, clubSuffix) }
func orgName(r *rand.Rand) string  { return fmt.Sprintf(pick(r, orgPatterns), placeName(r)) }

// docIP is an address from the documentation ranges (RFC 5737), as an
// anonymous Wikipedia editor would be shown.
func docIP(r *rand.Rand) string {
	pre := pick(r, []string{"192.0.2.", "198.51.100.", "203.0.113."})
	return pre + fmt.Sprint(1+r.IntN(254))
}

const tokenChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

func fakeToken(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = tokenChars[r.IntN(len(tokenChars))]
	}
	return string(b)
}

func capFirst(s string) string {
	if s == "" {
		return s
	}
	if s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}
