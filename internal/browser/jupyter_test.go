package browser

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestMarkedProcesses checks what Jupyter.Close and Leftovers rely on: a
// process started with the server's marker in its environment (as kernels
// and their programs inherit it) is found, and one without it is not. It
// needs no browser and always runs.
func TestMarkedProcesses(t *testing.T) {
	marker := randomHex(8)
	marked := exec.Command("sleep", "30")
	marked.Env = append(os.Environ(), markerEnv+"="+marker)
	other := exec.Command("sleep", "30")
	other.Env = append(os.Environ(), markerEnv+"="+marker+"x") // a prefix is not a match
	for _, c := range []*exec.Cmd{marked, other} {
		if err := c.Start(); err != nil {
			t.Skipf("cannot start sleep: %v", err)
		}
		defer func() { c.Process.Kill(); c.Wait() }()
	}
	found := markedProcesses(marker)
	if len(found) != 1 || found[0].pid != marked.Process.Pid || !strings.HasPrefix(found[0].args, "sleep 30") {
		t.Fatalf("markedProcesses = %v, want only pid %d (sleep 30)", found, marked.Process.Pid)
	}
	marked.Process.Kill()
	marked.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for len(markedProcesses(marker)) > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if left := markedProcesses(marker); len(left) > 0 {
		t.Errorf("a killed and reaped process is still listed: %v", left)
	}
}

// TestRedaction checks that Jupyter's token stays out of logs and messages.
func TestRedaction(t *testing.T) {
	var log lockedBuffer
	w := &redactWriter{w: &log, secret: "s3cr3t"}
	w.Write([]byte("http://127.0.0.1:1/?token=s3cr3t\n"))
	if strings.Contains(log.String(), "s3cr3t") {
		t.Errorf("log kept the token: %q", log.String())
	}
	if got := short("http://127.0.0.1:1/notebooks/a.ipynb?token=s3cr3t&x=1"); strings.Contains(got, "s3cr3t") {
		t.Errorf("short kept the token: %q", got)
	}
}
