package reader

import (
	"context"
	"sync"
)

// BatchOptions configure ReadAll.
type BatchOptions struct {
	// Concurrency is the number of items in flight (default 1). LLM readers
	// also respect their client's own limit on requests in flight; give
	// about twice that limit here so cache lookups and commits overlap the
	// requests instead of idling a request slot.
	Concurrency int
	// Progress, when set, is called after each finished item with (done,
	// total); it may be called from several goroutines, never concurrently.
	// llm.TerminalProgress draws a bar; notebooks can pass their own.
	Progress func(done, total int)
}

// ReadAll reads every input with r, opt.Concurrency at a time, and returns
// the outputs in input order. The first error stops the rest (items in
// flight finish or see the cancelled context) and is returned with the
// outputs finished so far (unfinished ones are zero).
func ReadAll(ctx context.Context, r Reader, ins []Input, opt BatchOptions) ([]Output, error) {
	n := opt.Concurrency
	if n < 1 {
		n = 1
	}
	outs := make([]Output, len(ins))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	var (
		mu       sync.Mutex
		done     int
		firstErr error
		wg       sync.WaitGroup
	)
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				o, err := r.Read(ctx, ins[i])
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
						cancel()
					}
					mu.Unlock()
					continue
				}
				outs[i] = o
				done++
				if opt.Progress != nil {
					opt.Progress(done, len(ins))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range ins {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return outs, firstErr
	}
	return outs, ctx.Err()
}
