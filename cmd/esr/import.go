//go:build !esr_noimport

// The importers read other systems' stores (Mem0's SQLite through modernc.org/sqlite:
// about 20 s of a cold build on two cores): a build with -tags=esr_noimport leaves
// them out (make reproduce's esr prepare, which imports nothing).

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/esrkit/esrkit/internal/debian"
	"github.com/esrkit/esrkit/internal/dyknow"
	"github.com/esrkit/esrkit/internal/importers/graphiti"
	"github.com/esrkit/esrkit/internal/importers/mem0"
	"github.com/esrkit/esrkit/internal/importers/vdyknow"
	"github.com/esrkit/esrkit/internal/safefile"
)

func init() {
	register("import", "convert an external dataset into an ESR benchmark (dyknow, vdyknow, debian, mem0, graphiti)", runImport)
}

const importUsage = `usage: esr import dyknow   --src DIR  --out DIR   (a DyKnow checkout)
       esr import vdyknow  --src DIR  --out DIR   (V-DyKnow's wikidata_combined.json and LICENSE)
       esr import debian   --src DIR  --packages FILE --out DIR [--relations]
                                                  (changelogs fetched by scripts/build-debian.sh)
       esr import mem0     --db FILE  --out DIR   (Mem0's SQLite history table)
       esr import graphiti --edges FILE --out DIR (a JSON list of Graphiti EntityEdge records)`

func runImport(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("%s", importUsage)
	}
	if args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintln(stderr, importUsage)
		return errHelp
	}
	kind := args[0]
	fs := newFlags("import "+kind, stderr)
	out := fs.String("out", "", "output `DIR` (required)")
	var in, list *string
	var withRels *bool
	var flagName string
	switch kind {
	case "dyknow":
		flagName, in = "src", fs.String("src", "", "DyKnow checkout `DIR` (grc_generated.json, qa_generated.json, RAG/, LICENSE) (required)")
	case "vdyknow":
		flagName, in = "src", fs.String("src", "", "`DIR` with V-DyKnow's wikidata_combined.json and LICENSE (required)")
	case "debian":
		flagName, in = "src", fs.String("src", "", "`DIR` with one folder per source package (changelog, copyright, SOURCE), as scripts/build-debian.sh leaves it (required)")
		list = fs.String("packages", "", "package list `FILE` (required; data/debian/packages.txt)")
		withRels = fs.Bool("relations", false, "also write relations.jsonl (every co-keyed pair within one facet; about 27 MB)")
	case "mem0":
		flagName, in = "db", fs.String("db", "", "Mem0 history SQLite `FILE` (required)")
	case "graphiti":
		flagName, in = "edges", fs.String("edges", "", "JSON `FILE`: a list of EntityEdge records (required)")
	default:
		return fmt.Errorf("unknown importer %q\n%s", kind, importUsage)
	}
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if *in == "" || *out == "" {
		return fmt.Errorf("--%s and --out are required", flagName)
	}
	if list != nil && *list == "" {
		return fmt.Errorf("--packages is required")
	}
	// Folders written before the output marker are recognised by their
	// MANIFEST.json.
	var legacy func(string) bool
	switch kind {
	case "dyknow":
		legacy = manifestSays("converter", dyknow.Converter)
	case "vdyknow":
		legacy = manifestSays("converter", vdyknow.Converter)
	case "debian":
		legacy = manifestSays("builder", debian.Builder)
	}
	packages := ""
	if list != nil {
		packages = *list
		// The package list may be the build's own (data/debian/packages.txt):
		// the importer carries it over into the new set.
		if la, err := filepath.Abs(*list); err == nil {
			if oa, err := filepath.Abs(*out); err == nil && la == filepath.Join(oa, debian.ListFile) {
				packages = ""
				// A folder holding only the list is the start of a build.
				built := legacy
				legacy = func(dir string) bool {
					return built(dir) || len(safefile.Foreign(dir, func(n string, _ bool) bool { return n == debian.ListFile })) == 0
				}
			}
		}
	}
	var rep any
	t := benchTarget(*out, "esr import "+kind, legacy, input("--"+flagName, *in), input("--packages", packages))
	err := writeBench(t, func() (err error) {
		switch kind {
		case "dyknow":
			rep, err = dyknow.Import(*in, *out)
		case "vdyknow":
			rep, err = vdyknow.Import(*in, *out)
		case "debian":
			rep, err = debian.Import(*in, *list, *out, debian.Options{Relations: *withRels})
		case "mem0":
			rep, err = mem0.Import(*in, *out)
		case "graphiti":
			rep, err = graphiti.Import(*in, *out)
		}
		return err
	})
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
