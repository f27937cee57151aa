package rowcache_test

import (
	"context"
	"path/filepath"
	"runtime/pprof"
	"sync/atomic"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/rowcache"
	"github.com/esrkit/esrkit/stats"
)

// countingMemo never recalls an interval, so every bootstrap is computed
// as with no memo; it only counts the intervals computed.
type countingMemo struct{ kept atomic.Int64 }

func (m *countingMemo) Recall([32]byte) (stats.BootstrapCI, bool) { return stats.BootstrapCI{}, false }
func (m *countingMemo) Keep([32]byte, stats.BootstrapCI)          { m.kept.Add(1) }

// BenchmarkColdNotebookSuites times what a first `make reproduce` computes
// for the notebooks' suites, with no row cache and no interval memo: per
// suite and benchmark, loading the data, evaluating the rows (the cached
// part) and the suite's Report (its bootstrap intervals). Run it with
// -benchtime 1x: one op is one cold computation.
func BenchmarkColdNotebookSuites(b *testing.B) {
	if testing.Short() {
		b.Skip("evaluates every suite the notebooks need on the bundled data")
	}
	memo := &countingMemo{}
	eval.SetIntervalMemo(memo)
	defer eval.SetIntervalMemo(nil)
	readers, err := lab.DefaultReaders(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	if !lab.Calibrated(readers) {
		b.Fatal("readers are not the calibrated simulated families (is ESR_LLM_MODELS set?)")
	}
	ctx := context.Background()
	benches := map[string]*bench.Bench{}
	for _, name := range []string{"synthetic", "debian", "dyknow", "vdyknow"} {
		b.Run("load/"+name, func(b *testing.B) {
			pprof.Do(ctx, pprof.Labels("suite", "load@"+name, "phase", "load"), func(context.Context) {
				for range b.N {
					bb, err := bench.Load(filepath.Join("..", "..", "data", name))
					if err != nil {
						b.Fatal(err)
					}
					benches[name] = bb
				}
			})
			b.ReportMetric(float64(len(benches[name].QAs)), "questions")
		})
	}
	// The runs esr prepare computes before the notebooks, each once
	// although several notebooks read some.
	for _, nr := range rowcache.NotebookRuns {
		su := nr.Suite.Suite()
		s := rowcache.NotebookSetup(filepath.Join("..", ".."), su, benches[nr.Bench], readers)
		name := nr.String()
		var rows []eval.Outcome
		b.Run(name+"/rows", func(b *testing.B) {
			// Labelled so a CPU profile splits by suite and phase
			// (go tool pprof -tagfocus suite=NAME); evaluation goroutines
			// inherit the labels.
			pprof.Do(ctx, pprof.Labels("suite", name, "phase", "rows"), func(ctx context.Context) {
				for range b.N {
					rows, err = su.Evaluate(ctx, s)
					if err != nil {
						b.Fatal(err)
					}
				}
			})
			if len(rows) == 0 {
				b.Fatalf("%s: no rows", name)
			}
			qids := map[string]bool{}
			for _, o := range rows {
				qids[o.QID] = true
			}
			b.ReportMetric(float64(len(rows)), "rows")
			b.ReportMetric(float64(len(qids)), "questions")
		})
		b.Run(name+"/report", func(b *testing.B) {
			if rows == nil {
				b.Skip("rows not evaluated (filtered out)")
			}
			before := memo.kept.Load()
			pprof.Do(ctx, pprof.Labels("suite", name, "phase", "report"), func(context.Context) {
				for range b.N {
					if _, err := su.Report(rows, s); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.ReportMetric(float64(memo.kept.Load()-before)/float64(b.N), "intervals")
		})
	}
}
