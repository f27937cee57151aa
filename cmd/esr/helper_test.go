package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// TestMain doubles as the esr command for tests that need another process
// (two runs on one output, a full disk): with ESRKIT_TEST_CLI set to the
// JSON list of arguments, the test binary runs the CLI and exits. With
// ESRKIT_TEST_FSIZE=N it may write no file beyond N bytes (RLIMIT_FSIZE:
// writes past it fail as on a full disk).
func TestMain(m *testing.M) {
	if os.Getenv(stuckRunEnv) != "" {
		stuckRun()
	}
	if a := os.Getenv("ESRKIT_TEST_CLI"); a != "" {
		var args []string
		if err := json.Unmarshal([]byte(a), &args); err != nil {
			panic(err)
		}
		if n := os.Getenv("ESRKIT_TEST_FSIZE"); n != "" {
			var lim uint64
			json.Unmarshal([]byte(n), &lim)
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: lim, Max: lim}); err != nil {
				panic(err)
			}
		}
		os.Exit(runMain(args, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// cliProcess is the esr command with args, as a process of its own (not
// started); env adds variables.
func cliProcess(t *testing.T, env []string, args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	a, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), "ESRKIT_TEST_CLI="+string(a)), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t.Cleanup(func() {
		if cmd.Process != nil && cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd, &out, &errb
}
