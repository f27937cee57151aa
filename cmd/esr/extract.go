package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/extract"
)

func init() {
	register("extract", "extract atoms from streams with an LLM over a closed attribute inventory", runExtract)
}

func runExtract(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("extract", stderr)
	streamsPath := fs.String("streams", "", "streams.jsonl `FILE` to read (required)")
	out := fs.String("out", "", "atoms.jsonl `FILE` to write (required)")
	model := fs.String("model", "", "extraction model (default: the first of "+llm.EnvModels+")")
	attrs := fs.String("attributes", "github", "attribute inventory: github (spec §8) or a `FILE` with one attribute per line")
	cache := fs.String("cache", ".esr-cache", "response cache `DIR` (a rerun resumes from it)")
	conc := fs.Int("concurrency", 8, "requests in flight")
	baseURL := fs.String("base-url", "", "OpenAI-compatible API root (default "+llm.EnvBaseURL+"; the key is read only from "+llm.EnvAPIKey+")")
	timeout := fs.Duration("timeout", llm.DefaultTimeout, "per-request timeout")
	retries := fs.Int("max-retries", llm.DefaultMaxRetries, "retries per request on 429, 5xx, timeouts and malformed replies")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "streams", "out"); err != nil {
		return err
	}
	if err := noExtraArgs(fs); err != nil {
		return err
	}
	attrFile := ""
	if *attrs != "github" {
		attrFile = *attrs
	}
	if err := checkFile("--out", *out, "esr extract", isAtomRows, input("--streams", *streamsPath), input("--attributes", attrFile)); err != nil {
		return err
	}
	inventory, err := extract.ReadAttributes(*attrs)
	if err != nil {
		return err
	}
	streams, err := extract.ReadStreams(*streamsPath)
	if err != nil {
		return err
	}
	m := *model
	if m == "" {
		if ms := llm.ModelsFromEnv(nil); len(ms) > 0 {
			m = ms[0]
		}
	}
	if m == "" {
		return fmt.Errorf("no model: use --model or set %s", llm.EnvModels)
	}
	cfg := llm.ConfigFromEnv(nil)
	if *baseURL != "" {
		cfg.BaseURL = *baseURL
	}
	cfg.Concurrency, cfg.Timeout = *conc, *timeout
	cfg.MaxRetries = *retries
	if *retries == 0 {
		cfg.MaxRetries = -1
	}
	cfg.Log = func(line string) { fmt.Fprintln(stderr, line) }
	client, err := llm.New(cfg)
	if err != nil {
		return err
	}
	var c *llm.Cache
	if *cache != "" {
		if c, err = llm.OpenCache(*cache); err != nil {
			return err
		}
		defer c.Close()
	}
	x := extract.New(m, client, c, inventory)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	rows, st, err := x.Run(ctx, streams, extract.Options{Concurrency: 2 * *conc,
		Progress: llm.TerminalProgress(stderr, "extract "+m)})
	if err != nil {
		return fmt.Errorf("%w (replies so far are cached in %s; rerun to resume)", err, *cache)
	}
	if err := extract.WriteRows(*out, rows); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "esr extract: %s in %s; wrote %s\n", st.Summary(), time.Since(start).Round(time.Millisecond), *out)
	return nil
}
