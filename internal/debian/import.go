package debian

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/regfile"
	"github.com/esrkit/esrkit/internal/safefile"
)

// Builder names this conversion; it is written into MANIFEST.json.
const Builder = "esr-debian/1"

// Files the builder writes besides the benchmark files. The package list
// (ListFile) is its input, written by scripts/build-debian.sh --list.
const (
	ListFile       = "packages.txt"
	ExclusionsFile = "exclusions.jsonl"
	LicensesFile   = "licenses.jsonl"
	LicensesMD     = "LICENSES.md"
	ProvenanceFile = "PROVENANCE.md"
	ManifestFile   = "MANIFEST.json"
	AttributesFile = "attributes.txt"
)

// Options configure Import.
type Options struct {
	// Relations writes relations.jsonl (every co-keyed pair within one
	// facet: SAME_STATE for equal values, else SUPERSEDES). Off for the
	// shipped data: about 27 MB, and exactly the reading relate.Oracle
	// falls back to without the file.
	Relations bool
}

// Report summarises a build (MANIFEST.json).
type Report struct {
	Benchmark  string `json:"benchmark"`
	Builder    string `json:"builder"`
	Upstream   string `json:"upstream"`
	Cutoff     string `json:"window_from"`
	MaxEntries int    `json:"window_max_entries"`
	Listed     int    `json:"packages_listed"`
	Streams    int    `json:"streams"`
	Excluded   int    `json:"packages_excluded"`
	Trimmed    int    `json:"changelogs_trimmed_by_debhelper"`
	Events     int    `json:"events"`
	Atoms      int    `json:"atoms"`
	Relations  int    `json:"relations"`
	// QAs by phenomenon and query type; by attribute; reverted-revert
	// kinds by attribute.
	QAs          map[string]map[string]int `json:"qas_by_phenomenon_query"`
	ByAttribute  map[string]map[string]int `json:"snapshot_qas_by_attribute_phenomenon"`
	Kinds        map[string]map[string]int `json:"snapshot_qas_by_attribute_kind"`
	Faceted      int                       `json:"faceted_qas"`
	QATotal      int                       `json:"qas"`
	Distinct     map[string]int            `json:"distinct_values_by_attribute"`
	StreamLength map[string]int            `json:"streams_by_length"`
	SHA256       map[string]string         `json:"sha256"`
}

// LicenceRow is one line of licenses.jsonl.
type LicenceRow struct {
	Package string `json:"package"`
	Binary  string `json:"binary,omitempty"`
	Version string `json:"version,omitempty"`
	Deb     string `json:"deb,omitempty"`
	SHA256  string `json:"deb_sha256,omitempty"`
	Trimmed bool   `json:"changelog_trimmed"`
	Entries int    `json:"entries_in_window"`
	Licence
}

