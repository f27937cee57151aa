package llm_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/llmtest"
)

// BenchmarkFill: llm.Fill (what `esr run all` and `make llm-cache` use)
// against a local stub that answers after 50 ms, with 8, 64 and 256
// requests in flight (the endpoint's limit), fresh prompts, every answer
// committed to a bbolt cache before it counts. One op sends 10 × limit
// requests. The ideal is limit / 50 ms; the benchmark reports answered
// req/s and its share of that ideal (%ideal), measured in the same run.
// The faults variant fails 40% of attempts at random (429, 500 and
// truncated JSON, cycling) and runs with the client's default retry policy
// (full-jitter backoff from 500 ms, 6 retries); it also reports attempts
// per answer and requests that failed after all retries.
//
//	go test ./esr/llm -run '^$' -bench Fill -benchtime 1x
func BenchmarkFill(b *testing.B) {
	for _, faults := range []float64{0, 0.4} {
		for _, inflight := range []int{8, 64, 256} {
			b.Run(fmt.Sprintf("faults=%.0f%%/inflight=%d", 100*faults, inflight), func(b *testing.B) {
				benchFill(b, inflight, faults)
			})
		}
	}
}

func benchFill(b *testing.B, inflight int, faults float64) {
	const latency = 50 * time.Millisecond
	opt := llmtest.Options{Latency: latency}
	if faults > 0 {
		opt.Fault = llmtest.RandomFaults(faults, 1, "")
	}
	s := llmtest.New(opt)
	defer s.Close()
	cache, err := llm.OpenCache(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer cache.Close()
	pool := llm.NewPool(llm.Env{BaseURL: s.BaseURL(), Concurrency: inflight, Getenv: func(string) string { return "" }}, llm.Config{})
	n := 10 * inflight
	if faults > 0 {
		n = 40 * inflight // amortize the retry tail (a request may back off for seconds)
	}
	var done, failed int
	var el, el95 time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		var seen atomic.Int64
		var at95 atomic.Int64
		observe := func(bool) {
			if seen.Add(1) == int64(n*95/100) {
				at95.Store(int64(time.Since(start)))
			}
		}
		sum, err := llm.Fill(context.Background(), pool, cache, planned("bench", n, i), llm.FillOptions{Observe: observe})
		el += time.Since(start)
		el95 += time.Duration(at95.Load())
		if err != nil {
			b.Fatal(err)
		}
		done += sum.Done
		failed += sum.Failed
	}
	b.StopTimer()
	rps := float64(done) / el.Seconds()
	ideal := float64(inflight) / latency.Seconds()
	b.ReportMetric(rps, "req/s")
	b.ReportMetric(ideal, "ideal-req/s")
	b.ReportMetric(100*rps/ideal, "%ideal")
	// The first 95% of a batch: throughput without the retry tail (the
	// few requests that back off for seconds), what a long run sustains.
	rps95 := float64(b.N*(n*95/100)) / el95.Seconds()
	b.ReportMetric(rps95, "req/s-first95%")
	b.ReportMetric(100*rps95/ideal, "%ideal-first95%")
	b.ReportMetric(float64(s.Hits())/float64(done+failed), "attempts/req")
	b.ReportMetric(float64(failed), "failed")
	b.ReportMetric(float64(s.Peak()), "peak-inflight")
	if s.Peak() > inflight {
		b.Fatalf("%d in flight, limit %d", s.Peak(), inflight)
	}
	b.ReportMetric(0, "ns/op")
}
