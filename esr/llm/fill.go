package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// maxFillItems bounds the items in flight per model (unless the limit
// itself needs more).
const maxFillItems = 1024

// FillOptions configure Fill.
type FillOptions struct {
	// Progress receives a progress line per model every Interval (default
	// 10 s) and a final one; nil: none.
	Progress io.Writer
	Interval time.Duration
	// ItemsPerSlot is the requests kept in flight per request slot of the
	// endpoint's limit (default 16, at most 1024 items unless the limit is
	// above 512). Retries wait without holding a slot, so under faults more
	// items than slots keep the endpoint busy.
	ItemsPerSlot int
	// Observe, when set, is called after each request with whether it was
	// answered (from several goroutines at once).
	Observe func(answered bool)
	// MaxFailureLines bounds the failures kept per model in the summary
	// (default 20).
	MaxFailureLines int
}

// ModelSummary is one model's part of a fill.
type ModelSummary struct {
	Model    string `json:"model"`
	Endpoint string `json:"endpoint"`
	Limit    int    `json:"concurrency"`
	// ToSend requests were missing; Done were answered and cached; Failed
	// gave up after retries (left uncached: rerun to retry them).
	ToSend int `json:"to_send"`
	Done   int `json:"done"`
	Failed int `json:"failed"`
	// Stopped says why the model's requests stopped before all were sent:
	// its endpoint is down (the circuit breaker opened; see
	// EndpointDownError). NotSent requests were then never sent.
	Stopped string `json:"stopped,omitempty"`
	NotSent int    `json:"not_sent,omitempty"`
	// Attempts are HTTP requests sent (retries included); Retries the
	// transient failures retried.
	Attempts  int64    `json:"attempts"`
	Retries   int64    `json:"retries"`
	Seconds   float64  `json:"seconds"`
	PerSecond float64  `json:"requests_per_second"`
	Failures  []string `json:"failures,omitempty"`
}

// FillSummary is what Fill did.
type FillSummary struct {
	Models  []ModelSummary `json:"models"`
	ToSend  int            `json:"to_send"`
	Done    int            `json:"done"`
	Failed  int            `json:"failed"`
	Seconds float64        `json:"seconds"`
}