// Import builds the benchmark from src (src/PKG/ per package of list) into
// out: streams, atoms and QAs (relations with opt.Relations), the excluded
// packages, the licence table (licenses.jsonl, LICENSES.md), the extraction
// inventory (attributes.txt), a generated PROVENANCE.md and MANIFEST.json.
// The output folder is locked while it is written; a second run on it fails
// at once, naming the first.
func Import(src, list, out string, opt Options) (*Report, error) {
	names, err := ReadList(list)
	if err != nil {
		return nil, err
	}
	res, err := Build(src, names)
	if err != nil {
		return nil, err
	}
	lock, err := safefile.LockDir(out, safefile.Wait{})
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	b := res.Bench
	if opt.Relations {
		b.Relations = GoldRelations(b)
	}
	// The whole folder is one set (bench.WriteFolderOwning): a failure
	// leaves the previous build as it was. The package list may live in
	// the folder itself (data/debian/packages.txt): it is carried over.
	listAbs, _ := filepath.Abs(list)
	outAbs, _ := filepath.Abs(out)
	listInside := filepath.Dir(listAbs) == outAbs && filepath.Base(listAbs) == ListFile
	var listData []byte
	if listInside {
		if listData, err = regfile.ReadFile(list, maxInput); err != nil {
			return nil, err
		}
	}
	owned := []string{ListFile, ExclusionsFile, LicensesFile, LicensesMD, ProvenanceFile, ManifestFile, AttributesFile}
	var rep *Report
	err = bench.WriteFolderOwning(out, owned, func(tmp string) error {
		if listInside {
			if err := safefile.WriteFile(filepath.Join(tmp, ListFile), listData, 0o644); err != nil {
				return err
			}
		}
		if err := b.WriteFiles(tmp); err != nil {
			return err
		}
		if err := bench.WriteJSONL(filepath.Join(tmp, ExclusionsFile), res.Exclusions); err != nil {
			return err
		}
		var lic []LicenceRow
		for _, p := range res.Packages {
			lic = append(lic, LicenceRow{Package: p.Name, Binary: p.Origin["binary"], Version: p.Origin["version"],
				Deb: p.Origin["deb"], SHA256: p.Origin["sha256"], Trimmed: p.Trimmed, Entries: len(p.Entries), Licence: p.Licence})
		}
		if err := bench.WriteJSONL(filepath.Join(tmp, LicensesFile), lic); err != nil {
			return err
		}
		if err := safefile.WriteFile(filepath.Join(tmp, LicensesMD), []byte(licencesMarkdown(lic)), 0o644); err != nil {
			return err
		}
		attrs := "# The attribute inventory of data/debian, for esr extract --attributes (one a line).\n" + strings.Join(Attributes, "\n") + "\n"
		if err := safefile.WriteFile(filepath.Join(tmp, AttributesFile), []byte(attrs), 0o644); err != nil {
			return err
		}
		rep = report(res, len(names))
		if err := safefile.WriteFile(filepath.Join(tmp, ProvenanceFile), []byte(provenance(rep, res, lic)), 0o644); err != nil {
			return err
		}
		files := []string{bench.StreamsFile, bench.AtomsFile, bench.QAFile, ExclusionsFile, LicensesFile, LicensesMD,
			AttributesFile, ProvenanceFile}
		if opt.Relations {
			files = append(files, bench.RelationsFile)
		}
		rep.SHA256 = map[string]string{}
		for _, name := range append(files, ListFile) {
			path := filepath.Join(tmp, name)
			if name == ListFile {
				path = list // the input list, wherever it is
			}
			f, _, err := regfile.Open(path)
			if err != nil {
				return err
			}
			h := sha256.New()
			_, err = io.Copy(h, f)
			f.Close()
			if err != nil {
				return err
			}
			rep.SHA256[name] = hex.EncodeToString(h.Sum(nil))
		}
		data, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		if err := safefile.WriteFile(filepath.Join(tmp, ManifestFile), append(data, '\n'), 0o644); err != nil {
			return err
		}
		// The set replaces the previous build only if it loads: raw text
		// the loader refuses (a control character in a distribution or a
		// version, an entry over the line limit) keeps the old build. Every
		// question is built from the atoms it asks about, so one whose key
		// has no atom is this importer's bug, not a lossy extraction.
		if _, err := bench.LoadWith(tmp, bench.LoadOptions{RequireCoverage: true}); err != nil {
			return fmt.Errorf("the new build does not load as a benchmark, so %s is left as it was: %w", out, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// GoldRelations labels every co-keyed pair of atoms within one facet:
// SAME_STATE when the values are equal, SUPERSEDES otherwise (one changelog
// is one source; a later upload replaces the earlier value). Pairs across
// facets (versions in different suites) get no label.
func GoldRelations(b *bench.Bench) map[string]map[esr.AtomPair]esr.Relation {
	out := map[string]map[esr.AtomPair]esr.Relation{}
	for _, s := range b.Streams {
		as := b.Atoms[s.ID]
		m := map[esr.AtomPair]esr.Relation{}
		for i := range as {
			for j := i + 1; j < len(as); j++ {
				a, c := &as[i], &as[j]
				if a.Key() != c.Key() || a.Facet != c.Facet {
					continue
				}
				r := esr.Supersedes
				if a.Value == c.Value {
					r = esr.SameState
				}
				m[esr.AtomPair{A: a.ID, B: c.ID}] = r
			}
		}
		out[s.ID] = m
	}
	return out
}

func report(res *Result, listed int) *Report {
	b := res.Bench
	rep := &Report{Benchmark: "debian", Builder: Builder,
		Upstream: "Debian 12 (bookworm) main, amd64: /usr/share/doc/PKG/changelog.Debian.gz and copyright of binary packages",
		Cutoff:   Cutoff.Format("2006-01-02"), MaxEntries: MaxEntries, Listed: listed, Streams: len(b.Streams),
		Excluded: len(res.Exclusions), QAs: map[string]map[string]int{}, ByAttribute: map[string]map[string]int{},
		Kinds: map[string]map[string]int{}, QATotal: len(b.QAs), Distinct: map[string]int{}, StreamLength: map[string]int{}}
	for _, p := range res.Packages {
		if p.Trimmed {
			rep.Trimmed++
		}
	}
	distinct := map[string]map[string]bool{}
	for _, s := range b.Streams {
		rep.Events += len(s.Events)
		rep.StreamLength[lengthBin(len(s.Events))]++
		rep.Atoms += len(b.Atoms[s.ID])
		rep.Relations += len(b.Relations[s.ID])
		for _, a := range b.Atoms[s.ID] {
			if distinct[a.Attribute] == nil {
				distinct[a.Attribute] = map[string]bool{}
			}
			distinct[a.Attribute][a.Value] = true
		}
	}
	for a, m := range distinct {
		rep.Distinct[a] = len(m)
	}
	inc := func(m map[string]map[string]int, a, b string) {
		if m[a] == nil {
			m[a] = map[string]int{}
		}
		m[a][b]++
	}
	for _, q := range b.QAs {
		inc(rep.QAs, string(q.Phenomenon), string(q.Type()))
		if q.Facet != "" {
			rep.Faceted++
		}
		if q.Type() == esr.Snapshot {
			inc(rep.ByAttribute, q.Attribute, string(q.Phenomenon))
			inc(rep.Kinds, q.Attribute, kindOf(q.Rationale))
		}
	}
	return rep
}

// kindOf reads the Label kind back from a rationale "debian PHEN (KIND): …".
func kindOf(r string) string {
	_, rest, _ := strings.Cut(r, "(")
	k, _, _ := strings.Cut(rest, ")")
	return k
}

// lengthBin names a stream length by the paper's Table 12 bins (as
// internal/coverage prints them).
func lengthBin(n int) string {
	switch {
	case n < 2:
		return "1"
	case n <= 5:
		return "2–5"
	case n <= 6:
		return "6"
	case n <= 10:
		return "7–10"
	case n <= 20:
		return "11–20"
	}
	return "21–70"
}

// mdCell escapes text from the data for a Markdown table cell.
func mdCell(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`,
		"<", "&lt;", ">", "&gt;", "&", "&amp;", "\n", " ", "\r", " ")
	return r.Replace(s)
}

func licencesMarkdown(rows []LicenceRow) string {
	var w strings.Builder
	fmt.Fprintf(&w, "# Licences of the packages in data/debian (generated by `esr import debian`; do not edit)\n\n")
	fmt.Fprintf(&w, "Read from each package's `/usr/share/doc/BINARY/copyright` (the package's `debian/copyright`).\n")
	fmt.Fprintf(&w, "For a machine-readable file (copyright format 1.0), *Files: \\** is the licence of the paragraph\n")
	fmt.Fprintf(&w, "`Files: *`, *debian/\\** that of `Files: debian/*` (the changelog's own licence, where stated); a\n")
	fmt.Fprintf(&w, "free-form file lists the licences its text mentions from a fixed list of phrases\n")
	fmt.Fprintf(&w, "(`internal/debian/copyright.go`), which is what it names, not a legal reading.\n")
	fmt.Fprintf(&w, "`licenses.jsonl` holds the same rows with every License short name.\n\n")
	fmt.Fprintf(&w, "| package | read from (binary version) | Files: * | debian/* | entries | trimmed |\n|---|---|---|---|---:|---|\n")
	for _, r := range rows {
		main, deb := r.Main, r.Debian
		if !r.MachineReadable {
			main = r.Summary()
		}
		trim := "no"
		if r.Trimmed {
			trim = "yes"
		}
		fmt.Fprintf(&w, "| %s | %s %s | %s | %s | %d | %s |\n", mdCell(r.Package), mdCell(r.Binary), mdCell(r.Version),
			mdCell(main), mdCell(deb), r.Entries, trim)
	}
	return w.String()
}

func provenance(rep *Report, res *Result, lic []LicenceRow) string {
	var w strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&w, format, args...) }
	p("# Debian changelogs, converted to ESR (generated by `esr import debian`; do not edit)\n\n")
	p("A real high-clutter revision benchmark: every event is one whole entry of a package's `debian/changelog`\n")
	p("(header, change details, trailer), and every gold answer comes from the entries' headers and trailers only.\n\n")
	p("Regenerate (Debian, as root; fetches with apt into `.esr-cache/debian`, then runs the builder):\n\n")
	p("    scripts/build-debian.sh            # fetch, then: go run ./cmd/esr import debian --src .esr-cache/debian/src --packages data/debian/packages.txt --out data/debian\n")
	p("    scripts/build-debian.sh --list     # recompute packages.txt by its rule\n\n")
	p("## Packages\n\n")
	p("`packages.txt` lists %d source packages: the source packages of every binary package apt installs, recommends\n", rep.Listed)
	p("included, into an empty root for every package of Priority required, important or standard in Debian 12\n")
	p("(bookworm) main, amd64, plus the toolchains named in its header (build-essential, gcc, g++, gfortran, clang, llvm,\n")
	p("golang-go, rustc, cargo, python3, perl, ruby, openjdk-17, nodejs, cmake, meson, autotools, git, gdb, debhelper, …).\n\n")
	p("## What was read\n\n")
	p("- Per source package, the Debian changelog of the smallest of its binary packages that carries one\n")
	p("  (`/usr/share/doc/BINARY/changelog.Debian.gz`; `changelog.gz` for a native package), fetched with\n")
	p("  `apt-get download` from bookworm, bookworm-updates and bookworm-security; `licenses.jsonl` names the binary,\n")
	p("  its version and the .deb's SHA-256. That file is `debian/changelog` as built: %d of the %d are trimmed by\n", rep.Trimmed, rep.Listed)
	p("  bookworm's dh_installchangelogs to the entries after buster's release (2019-07-06), ending in its note\n")
	p("  \"%s\". binNMU entries (`changelog.Debian.amd64.gz`) are not part of `debian/changelog` and are not read.\n", TrimNote)
	p("- The window: from the top of each changelog, the package's own entries dated %s or later, at most %d. Reading\n", rep.Cutoff, rep.MaxEntries)
	p("  stops at the first older entry, and at the first entry whose header names another source package (a\n")
	p("  predecessor's history carried over: gcc-11's entries in gcc-12's changelog, python3.10's in python3.11's).\n")
	p("  The cut-off lies after the trim date, so trimmed and untrimmed changelogs are read alike;\n")
	p("  %d is the upper edge of the paper's longest stream-length bin (Table 12). Packages with no entry in the window\n", rep.MaxEntries)
	p("  are listed in `exclusions.jsonl` (%d).\n\n", rep.Excluded)
	p("## How it was converted\n\n")
	p("- One stream per source package (`debian-PKG`), one `changelog-entry` event per entry: the entry's text as\n")
	p("  written, timestamped by its trailer's date (UTC), actor the trailer's name, meta `changelog_line` the header's\n")
	p("  line in the raw file. Events are in the order of their dates: a changelog that merges branches lists an\n")
	p("  experimental upload above older-dated unstable ones, and the archive received them in date order.\n")
	p("- Four atoms per event, entity the source package, read from the header and trailer only: `uploader` (the\n")
	p("  trailer's name), `distribution` (the header's distribution field), `urgency` (lower-cased, without comment;\n")
	p("  Policy §5.6.17 says it is not case-sensitive) and `version`, which carries the facet\n")
	p("  `distribution=DIST` (the version per suite). The prose is never read: its names (\"Thanks to …\"), versions,\n")
	p("  bug numbers and reverted changes are the clutter.\n")
	p("- QAs per key: snapshot (the value of the latest entry), provenance (the value of the run before the\n")
	p("  current one) and relation-type (always \"replaces\"), the last two only where the value changed. Version\n")
	p("  questions ask per suite (`facet`), one key per distribution the package was uploaded to.\n")
	p("- Strata from the gold sequence (`internal/debian.LabelSequence`): reverted_revert when a value returns after\n")
	p("  another held (spec §8's rule; the rationale says `current-returns` when the current value is the returning\n")
	p("  one, the paper's A → B → A, else `earlier-return`), monotonic otherwise (`pure-mono` when it never changed).\n")
	p("  No refines and no cross_source_conflict: an upload never partly keeps the value before it, and one\n")
	p("  changelog is one source.\n")
	p("- No `relations.jsonl` is shipped: every co-keyed pair within one facet is SAME_STATE for equal values and\n")
	p("  SUPERSEDES otherwise, the reading `relate.Oracle` falls back to; `esr import debian --relations` writes it\n")
	p("  (about 27 MB).\n\n")
	p("## Counts\n\n")
	p("- Packages: %d listed, %d streams, %d excluded; events %d; atoms %d.\n", rep.Listed, rep.Streams, rep.Excluded, rep.Events, rep.Atoms)
	p("- Stream lengths (Table 12 bins):")
	for _, bin := range []string{"1", "2–5", "6", "7–10", "11–20", "21–70"} {
		p(" %s: %d;", bin, rep.StreamLength[bin])
	}
	p("\n- QAs: %d (%d ask about a facet)\n", rep.QATotal, rep.Faceted)
	for _, ph := range esr.Phenomena {
		m := rep.QAs[string(ph)]
		if m == nil {
			continue
		}
		p("  - %s: snapshot %d, provenance %d, relation-type %d\n", ph, m[string(esr.Snapshot)], m[string(esr.Provenance)], m[string(esr.RelationType)])
	}
	p("- Snapshot QAs by key and kind:\n")
	for _, a := range Attributes {
		k := rep.Kinds[a]
		p("  - %s: pure-mono %d, mono-deprecated %d, reverted_revert %d (current-returns %d, earlier-return %d)\n", a,
			k[KindPureMono], k[KindMonoDeprecated], k[KindCurrentReturns]+k[KindEarlierReturn], k[KindCurrentReturns], k[KindEarlierReturn])
	}
	p("\n## Licences\n\n")
	p("Each package's changelog and copyright file are distributed under the terms its copyright file states;\n")
	p("`LICENSES.md` and `licenses.jsonl` record them per package. Most common licence of `Files: *`:\n\n")
	count := map[string]int{}
	debian := 0
	free := 0
	for _, r := range lic {
		if !r.MachineReadable {
			free++
			continue
		}
		if r.Main != "" {
			count[r.Main]++
		}
		if r.Debian != "" {
			debian++
		}
	}
	type kv struct {
		k string
		n int
	}
	var top []kv
	for k, n := range count {
		top = append(top, kv{k, n})
	}
	sort.Slice(top, func(i, j int) bool {
		if top[i].n != top[j].n {
			return top[i].n > top[j].n
		}
		return top[i].k < top[j].k
	})
	for i, t := range top {
		if i == 10 {
			break
		}
		p("- %s: %d\n", mdCell(t.k), t.n)
	}
	p("\n%d of %d copyright files are machine-readable (%d state a licence for `debian/*`); %d are free-form.\n",
		len(lic)-free, len(lic), debian, free)
	return w.String()
}
