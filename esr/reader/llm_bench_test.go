package reader

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/llmtest"
)

// BenchmarkLLMThroughput: a local stub answering every request after 50 ms,
// a client limited to 32 requests in flight, fresh prompts (no cache hits;
// each response is committed to the cache, fsync included, before its Read
// returns). ReadAll keeps 64 items in flight so that cache commits overlap
// the 32 requests instead of idling a request slot; the stub's observed
// peak concurrency is reported (it must stay ≤ 32). The ideal is
// 32 / 50 ms = 640 requests/s; the benchmark reports req/s and its share of
// the ideal.
//
//	go test ./esr/reader -run '^$' -bench LLMThroughput -benchtime 5x
func BenchmarkLLMThroughput(b *testing.B) {
	const (
		latency = 50 * time.Millisecond
		conc    = 32
		batch   = 640
	)
	srv := llmtest.New(llmtest.Options{Latency: latency, Reply: echoValue})
	defer srv.Close()
	cfg := llm.Setup{CacheDir: b.TempDir(), Concurrency: conc, BaseURL: srv.BaseURL(), APIKey: testKey,
		Getenv: func(string) string { return "" }}
	rs, err := ParseList("llm:bench", cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer closeAll(rs)
	// Warm the connection pool.
	if _, err := ReadAll(context.Background(), rs[0], benchInputs(-1, conc), BatchOptions{Concurrency: conc}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := ReadAll(context.Background(), rs[0], benchInputs(i, batch), BatchOptions{Concurrency: 2 * conc}); err != nil {
			b.Fatal(err)
		}
	}
	el := time.Since(start)
	rps := float64(batch*b.N) / el.Seconds()
	ideal := float64(conc) / latency.Seconds()
	b.ReportMetric(rps, "req/s")
	b.ReportMetric(100*rps/ideal, "%ideal")
	b.ReportMetric(float64(srv.Peak()), "peak-inflight")
	if srv.Peak() > conc {
		b.Fatalf("%d requests in flight, limit %d", srv.Peak(), conc)
	}
	b.ReportMetric(0, "ns/op")
}

// BenchmarkLLMCachedRerun: 10,000 items, all cached; one op is one full
// rerun (no request may be sent).
//
//	go test ./esr/reader -run '^$' -bench LLMCachedRerun -benchtime 5x
func BenchmarkLLMCachedRerun(b *testing.B) {
	const n = 10000
	srv := llmtest.New(llmtest.Options{Reply: echoValue})
	defer srv.Close()
	cfg := llm.Setup{CacheDir: b.TempDir(), Concurrency: 64, BaseURL: srv.BaseURL(), APIKey: testKey,
		Getenv: func(string) string { return "" }}
	rs, err := ParseList("llm:bench", cfg, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer closeAll(rs)
	ins := benchInputs(0, n)
	if _, err := ReadAll(context.Background(), rs[0], ins, BatchOptions{Concurrency: 64}); err != nil {
		b.Fatal(err)
	}
	hits := srv.Hits()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		outs, err := ReadAll(context.Background(), rs[0], ins, BatchOptions{Concurrency: 8})
		if err != nil {
			b.Fatal(err)
		}
		if !outs[n-1].Cached {
			b.Fatal("not cached")
		}
	}
	b.StopTimer()
	if srv.Hits() != hits {
		b.Fatalf("cached rerun sent %d requests", srv.Hits()-hits)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/rerun")
}

func benchInputs(round, n int) []Input {
	ins := make([]Input, n)
	for i := range ins {
		ins[i] = Input{QID: fmt.Sprint(i), Question: "What request_timeout is in force?", QueryType: esr.Snapshot,
			Context: fmt.Sprintf("round %d\nservice / request_timeout: %d s (as of 2024-03-01)", round, i), MayAbstain: true}
	}
	return ins
}
