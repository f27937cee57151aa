package browser

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// scripts/run-notebooks.sh executes the notebooks through scripts/nbexec.py
// (nbclient, no nbconvert start-up; one Python process for all of them). Run on a notebook that works and one
// whose second cell panics and third does not compile: the first is "ok",
// the second FAIL, naming each failing cell with the panic and the compiler
// message; every cell of it still ran (the first cell's output is in the
// executed copy), the copy is written, and the script exits non-zero.
func TestRunNotebooksReportsFailingCells(t *testing.T) {
	root, path, work := runnerSetup(t)
	good, bad := filepath.Join(work, "good.ipynb"), filepath.Join(work, "bad.ipynb")
	writeNotebook(t, good, "%%\nfmt.Println(\"fine\")")
	writeNotebook(t, bad, "%%\nfmt.Println(\"before the failures\")", "%%\npanic(\"boom\")", "%%\nx := undefinedThing\n_ = x")
	out := filepath.Join(work, "out")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(root, "scripts", "run-notebooks.sh"), out, good, bad)
	cmd.Env = append(os.Environ(), "PATH="+path, "ESRKIT_NB_JOBS=2")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("run-notebooks.sh: %v (want exit status 1)\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	for _, want := range []string{"ok   " + good, "1 passed, 1 failed"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
	for _, want := range []string{"FAIL " + bad + ": cell 1 (code cell #2) raised an error", "boom",
		"FAIL " + bad + ": cell 2 (code cell #3) raised an error", "undefined: undefinedThing", "failed notebooks: " + bad} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	copy, err := os.ReadFile(filepath.Join(out, "bad.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(copy), "before the failures") {
		t.Errorf("the executed copy lacks the first cell's output")
	}
	for name, want := range map[string]string{"good.status": "ok ", "bad.status": "FAIL "} {
		if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || !strings.HasPrefix(string(b), want) {
			t.Errorf("%s = %q, %v; want it to start %q", name, b, err, want)
		}
	}
}

// A notebook path that does not exist is one line naming it and exit 2,
// before any kernel starts: no Python traceback, and nothing run.
func TestRunNotebooksRefusesAMissingNotebook(t *testing.T) {
	root, path, work := runnerSetup(t)
	good, missing := filepath.Join(work, "good.ipynb"), filepath.Join(work, "typo.ipynb")
	writeNotebook(t, good, "%%\nfmt.Println(\"fine\")")
	out := filepath.Join(work, "out")
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "run-notebooks.sh"), out, good, missing)
	cmd.Env = append(os.Environ(), "PATH="+path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("run-notebooks.sh: %v (want exit status 2)\nstderr:\n%s", err, stderr.String())
	}
	want := "run-notebooks: " + missing + ": no such notebook"
	if got := strings.TrimSpace(stderr.String()); !strings.HasPrefix(got, want) || strings.Count(got, "\n") != 0 {
		t.Errorf("stderr = %q, want the one line %q…", got, want)
	}
	if _, err := os.Stat(filepath.Join(out, "good.status")); err == nil {
		t.Error("good.ipynb ran although another named notebook is missing")
	}
}

// A notebook that does not run to its end (here a cell past nbexec.py's
// timeout) is FAIL with the reason from its log, while the notebook run
// beside it in the same process passes: one notebook's failure is its own.
func TestNbexecReportsANotebookThatDidNotEnd(t *testing.T) {
	root, path, work := runnerSetup(t)
	good, slow := filepath.Join(work, "good.ipynb"), filepath.Join(work, "slow.ipynb")
	writeNotebook(t, good, "%%\nfmt.Println(\"fine\")")
	writeNotebook(t, slow, "%%\ntime.Sleep(5 * time.Minute)")
	out := filepath.Join(work, "out")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(root, "scripts", "jupyter-env.sh"), "python3",
		filepath.Join(root, "scripts", "nbexec.py"), "--outdir", out, "--jobs", "2", "--timeout", "20", slow, good)
	cmd.Env = append(os.Environ(), "PATH="+path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("nbexec.py: %v (want exit status 1)\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	if want := "ok   " + good; !strings.Contains(stdout.String(), want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
	}
	for _, want := range []string{"FAIL " + slow + ": the notebook did not run to its end", "CellTimeoutError"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	for name, want := range map[string]string{"good.status": "ok ", "slow.status": "FAIL "} {
		if b, err := os.ReadFile(filepath.Join(out, name)); err != nil || !strings.HasPrefix(string(b), want) {
			t.Errorf("%s = %q, %v; want it to start %q", name, b, err, want)
		}
	}
}

// runnerSetup skips without Jupyter and returns the repository root, the
// PATH the script runs with and an empty folder for its notebooks.
func runnerSetup(t *testing.T) (root, path, work string) {
	t.Helper()
	RequireJupyter(t)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	if path, err = goPath(); err != nil {
		t.Fatal(err)
	}
	return root, path, t.TempDir()
}
