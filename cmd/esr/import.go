package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/esrkit/esrkit/esr/dyknow"
)

func init() {
	register("import", "convert an external dataset into an ESR benchmark (esr import dyknow --src DIR --out DIR)", runImport)
}

func runImport(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "dyknow" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fmt.Fprintln(stderr, "usage: esr import dyknow --src DIR --out DIR")
			return errHelp
		}
		return fmt.Errorf("usage: esr import dyknow --src DIR --out DIR (dyknow is the only importer)")
	}
	fs := newFlags("import dyknow", stderr)
	src := fs.String("src", "", "DyKnow checkout `DIR` (grc_generated.json, qa_generated.json, RAG/, LICENSE) (required)")
	out := fs.String("out", "", "output `DIR` (required)")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if *src == "" || *out == "" {
		return fmt.Errorf("--src and --out are required")
	}
	rep, err := dyknow.Import(*src, *out)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
