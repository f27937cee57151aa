package workpool

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Every job runs once, never more than workers at a time.
func TestRunBoundsConcurrency(t *testing.T) {
	var running, peak atomic.Int32
	seen := make([]int32, 50)
	err := Run(context.Background(), len(seen), 3, func(ctx context.Context, i int) error {
		r := running.Add(1)
		for {
			p := peak.Load()
			if r <= p || peak.CompareAndSwap(p, r) {
				break
			}
		}
		time.Sleep(time.Millisecond)
		atomic.AddInt32(&seen[i], 1)
		running.Add(-1)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range seen {
		if n != 1 {
			t.Errorf("job %d ran %d times", i, n)
		}
	}
	if p := peak.Load(); p > 3 || p < 1 {
		t.Errorf("peak concurrency %d, want 1..3", p)
	}
}

// The first error is returned, cancels the jobs in flight and stops the
// rest from starting.
func TestRunFirstErrorStops(t *testing.T) {
	boom := errors.New("boom")
	var mu sync.Mutex
	started := 0
	err := Run(context.Background(), 1000, 2, func(ctx context.Context, i int) error {
		mu.Lock()
		started++
		mu.Unlock()
		if i == 3 {
			return boom
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond):
			return nil
		}
	})
	if !errors.Is(err, boom) {
		t.Fatalf("got %v, want boom", err)
	}
	if started > 10 {
		t.Errorf("%d jobs started after the error; want the rest stopped", started)
	}
}

// A cancelled parent is reported even when no job fails.
func TestRunParentCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := 0
	err := Run(ctx, 5, 1, func(context.Context, int) error { ran++; return nil })
	if !errors.Is(err, context.Canceled) || ran != 0 {
		t.Errorf("err %v, %d jobs ran; want context.Canceled and none", err, ran)
	}
	if err := Run(context.Background(), 0, 4, nil); err != nil {
		t.Errorf("no jobs: %v", err)
	}
}
