package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/esrkit/esrkit/esr/memory"
)

// An exec: adapter runs in a process group of its own (so that a timeout
// ends its children too), which also means a signal to esr does not reach
// it: esr ends it itself.

// endAdaptersOnTermination makes SIGTERM and SIGHUP, until stop, end every
// exec: adapter's process group and then end esr as the signal would have
// (its default action). Rows are appended whole, one write each, so nothing
// finished is lost.
func endAdaptersOnTermination() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			memory.InterruptAdapters()
			signal.Reset(sig)
			syscall.Kill(os.Getpid(), sig.(syscall.Signal))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// interruptContext is signal.NotifyContext(context.Background(),
// os.Interrupt) that also ends every exec: adapter at once on the
// interrupt, so that a call in flight returns (saying it was interrupted)
// instead of waiting out the adapter's timeout.
func interruptContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
			cancel() // first, so that no new item starts
			memory.InterruptAdapters()
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}
