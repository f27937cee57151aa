package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/esrkit/esrkit/internal/scrub"
)

func init() {
	register("scrub", "privacy-scrub a benchmark (drop actors and verbatim spans, mask handles, e-mails, tokens, IPs, user paths)", runScrub)
}

func runScrub(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("scrub", stderr)
	dir := fs.String("bench", "", "benchmark `DIR` to scrub (required)")
	out := fs.String("out", "", "output `DIR` for the scrubbed benchmark (required; may not be --bench)")
	pseudo := fs.Bool("pseudonymize-actors", false, "replace actor fields with per-stream pseudonyms (actor-1, ...) instead of dropping them")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "bench", "out"); err != nil {
		return err
	}
	var rep *scrub.Report
	t := benchTarget(*out, "esr scrub", nil, input("--bench", *dir))
	if err := writeBench(t, func() (err error) { rep, err = scrub.Dir(*dir, *out, scrub.Options{Pseudonymize: *pseudo}); return err }); err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		return err
	}
	if rep.Residual.Total() > 0 {
		return fmt.Errorf("a second pass over %s still finds %v", *out, rep.Residual)
	}
	return nil
}