// Fill sends the planned requests and stores the answers in c, each
// model's requests through its endpoint's client from pool, all models at
// once. A request that fails after its retries (an error, an empty or cut
// reply) is counted and left out of the cache; the others go on, until the
// endpoint's circuit breaker opens: then that endpoint's models stop at
// once (ModelSummary.Stopped) while other endpoints go on. Interrupting
// (ctx) stops soon; every answer received so far is in the cache, so
// running Fill again on a new plan resumes. The error is ctx's, or a setup
// error (a model without endpoint).
func Fill(ctx context.Context, pool *Pool, c *Cache, reqs []Planned, opt FillOptions) (FillSummary, error) {
	if opt.ItemsPerSlot <= 0 {
		opt.ItemsPerSlot = 16
	}
	if opt.Interval <= 0 {
		opt.Interval = 10 * time.Second
	}
	if opt.MaxFailureLines <= 0 {
		opt.MaxFailureLines = 20
	}
	byModel := map[string][]Planned{}
	var models []string
	for _, p := range reqs {
		if byModel[p.Request.Model] == nil {
			models = append(models, p.Request.Model)
		}
		byModel[p.Request.Model] = append(byModel[p.Request.Model], p)
	}
	sort.Strings(models)
	type state struct {
		sum          ModelSummary
		client       *Client
		base         Stats
		done, failed atomic.Int64
		ctx          context.Context // the model's: cancelled when its endpoint is down
		stop         context.CancelFunc
		mu           sync.Mutex
		start        time.Time
		end          time.Time
	}
	states := make([]*state, len(models))
	for i, m := range models {
		cl, err := pool.Client(m)
		if err != nil {
			return FillSummary{}, err
		}
		ep, _ := pool.Env.Endpoint(m)
		states[i] = &state{client: cl, base: cl.ModelStats(m), start: time.Now(),
			sum: ModelSummary{Model: m, Endpoint: stripURL(ep.BaseURL), Limit: cl.Concurrency(), ToSend: len(byModel[m])}}
		states[i].ctx, states[i].stop = context.WithCancel(ctx)
		defer states[i].stop()
	}
	start := time.Now()
	line := func(s *state, final bool) string {
		d, f := s.done.Load(), s.failed.Load()
		st := s.client.ModelStats(s.sum.Model)
		s.mu.Lock()
		el := time.Since(s.start)
		if !s.end.IsZero() {
			el = s.end.Sub(s.start)
		}
		s.mu.Unlock()
		rate := 0.0
		if el > 0 {
			rate = float64(d+f) / el.Seconds()
		}
		eta := "-"
		if rest := int64(s.sum.ToSend) - d - f; rest > 0 && rate > 0 {
			eta = (time.Duration(float64(rest) / rate * float64(time.Second))).Round(time.Second).String()
		}
		tag := "fill"
		if final {
			tag = "done"
		}
		s.mu.Lock()
		stopped := s.sum.Stopped
		s.mu.Unlock()
		if stopped != "" {
			tag = "STOPPED"
		}
		return fmt.Sprintf("llm %s %s: %d/%d answered, %d failed, %.1f req/s, eta %s, %d retries (%d attempts)",
			tag, s.sum.Model, d, s.sum.ToSend, f, rate, eta, st.Retries-s.base.Retries, st.Requests-s.base.Requests)
	}
	stopTicker := make(chan struct{})
	var tickWG sync.WaitGroup
	if opt.Progress != nil && len(models) > 0 {
		tickWG.Add(1)
		go func() {
			defer tickWG.Done()
			t := time.NewTicker(opt.Interval)
			defer t.Stop()
			for {
				select {
				case <-t.C:
					for _, s := range states {
						s.mu.Lock()
						ended := !s.end.IsZero()
						s.mu.Unlock()
						if !ended {
							fmt.Fprintln(opt.Progress, line(s, false))
						}
					}
				case <-stopTicker:
					return
				}
			}
		}()
	}
	var wg sync.WaitGroup
	for i, m := range models {
		s := states[i]
		jobs := make(chan Planned)
		// Enough items to keep every slot busy while others back off, but
		// not thousands of goroutines competing for a small machine.
		workers := s.client.Concurrency() * opt.ItemsPerSlot
		if workers > maxFillItems {
			workers = max(maxFillItems, 2*s.client.Concurrency())
		}
		if workers > len(byModel[m]) {
			workers = len(byModel[m])
		}
		var mwg sync.WaitGroup
		for w := 0; w < workers; w++ {
			mwg.Add(1)
			go func() {
				defer mwg.Done()
				for p := range jobs {
					_, _, err := Cached(s.ctx, s.client, c, p.Template, p.Request)
					if errors.Is(err, ErrEndpointDown) {
						s.mu.Lock()
						if s.sum.Stopped == "" {
							s.sum.Stopped = err.Error()
						}
						s.mu.Unlock()
						s.stop()
						continue
					}
					if opt.Observe != nil && s.ctx.Err() == nil {
						opt.Observe(err == nil)
					}
					if err != nil {
						if s.ctx.Err() != nil {
							continue
						}
						s.failed.Add(1)
						s.mu.Lock()
						if len(s.sum.Failures) < opt.MaxFailureLines {
							s.sum.Failures = append(s.sum.Failures, err.Error())
						}
						s.mu.Unlock()
						continue
					}
					s.done.Add(1)
				}
			}()
		}
		wg.Add(1)
		go func(m string) {
			defer wg.Done()
		feed:
			for _, p := range byModel[m] {
				select {
				case jobs <- p:
				case <-s.ctx.Done():
					break feed
				}
			}
			close(jobs)
			mwg.Wait()
			s.mu.Lock()
			s.end = time.Now()
			s.mu.Unlock()
			if opt.Progress != nil {
				fmt.Fprintln(opt.Progress, line(s, true))
			}
		}(m)
	}
	wg.Wait()
	close(stopTicker)
	tickWG.Wait()
	var sum FillSummary
	for _, s := range states {
		st := s.client.ModelStats(s.sum.Model)
		s.sum.Done, s.sum.Failed = int(s.done.Load()), int(s.failed.Load())
		if s.sum.Stopped != "" {
			s.sum.NotSent = s.sum.ToSend - s.sum.Done - s.sum.Failed
		}
		s.sum.Attempts, s.sum.Retries = st.Requests-s.base.Requests, st.Retries-s.base.Retries
		s.sum.Seconds = s.end.Sub(s.start).Seconds()
		if s.sum.Seconds > 0 {
			s.sum.PerSecond = float64(s.sum.Done) / s.sum.Seconds
		}
		sum.Models = append(sum.Models, s.sum)
		sum.ToSend += s.sum.ToSend
		sum.Done += s.sum.Done
		sum.Failed += s.sum.Failed
	}
	sum.Seconds = time.Since(start).Seconds()
	return sum, ctx.Err()
}
