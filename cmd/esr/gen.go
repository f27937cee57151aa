package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/synth"
)

func init() {
	register("gen", "generate the synthetic benchmark (streams, atoms, QAs, gold relations, MANIFEST); --like paper matches ESR-Bench's composition", runGen)
}

func runGen(args []string, stdout, stderr io.Writer) error {
	def := synth.DefaultConfig()
	fs := newFlags("gen", stderr)
	like := fs.String("like", lab.PresetClean, "start from a preset: clean (small, noise-free, for teaching examples) or paper (ESR-Bench's composition, App. F, §3, Table 12; data/synthetic is --like paper --rare-oversample 2); the flags below override it")
	seed := fs.Uint64("seed", def.Seed, "random seed (same seed and knobs give byte-identical files)")
	out := fs.String("out", "", "output `DIR` (required)")
	per := fs.Int("per-stratum", def.PerStratum, "streams per (source, stratum), when --streams is not set")
	streams := fs.String("streams", "", "streams per source and stratum, `SRC/STRATUM=N,...` (e.g. github/monotonic=567,github/reverted_revert=66); replaces --per-stratum")
	clutter := fs.Float64("clutter", def.Clutter, "share of non-core events that assert nothing new (comments, hedges, stale restatements)")
	restate := fs.Float64("restate", def.Restate, "share of clutter events that are hedges or stale restatements (they carry an atom)")
	para := fs.Float64("paraphrase", def.Paraphrase, "probability that prose paraphrases a value (\"30 seconds\" for 30 s)")
	sources := fs.String("sources", strings.Join(def.Sources, ","), "sources, comma separated: github, wiki, dyknow")
	er := fs.Float64("event-recall", def.EventRecall, "extraction noise: probability an event keeps its atoms (paper App. F: 0.86)")
	cr := fs.Float64("cokey-recall", def.CoKeyRecall, "extraction noise: probability a key's current-value events keep their keys (paper App. F: 0.96)")
	lw := fs.String("length-weights", "", "weights of Table 12's stream-length bins (2–5, 6, 7–10, 11–20, 21–70 events), `W1,...,W5`; default even")
	ape := fs.Float64("atoms-per-event", 0, "target atoms per event after noise, reached with extra mentions (paper App. F: 2.6); 0 adds none")
	over := fs.String("atoms-over", synth.AtomsOverWithAtoms, "denominator of --atoms-per-event: events or events-with-atoms")
	kps := fs.Float64("keys-per-stream", 0, "target distinct keys per stream, reached with distractor keys (paper App. F: 3.7–4.2); 0 adds none")
	tok := fs.Int("event-tokens", 0, "median event length in tokens, reached by padding text (the paper gives none); 0 pads nothing")
	rare := fs.Int("rare-oversample", 0, "multiply the streams of the rare strata (reverted_revert, cross_source_conflict, refines) by `K`, for per-stratum power; pooled numbers then use the oversampled mix (data/synthetic: --like paper --rare-oversample 2)")
	reg := fs.String("register", "", "padding registers, `prose=W,code=W,log=W,quote=W` (default prose=0.5,code=0.2,log=0.15,quote=0.15)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "out"); err != nil {
		return err
	}
	cfg, err := lab.GenPreset(*like)
	if err != nil {
		return fmt.Errorf("--like: %w", err)
	}
	var ferr error
	fs.Visit(func(f *flag.Flag) {
		if ferr != nil {
			return
		}
		switch f.Name {
		case "seed":
			cfg.Seed = *seed
		case "per-stratum":
			cfg.PerStratum, cfg.Streams = *per, nil
		case "streams":
			cfg.Streams, ferr = synth.ParseStreams(*streams)
		case "clutter":
			cfg.Clutter = *clutter
		case "restate":
			cfg.Restate = *restate
		case "paraphrase":
			cfg.Paraphrase = *para
		case "sources":
			cfg.Sources = synth.ParseSources(*sources)
		case "event-recall":
			cfg.EventRecall = *er
		case "cokey-recall":
			cfg.CoKeyRecall = *cr
		case "length-weights":
			cfg.LengthWeights, ferr = synth.ParseWeights(*lw)
		case "atoms-per-event":
			cfg.AtomsPerEvent = *ape
			if cfg.AtomsOver == "" {
				cfg.AtomsOver = *over
			}
		case "atoms-over":
			cfg.AtomsOver = *over
		case "keys-per-stream":
			cfg.KeysPerStream = *kps
		case "event-tokens":
			cfg.EventTokens = *tok
		case "register":
			cfg.Register, ferr = synth.ParseRegister(*reg)
		case "rare-oversample":
			cfg.RareOversample = *rare
		}
		if ferr != nil {
			ferr = fmt.Errorf("--%s: %w", f.Name, ferr)
		}
	})
	if ferr != nil {
		return ferr
	}
	if cfg.AtomsPerEvent == 0 {
		cfg.AtomsOver = "" // no extra mentions: nothing to count them over
	}
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
