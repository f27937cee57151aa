package main

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/esrkit/esrkit/internal/synth"
)

func init() {
	register("gen", "generate the synthetic benchmark (streams, atoms, QAs, gold relations, MANIFEST)", runGen)
}

func runGen(args []string, stdout, stderr io.Writer) error {
	def := synth.DefaultConfig()
	fs := newFlags("gen", stderr)
	seed := fs.Uint64("seed", def.Seed, "random seed (same seed and knobs give byte-identical files)")
	out := fs.String("out", "", "output `DIR` (required)")
	per := fs.Int("per-stratum", def.PerStratum, "streams per (source, stratum)")
	clutter := fs.Float64("clutter", def.Clutter, "share of non-core events that assert nothing new (comments, hedges, stale restatements)")
	restate := fs.Float64("restate", def.Restate, "share of clutter events that are hedges or stale restatements (they carry an atom)")
	para := fs.Float64("paraphrase", def.Paraphrase, "probability that prose paraphrases a value (\"30 seconds\" for 30 s)")
	sources := fs.String("sources", strings.Join(def.Sources, ","), "sources, comma separated: github, wiki, dyknow")
	er := fs.Float64("event-recall", def.EventRecall, "extraction noise: probability an event keeps its atoms")
	cr := fs.Float64("cokey-recall", def.CoKeyRecall, "extraction noise: probability a key's current-value atoms keep their key")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "out"); err != nil {
		return err
	}
	cfg := synth.Config{Seed: *seed, PerStratum: *per, Clutter: *clutter, Restate: *restate, Paraphrase: *para,
		Sources: synth.ParseSources(*sources), EventRecall: *er, CoKeyRecall: *cr}
	var m *synth.Manifest
	t := benchTarget(*out, "esr gen", manifestSays("generator", synth.Version))
	if err := writeBench(t, func() (err error) { m, err = synth.Write(*out, cfg); return err }); err != nil {
		return err
	}
	summary := map[string]any{"out": *out, "benchmark": m.Benchmark, "generator": m.Generator,
		"streams": m.Counts.Streams, "events": m.Counts.Events, "atoms": m.Counts.Atoms, "qas": m.Counts.QAs,
		"relations": m.Counts.Relations}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(summary)
}
