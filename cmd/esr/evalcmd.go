package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/rowcache"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/internal/safefile"
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
	noise                                         noiseFlags
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
	s.noise.bind(fs)
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

// build loads the benchmark (its notices on notes) and makes readers and
// judge; offline readers and judge read the cache only (dry runs, batch
// export).
func (s *selection) build(offline bool, log func(string), notes io.Writer) (*built, error) {
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
	b, rel, rs, err := loadRun(*s.dir, *s.rels, *s.readers, *s.cache, pool, offline, notes)
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
	cfg, err := eval.UnderRelationNoise(eval.Config{Memories: memNames, Readers: rs, Judge: j, QueryTypes: qtypes, Options: opt},
		s.noise.p, s.noise.seed)
	if err != nil {
		closeReaders(rs)
		return nil, fmt.Errorf("--relation-noise: %w", err)
	}
	return &built{bench: b, pool: pool, cfg: cfg}, nil
}

func runEval(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", stderr)
	sel := addSelection(fs)
	out := fs.String("out", "", "outcomes JSONL `FILE`; rows are appended and a rerun resumes (required; locked while the run writes it)")
	fresh := fs.Bool("fresh", false, "truncate --out instead of resuming")
	dry := fs.Bool("dry-run", false, "send nothing: print, as JSON, the requests per model this run would make, how many are cached, and estimated prompt tokens")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "bench", "out"); err != nil {
		return err
	}
	// The rows' content is checked when the sink opens them; the llm
	// summary beside them is checked here.
	if err := checkFile("--out", *out, "esr eval", rowsChecked, input("--bench", *sel.dir)); err != nil {
		return err
	}
	if err := checkFile("--out", evalSummaryPath(*out), "esr eval", isRunSummary, input("--bench", *sel.dir)); err != nil {
		return err
	}
	// Before anything starts an exec: adapter (the fingerprint asks it for
	// its hello): an interrupt then ends it too.
	ctx, stop := interruptContext()
	defer stop()
	bt, err := sel.build(*dry, nil, stderr)
	if err != nil {
		return err
	}
	defer bt.close()
	defer memory.CloseAdapters() // exec: adapters
	fp, err := rowcache.RowFingerprinter(lab.Setup{Bench: bt.bench, Judge: bt.cfg.Judge, Options: bt.cfg.Options})
	if err != nil {
		return err
	}
	// Rows record what produced them; a resume over rows made by another
	// configuration is refused.
	type pair struct {
		m memory.Spec
		r reader.Spec
	}
	fps := map[pair]string{}
	for _, m := range bt.cfg.Memories {
		for _, r := range bt.cfg.Readers {
			f, err := fp(m, r)
			if err != nil {
				return err
			}
			fps[pair{m, r.Spec()}] = f
		}
	}
	bt.cfg.Fingerprint = func(m memory.Spec, r reader.Reader) string { return fps[pair{m, r.Spec()}] }
	want := func(m memory.Spec, r reader.Spec) (string, bool) { f, ok := fps[pair{m, r}]; return f, ok }
	var sink *eval.FileSink
	var prev []eval.Outcome
	if *dry {
		if !*fresh {
			if prev, err = eval.ReadOutcomes(*out); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
	} else {
		// The lock is taken before anything is read or trimmed, and held
		// to the end: a second run on the same --out is refused.
		if sink, err = eval.OpenFileSink(*out); err != nil {
			if errors.Is(err, safefile.ErrBusy) {
				return fmt.Errorf("%w: another run is writing it; wait for it to finish or use another --out", err)
			}
			return err
		}
		defer sink.Close()
		if *fresh {
			err = sink.Truncate()
		} else {
			prev, err = sink.Resume()
		}
		if err != nil {
			return err
		}
	}
	if st := eval.FindStale(filepath.Base(*out), prev, want); st != nil {
		return fmt.Errorf("%w; use --fresh to recompute every row, or another --out", st)
	}
	bt.cfg.Done = eval.Keys(prev)
	if *dry {
		plan := llm.NewPlan()
		if err := eval.Run(llm.WithPlan(ctx, plan), bt.bench, bt.cfg, discard{}); err != nil {
			return err
		}
		return printPlan(stdout, plan, isLLMJudge(bt.cfg.Judge))
	}
	meter := startMeter(stderr, bt.pool, "eval")
	bt.cfg.Progress = meter.progress
	// An item whose reply failed (after retries: an error, an empty or cut
	// reply) gets no row, so a rerun retries it; the run goes on, unless
	// its endpoint is down.
	bt.cfg.ItemError = func(err error) bool {
		var le *llm.Error
		if errors.Is(err, llm.ErrEndpointDown) || !errors.As(err, &le) {
			return false
		}
		meter.failed(err)
		return true
	}
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
	summary := meter.summary()
	if meter.used() || summary.ItemsFailed > 0 {
		if err := writeJSON(evalSummaryPath(*out), summary); err != nil && runErr == nil {
			runErr = err
		}
	}
	if runErr == nil && summary.ItemsFailed > 0 {
		runErr = fmt.Errorf("%d items failed and have no row (first: %s)", summary.ItemsFailed, summary.Failures[0])
	}
	if runErr != nil {
		return fmt.Errorf("%w (rows finished so far are in %s; rerun to resume: %s)", runErr, *out, resumeCommand("eval", args))
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
		if r.Spec().Kind == reader.KindLLM {
			return true
		}
	}
	return false
}

// evalSummaryPath is the llm summary written beside the rows out.
func evalSummaryPath(out string) string {
	return strings.TrimSuffix(out, ".jsonl") + ".llm-summary.json"
}
