package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/esrkit/esrkit/esr/memory"
)

// An exec: adapter runs in a process group of its own (so that a timeout
// ends its children too), which also means a signal to esr does not reach
// it: esr ends it itself.

// graceful counts the interruptContexts in use: while one is, an interrupt
// is theirs to handle.
var graceful atomic.Int32

// endAdaptersOnTermination makes SIGTERM and SIGHUP, until stop, end every
// exec: adapter's process group and then end esr as the signal would have
// (its default action); SIGINT too, unless an interruptContext handles it
// (a run that stops cleanly). A second SIGINT ends esr at once even then:
// a run whose clean stop is itself stuck (a read that does not return)
// must not make the user's Ctrl-C useless. Rows are appended whole, one
// write each, so nothing finished is lost.
func endAdaptersOnTermination() (stop func()) {
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGHUP, os.Interrupt)
	done := make(chan struct{})
	go func() {
		interrupts := 0
		for {
			select {
			case sig := <-ch:
				if sig == os.Interrupt && graceful.Load() > 0 {
					if interrupts++; interrupts == 1 {
						continue
					}
					fmt.Fprintln(os.Stderr, "esr: interrupted again: stopping now")
				}
				memory.InterruptAdapters()
				signal.Reset(sig)
				syscall.Kill(os.Getpid(), sig.(syscall.Signal))
				return
			case <-done:
				return
			}
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
	graceful.Add(1)
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
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel()
			graceful.Add(-1)
		})
	}
}
