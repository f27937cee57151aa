package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/relate"
)

func init() {
	register("eval", "answer a benchmark's QAs with memories × readers, one outcome row each", runEval)
}

func runEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", stderr)
	dir := fs.String("bench", "", "benchmark `DIR` with streams.jsonl, atoms.jsonl, qa.jsonl (required)")
	mems := fs.String("memory", memory.FineLedger, "memory classes, comma separated, or all; exec:PATH runs an adapter (docs/adapter-protocol.md), NAME~render-only is a class's render-matched control")
	readers := fs.String("reader", "oracle", "readers, comma separated: oracle, scripted:PROFILE, llm[:MODEL], or default (the notebooks' families)")
	query := fs.String("query", "", "keep only QAs of these query types (snapshot, provenance, relation-type; comma separated)")
	judgeName := fs.String("judge", "exact", "judge: exact or llm")
	rels := fs.String("relations", relate.RuleName, "relation source: rule, oracle or same-state")
	out := fs.String("out", "", "outcomes JSONL `FILE`; rows are appended and a rerun resumes (required)")
	cache := fs.String("cache", ".esr-cache", "response cache `DIR` for LLM readers and judges")
	conc := fs.Int("concurrency", 8, "requests in flight for LLM readers")
	fresh := fs.Bool("fresh", false, "truncate --out instead of resuming")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *dir == "" || *out == "" {
		return fmt.Errorf("--bench and --out are required")
	}
	memNames, err := memory.ParseNames(*mems)
	if err != nil {
		return err
	}
	defer memory.CloseAdapters() // exec: adapters
	var qtypes []esr.QueryType
	for _, q := range strings.Split(*query, ",") {
		if q = strings.TrimSpace(q); q == "" {
			continue
		}
		t, err := esr.ParseQueryType(q)
		if err != nil {
			return err
		}
		qtypes = append(qtypes, t)
	}
	b, rel, rs, err := loadRun(*dir, *rels, *readers, *cache, *conc)
	if err != nil {
		return err
	}
	j, err := parseJudge(*judgeName, *cache, *conc)
	if err != nil {
		return err
	}
	if *fresh {
		if err := os.Remove(*out); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	if err := eval.TrimTruncated(*out); err != nil {
		return err
	}
	done := map[string]bool{}
	if prev, err := eval.ReadOutcomes(*out); err == nil {
		for i := range prev {
			done[prev[i].ID()] = true
		}
	} else if !os.IsNotExist(err) {
		return err
	}
	sink, err := eval.OpenFileSink(*out)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg := eval.Config{Memories: memNames, Readers: rs, Judge: j, QueryTypes: qtypes,
		Options: memory.Options{Relator: rel}, Done: done}
	if f, ok := stderr.(*os.File); ok {
		cfg.Progress = llm.TerminalProgress(f, "eval") // drawn only on a terminal
	}
	if callsOut(rs) {
		// Keep twice the request limit of items in flight so cache writes
		// overlap requests; rows then arrive in completion order.
		cfg.Concurrency = 2 * *conc
	}
	runErr := eval.Run(ctx, b, cfg, sink)
	if err := sink.Close(); err != nil && runErr == nil {
		runErr = err
	}
	if runErr != nil {
		return fmt.Errorf("%w (rows finished so far are in %s; rerun to resume)", runErr, *out)
	}
	return nil
}

// callsOut reports whether any reader calls an endpoint (an LLM reader).
func callsOut(rs []reader.Reader) bool {
	for _, r := range rs {
		if strings.HasPrefix(r.Name(), "llm:") {
			return true
		}
	}
	return false
}
