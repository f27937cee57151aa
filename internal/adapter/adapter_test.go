package adapter_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/internal/adapter"
)

// script writes an executable shell adapter.
func script(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "adapter.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// gone reports whether the process pid has ended (a zombie has).
func gone(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] == 'Z' || s[i+2] == 'X'
}

// childPid waits for the adapter to write its child's pid into file.
func childPid(t *testing.T, file string) int {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(file); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err == nil {
				return pid
			}
		}
	}
	t.Fatal("the adapter did not start its child")
	return 0
}

func request() *adapter.Request {
	return &adapter.Request{Op: adapter.OpBuild, Stream: &esr.Stream{ID: "s"}, Atoms: []esr.Atom{}, Relations: []adapter.Pair{}}
}

// Finding 7: the children an adapter started end with it, on a timeout
// and when the run closes it.
func TestAdapterChildrenEndWithIt(t *testing.T) {
	defer func(d time.Duration) { adapter.Timeout = d }(adapter.Timeout)
	adapter.Timeout = 300 * time.Millisecond
	for name, body := range map[string]string{
		"timeout": "read l\nsleep 60\n",
		// It answers in the request's protocol, then waits for the end.
		"close": "read l\np=$(echo \"$l\" | sed 's/.*\"protocol\": *\"\\([^\"]*\\)\".*/\\1/')\n" +
			"echo \"{\\\"protocol\\\":\\\"$p\\\",\\\"id\\\":1,\\\"rows\\\":[]}\"\nread l\n",
	} {
		t.Run(name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "child")
			p := script(t, "sleep 60 &\necho $! > "+pidFile+"\n"+body)
			c, err := adapter.Get(p)
			if err != nil {
				t.Fatal(err)
			}
			child := childPid(t, pidFile)
			_, err = c.Call(request())
			if name == "timeout" && (err == nil || !strings.Contains(err.Error(), "no answer within")) {
				t.Fatalf("error %v", err)
			}
			if name == "close" && err != nil {
				t.Fatal(err)
			}
			adapter.CloseAll()
			for end := time.Now().Add(3 * time.Second); !gone(child); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(end) {
					syscallKill(child)
					t.Fatalf("the adapter's child %d outlived it (%s)", child, name)
				}
			}
		})
	}
}

func syscallKill(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}

// An adapter that still speaks esr-adapter/1 is told what changed.
func TestAdapterProtocolV1(t *testing.T) {
	p := script(t, "read l\necho '{\"protocol\":\"esr-adapter/1\",\"rows\":[]}'\nread l\n")
	defer adapter.CloseAll()
	c, err := adapter.Get(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Call(request()); err == nil || !strings.Contains(err.Error(), `echo each request's "id"`) {
		t.Errorf("error %v", err)
	}
}

// A child that left the adapter's process group and session (setsid), at
// once or through a parent that has exited (a daemon's double fork), still
// ends with the adapter: on a timeout and when the run closes it.
func TestAdapterChildThatLeftTheSessionEndsWithIt(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("no /proc: only the adapter's process group is ended")
	}
	setsid, err := exec.LookPath("setsid")
	if err != nil {
		t.Skip("no setsid")
	}
	defer func(d time.Duration) { adapter.Timeout = d }(adapter.Timeout)
	adapter.Timeout = 300 * time.Millisecond
	const answer = "p=$(echo \"$l\" | sed 's/.*\"protocol\": *\"\\([^\"]*\\)\".*/\\1/')\n" +
		"echo \"{\\\"protocol\\\":\\\"$p\\\",\\\"id\\\":1,\\\"rows\\\":[]}\"\n"
	for _, how := range []struct{ name, start, rest string }{
		{"setsid child, timeout", "%s sh -c 'echo $$ > %s; exec sleep 60' &\n", "read l\nsleep 60\n"},
		{"setsid child, close", "%s sh -c 'echo $$ > %s; exec sleep 60' &\n", "read l\n" + answer + "read l\n"},
		{"orphaned setsid grandchild, close", "(%s sh -c 'echo $$ > %s; exec sleep 60' &)\n", "read l\n" + answer + "read l\n"},
		{"setsid child of an adapter that exits at once on close", "%s sh -c 'echo $$ > %s; exec sleep 60' </dev/null >/dev/null 2>&1 &\n", "read l\n" + answer + "read l\nexit 0\n"},
	} {
		t.Run(how.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "child")
			p := script(t, fmt.Sprintf(how.start, setsid, pidFile)+how.rest)
			c, err := adapter.Get(p)
			if err != nil {
				t.Fatal(err)
			}
			child := childPid(t, pidFile)
			t.Cleanup(func() { syscallKill(child) })
			_, err = c.Call(request())
			if strings.Contains(how.name, "timeout") != (err != nil) {
				t.Fatalf("call: %v", err)
			}
			adapter.CloseAll()
			for end := time.Now().Add(3 * time.Second); !gone(child); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(end) {
					t.Fatalf("the adapter's child %d, in a session of its own, outlived it", child)
				}
			}
		})
	}
}
