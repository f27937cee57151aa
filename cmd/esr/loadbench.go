package main

import (
	"fmt"
	"io"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/esr/relate"
)

// openBench loads a benchmark folder (bench.Load) and says once, on w,
// what the load folded or kept (bench.Bench.Notices): real data is not
// refused over a benign detail, but it is said.
func openBench(dir string, w io.Writer) (*bench.Bench, error) {
	b, err := bench.Load(dir)
	if err != nil {
		return nil, err
	}
	sayNotices(w, b)
	return b, nil
}

// sayNotices writes b's notices on w, one line each.
func sayNotices(w io.Writer, b *bench.Bench) {
	for _, n := range b.Notices() {
		fmt.Fprintf(w, "esr: note: %s: %s\n", b.Dir, n)
	}
}

// loadRun loads a benchmark folder (its notices on w), its relation
// source and the readers that `esr eval` and `esr run` share. readers
// "default" means the notebooks' families (lab.DefaultReaderSpec). LLM
// readers take their clients from pool; offline ones read the cache only.
func loadRun(dir, relations, readers, cache string, pool *llm.Pool, offline bool, w io.Writer) (*bench.Bench, esr.Relator, []reader.Reader, error) {
	b, err := openBench(dir, w)
	if err != nil {
		return nil, nil, nil, err
	}
	rel, err := relate.ByName(relations, b.Relations)
	if err != nil {
		return nil, nil, nil, err
	}
	rs, err := parseReaders(readers, cache, pool, offline)
	if err != nil {
		return nil, nil, nil, err
	}
	return b, rel, rs, nil
}

// parseReaders makes a reader list ("default": the notebooks' families).
func parseReaders(readers, cache string, pool *llm.Pool, offline bool) ([]reader.Reader, error) {
	if readers == "default" {
		readers = lab.DefaultReaderSpec(nil)
	}
	return reader.ParseList(readers, llm.Setup{CacheDir: cache, Pool: pool, Offline: offline}, sim.Readers)
}

// clientDefaults are the client settings of every command's pool (retries,
// backoff, circuit breaker); zero fields take llm's defaults. Tests shorten
// the backoff.
var clientDefaults llm.Config

// newPool is the client pool of one command: endpoints from the
// environment, --concurrency (when > 0) overriding ESR_LLM_CONCURRENCY.
func newPool(concurrency int, log func(string)) *llm.Pool {
	cfg := clientDefaults
	cfg.Log = log
	return llm.NewPool(llm.Env{Concurrency: concurrency}, cfg)
}
