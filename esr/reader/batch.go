package reader

import (
	"context"
	"sync"

	"github.com/esrkit/esrkit/internal/workpool"
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
	outs := make([]Output, len(ins))
	var (
		mu   sync.Mutex
		done int
	)
	err := workpool.Run(ctx, len(ins), opt.Concurrency, func(ctx context.Context, i int) error {
		o, err := r.Read(ctx, ins[i])
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		outs[i] = o
		done++
		if opt.Progress != nil {
			opt.Progress(done, len(ins))
		}
		return nil
	})
	return outs, err
}
