// Package workpool is the kit's one worker pool: n jobs, a bounded number
// at a time, the first error cancelling the rest (golang.org/x/sync's
// errgroup with a limit). Readers' batches, the extractor and the
// evaluation loop all run on it.
package workpool

import (
	"context"

	"golang.org/x/sync/errgroup"
)

// Run calls fn(ctx, i) for every i in [0, n), at most workers at a time
// (at least one), in index order of start. The first error cancels the ctx
// the other calls see, no further job starts, and Run returns that error
// once the calls in flight have returned. Without an error it returns the
// parent's ctx.Err() (nil unless the caller cancelled).
func Run(ctx context.Context, n, workers int, fn func(ctx context.Context, i int) error) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(workers, 1))
	for i := 0; i < n && gctx.Err() == nil; i++ {
		g.Go(func() error { return fn(gctx, i) })
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}
