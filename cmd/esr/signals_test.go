package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stuckRunEnv makes the test binary a run whose clean stop is stuck
// (stuckRun).
const stuckRunEnv = "ESRKIT_TEST_STUCK_RUN"

// stuckRun handles signals as esr does (endAdaptersOnTermination, an
// interruptContext), says "ready", says "cancelled" when the first SIGINT
// cancels its context, and then does not return, as a run blocked in a read
// does not.
func stuckRun() {
	defer endAdaptersOnTermination()()
	ctx, stop := interruptContext()
	defer stop()
	fmt.Println("ready")
	<-ctx.Done()
	fmt.Println("cancelled")
	time.Sleep(time.Hour)
	os.Exit(0)
}

// The first SIGINT asks a run to stop cleanly; a second ends esr at once,
// even when the run cannot stop (a second SIGINT used to be ignored, so a
// run stuck hashing a FIFO could not be interrupted at all).
func TestASecondInterruptEndsEsr(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), stuckRunEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	lines := make(chan string, 2)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		exited <- cmd.Wait()
	}()
	defer cmd.Process.Kill() // a failed test leaves no process behind
	expect := func(want string) {
		t.Helper()
		select {
		case l := <-lines:
			if l != want {
				t.Fatalf("the run says %q, want %q", l, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("the run did not say %q within 5 s", want)
		}
	}
	expect("ready")
	cmd.Process.Signal(syscall.SIGINT)
	expect("cancelled")
	select {
	case err := <-exited:
		t.Fatalf("the first SIGINT ended the process (%v); it is the run's to handle", err)
	case <-time.After(300 * time.Millisecond):
	}
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-exited:
		ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if err == nil || !ok || !ws.Signaled() || ws.Signal() != syscall.SIGINT {
			t.Errorf("after the second SIGINT: %v, want ended by SIGINT", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the process still runs 5 s after a second SIGINT")
	}
}

// An adapter whose hello names a FIFO: esr eval fails at once, naming it
// (opening the FIFO to hash it used to wait for a writer for ever, and
// esr hung for over ten minutes).
func TestEvalRefusesAnAdapterNamingAFIFO(t *testing.T) {
	b := smallBench(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "impl.pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	answer := `{"protocol":"esr-adapter/2","id":1,"rows":[],"adapter":{"version":"v1","files":["impl.pipe"]}}`
	adapterPath := filepath.Join(dir, "adapter.sh")
	os.WriteFile(adapterPath, []byte("#!/bin/sh\nread l\necho '"+answer+"'\nwhile read l; do echo '{\"protocol\":\"esr-adapter/2\",\"id\":0,\"rows\":[]}'; done\n"), 0o755)
	cmd, _, errb := cliProcess(t, nil, "eval", "--bench", b, "--memory", "exec:"+adapterPath,
		"--reader", "oracle", "--out", filepath.Join(t.TempDir(), "rows.jsonl"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err == nil || !strings.Contains(errb.String(), "impl.pipe") || !strings.Contains(errb.String(), "not a regular file") {
			t.Errorf("exit %v, stderr %q; want an error naming impl.pipe as not a regular file", err, errb)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-exited
		t.Fatalf("esr eval still running after 10 s")
	}
}
