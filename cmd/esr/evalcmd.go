package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/internal/eval"
	"github.com/esrkit/esrkit/internal/llm"
)

func init() {
	register("eval", "answer a benchmark's QAs with memories × readers, one outcome row each", runEval)
}

// defaultCache is the response cache folder of every command (the
// notebooks' too: .esr-cache/llm under the repository root).
const defaultCache = ".esr-cache/llm"

// selection is what `esr eval` and `esr batch export` select: benchmark,
// memories, readers, query types, judge, relations, cache, concurrency.
type selection struct {
	dir, mems, readers, query, judge, rels, cache *string
	conc                                          *int
	layout                                        layoutFlags
}

func addSelection(fs *flag.FlagSet) *selection {
	s := &selection{
		dir:     fs.String("bench", "", "benchmark `DIR` with streams.jsonl, atoms.jsonl, qa.jsonl (required)"),
		mems:    fs.String("memory", memory.FineLedger, "memory classes, comma separated, or all; exec:PATH runs an adapter (docs/adapter-protocol.md), NAME~render-only is a class's render-matched control"),
		readers: fs.String("reader", "oracle", "readers, comma separated: oracle, scripted:PROFILE, sim:PROFILE[@seed=S], llm[:MODEL], or default (the notebooks' families)"),
		query:   fs.String("query", "", "keep only QAs of these query types (snapshot, provenance, relation-type; comma separated)"),
		judge:   fs.String("judge", "exact", judgeFlagHelp),
		rels:    fs.String("relations", relate.RuleName, "relation source: rule, oracle or same-state"),
		cache:   fs.String("cache", defaultCache, "response cache `DIR` for LLM readers and judges"),
		conc:    fs.Int("concurrency", 0, "requests in flight per endpoint (default: "+llm.EnvConcurrency+", else 8)"),
	}
	s.layout.bind(fs)
	return s
}

// built is a selection made into a runnable evaluation.
type built struct {
	bench *bench.Bench
	cfg   eval.Config
	pool  *llm.Pool
}

func (b *built) close() {
	for _, r := range b.cfg.Readers {
		if c, ok := r.(interface{ Close() error }); ok {
			c.Close()
		}
	}
	if c, ok := b.cfg.Judge.(interface{ Close() error }); ok {
		c.Close()
	}
}

// build loads the benchmark and makes readers and judge; offline readers
// and judge read the cache only (dry runs, batch export).
func (s *selection) build(offline bool, log func(string)) (*built, error) {
	if *s.dir == "" {
		return nil, fmt.Errorf("--bench is required")
	}
	memNames, err := memory.ParseNames(*s.mems)
	if err != nil {
		return nil, err
	}
	var qtypes []esr.QueryType
	for _, q := range strings.Split(*s.query, ",") {
		if q = strings.TrimSpace(q); q == "" {
			continue
		}
		t, err := esr.ParseQueryType(q)
		if err != nil {
			return nil, err
		}
		qtypes = append(qtypes, t)
	}
	pool := newPool(*s.conc, log)
	b, rel, rs, err := loadRun(*s.dir, *s.rels, *s.readers, *s.cache, pool, offline)
	if err != nil {
		return nil, err
	}
	j, err := judge.Parse(*s.judge, judge.Config{CacheDir: *s.cache, Pool: pool, Offline: offline})
	if err != nil {
		closeReaders(rs)
		return nil, err
	}
	opt := memory.Options{Relator: rel}
	if err := s.layout.apply(&opt); err != nil {
		closeReaders(rs)
		return nil, err
	}
	return &built{bench: b, pool: pool, cfg: eval.Config{Memories: memNames, Readers: rs, Judge: j, QueryTypes: qtypes,
		Options: opt}}, nil
}

func runEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", stderr)
	sel := addSelection(fs)
	out := fs.String("out", "", "outcomes JSONL `FILE`; rows are appended and a rerun resumes (required)")
	fresh := fs.Bool("fresh", false, "truncate --out instead of resuming")
	dry := fs.Bool("dry-run", false, "send nothing: print, as JSON, the requests per model this run would make, how many are cached, and estimated prompt tokens")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *sel.dir == "" || *out == "" {
		return fmt.Errorf("--bench and --out are required")
	}
	bt, err := sel.build(*dry, nil)
	if err != nil {
		return err
	}
	defer bt.close()
	defer memory.CloseAdapters() // exec: adapters
	if *fresh && !*dry {
		if err := os.Remove(*out); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	if !*dry {
		if err := eval.TrimTruncated(*out); err != nil {
			return err
		}
	}
	done := map[string]bool{}
	if prev, err := eval.ReadOutcomes(*out); err == nil && !*fresh {
		for i := range prev {
			done[prev[i].ID()] = true
		}
	} else if err != nil && !os.IsNotExist(err) && !*fresh {
		return err
	}
	bt.cfg.Done = done
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *dry {
		plan := llm.NewPlan()
		if err := eval.Run(llm.WithPlan(ctx, plan), bt.bench, bt.cfg, discard{}); err != nil {
			return err
		}
		return printPlan(stdout, plan, isLLMJudge(bt.cfg.Judge))
	}
	sink, err := eval.OpenFileSink(*out)
	if err != nil {
		return err
	}
	meter := startMeter(stderr, bt.pool, "eval")
	bt.cfg.Progress = meter.progress
	if n := itemConcurrency(bt.cfg.Readers); n > 0 {
		// Keep twice the request limit of items in flight so cache writes
		// overlap requests; rows then arrive in completion order.
		bt.cfg.Concurrency = n
	}
	runErr := eval.Run(ctx, bt.bench, bt.cfg, sink)
	if err := sink.Close(); err != nil && runErr == nil {
		runErr = err
	}
	meter.stop()
	if meter.used() {
		if err := writeJSON(strings.TrimSuffix(*out, ".jsonl")+".llm-summary.json", meter.summary()); err != nil && runErr == nil {
			runErr = err
		}
	}
	if runErr != nil {
		return fmt.Errorf("%w (rows finished so far are in %s; rerun to resume)", runErr, *out)
	}
	return nil
}

// discard is a sink that keeps nothing (dry runs).
type discard struct{}

func (discard) Put(eval.Outcome) error { return nil }

// itemConcurrency is the items to keep in flight for readers that call
// out: twice the largest endpoint limit (0: no LLM reader).
func itemConcurrency(rs []reader.Reader) int {
	n := 0
	for _, r := range rs {
		if l, ok := r.(*reader.LLM); ok && l.Client != nil && 2*l.Client.Concurrency() > n {
			n = 2 * l.Client.Concurrency()
		}
	}
	return n
}

func isLLMJudge(j judge.Judge) bool { _, ok := j.(*judge.LLMJudge); return ok }

func closeReaders(rs []reader.Reader) {
	for _, r := range rs {
		if c, ok := r.(interface{ Close() error }); ok {
			c.Close()
		}
	}
}

// callsOut reports whether any reader is an LLM reader.
func callsOut(rs []reader.Reader) bool {
	for _, r := range rs {
		if strings.HasPrefix(r.Name(), "llm:") {
			return true
		}
	}
	return false
}
