package browser

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// DefaultJupyter is Debian's Jupyter (classic notebook 6.x on /usr/bin/python3),
// installed by scripts/setup.sh; the pyenv python3 first on PATH has no Jupyter.
const DefaultJupyter = "/usr/bin/jupyter"

// markerEnv names the variable that StartJupyter puts in the server's
// environment with a value unique to the server. Kernels inherit it, and so
// do the programs they start (GoNB's go build and cell binaries), which is
// how Close and Leftovers find them: jupyter_client starts each kernel in a
// session of its own, out of the server's process group.
const markerEnv = "ESRKIT_BROWSER_JUPYTER"

// jupyterStartTimeout bounds the server's start (Python imports, ~2-5 s).
const jupyterStartTimeout = 60 * time.Second

// Jupyter is a classic Jupyter Notebook server serving one folder on
// 127.0.0.1, with a random token, started by [StartJupyter].
type Jupyter struct {
	base    string // http://127.0.0.1:PORT/
	token   string
	marker  string
	runtime string // JUPYTER_RUNTIME_DIR: connection files, removed on Close
	cmd     *exec.Cmd
	exited  chan struct{} // closed when the server process has exited
	waitErr error

	closeOnce sync.Once
	mu        sync.Mutex
	leftovers []string
}

// StartJupyter starts `/usr/bin/jupyter notebook` serving dir (--notebook-dir)
// on a free port of 127.0.0.1, with a random token and no browser, and waits
// until its /api/status answers. The server's output (with the token
// redacted) goes to logw, which may be nil.
//
// The server's environment is the caller's with PATH starting with
// $(go env GOPATH)/bin (gonb, goimports) and Go's own bin folder, and with
// ESRKIT_ROOT set to the repository root (see [RepoRoot]): the same as
// scripts/run-notebooks.sh gives the notebooks it runs; ESRKIT_NONINTERACTIVE
// is cleared, since this server has a browser. Cancelling ctx kills
// the server.
func StartJupyter(ctx context.Context, dir string, logw io.Writer) (*Jupyter, error) {
	if _, err := os.Stat(DefaultJupyter); err != nil {
		return nil, fmt.Errorf("browser: Jupyter not found at %s (run scripts/setup.sh): %w", DefaultJupyter, err)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("browser: notebook dir: %w", err)
	}
	root, err := RepoRoot()
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, fmt.Errorf("browser: finding a free port for Jupyter: %w", err)
	}
	runtimeDir, err := os.MkdirTemp("", "esrkit-jupyter-runtime-")
	if err != nil {
		return nil, fmt.Errorf("browser: %w", err)
	}
	j := &Jupyter{
		base:    fmt.Sprintf("http://127.0.0.1:%d/", port),
		token:   randomHex(24),
		marker:  randomHex(8),
		runtime: runtimeDir,
		exited:  make(chan struct{}),
	}
	if logw == nil {
		logw = io.Discard
	}
	out := &redactWriter{w: logw, secret: j.token}

	path, err := goPath()
	if err != nil {
		os.RemoveAll(runtimeDir)
		return nil, err
	}
	args := []string{"notebook",
		"--no-browser",
		"--ip=127.0.0.1",
		"--port=" + strconv.Itoa(port),
		"--port-retries=0", // the URL names this port: fail rather than move
		"--notebook-dir=" + dir,
		"--NotebookApp.token=" + j.token,
		"--NotebookApp.password=",
		"--NotebookApp.open_browser=False",
		"--log-level=INFO",
	}
	if os.Geteuid() == 0 {
		args = append(args, "--allow-root") // CI runs as root; the server is on 127.0.0.1 only
	}
	j.cmd = exec.Command(DefaultJupyter, args...)
	j.cmd.Dir = dir
	j.cmd.Env = append(os.Environ(),
		"PATH="+path,
		"ESRKIT_ROOT="+root,
		// A live server has a browser: widgets must not fall back to their
		// static view (nbhelp.NonInteractiveEnv) even when the caller's
		// shell marks its own runs non-interactive.
		"ESRKIT_NONINTERACTIVE=",
		"JUPYTER_RUNTIME_DIR="+runtimeDir,
		"PYDEVD_DISABLE_FILE_VALIDATION=1", // silences debugpy's "frozen modules" warning
		markerEnv+"="+j.marker,
	)
	j.cmd.Stdout, j.cmd.Stderr = out, out
	j.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // Close kills the group
	if err := j.cmd.Start(); err != nil {
		os.RemoveAll(runtimeDir)
		return nil, fmt.Errorf("browser: starting %s notebook: %w", DefaultJupyter, err)
	}
	go func() {
		j.waitErr = j.cmd.Wait()
		close(j.exited)
	}()
	stop := context.AfterFunc(ctx, j.Close)
	if err := j.waitReady(ctx); err != nil {
		stop()
		j.Close()
		return nil, err
	}
	return j, nil
}

// waitReady polls /api/status until the server answers 200.
func (j *Jupyter) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(jupyterStartTimeout)
	var last error
	for time.Now().Before(deadline) {
		select {
		case <-j.exited:
			return fmt.Errorf("browser: Jupyter exited before answering (%v); see its log", j.waitErr)
		case <-ctx.Done():
			return fmt.Errorf("browser: waiting for Jupyter: %w", ctx.Err())
		default:
		}
		resp, err := j.api(ctx, http.MethodGet, "api/status")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("HTTP %s", resp.Status)
		}
		last = err
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("browser: Jupyter's %sapi/status did not answer within %s (last: %v)", j.base, jupyterStartTimeout, last)
}

// api sends an authenticated request to the server.
func (j *Jupyter) api(ctx context.Context, method, path string) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	req, err := http.NewRequestWithContext(ctx, method, j.APIURL(path), nil)
	if err != nil {
		cancel()
		return nil, err
	}
	req.Header.Set("Authorization", "token "+j.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// URL returns the address of a file under the served folder in the notebook
// UI (/notebooks/PATH), with the token, for a browser to open. The token
// also sets the login cookie, so later pages of the server need none.
func (j *Jupyter) URL(path string) string {
	return j.base + "notebooks/" + escapePath(path) + "?token=" + j.token
}

// APIURL returns the address of a server path without the token (the API
// takes it in a header), e.g. APIURL("api/kernels").
func (j *Jupyter) APIURL(path string) string {
	return j.base + strings.TrimPrefix(path, "/")
}

// Token returns the server's token (keep it out of logs).
func (j *Jupyter) Token() string { return j.token }

// Redact replaces the token in s, for messages that quote a URL.
func (j *Jupyter) Redact(s string) string {
	return strings.ReplaceAll(s, j.token, "REDACTED")
}

// Close stops the server and every process it started. In order: the
// server's own /api/shutdown (the server then shuts its kernels down
// cleanly), SIGTERM and then SIGKILL to the server's process group, and
// SIGKILL to any process still carrying the server's marker (kernels and
// their children run in sessions of their own, out of the server's group).
// The processes that outlived the orderly steps are kept for [Jupyter.Leftovers].
// Close is safe to call more than once and from several goroutines: every
// call returns once the shutdown is complete (the end of StartJupyter's ctx
// calls it too).
func (j *Jupyter) Close() { j.closeOnce.Do(j.close) }

func (j *Jupyter) close() {
	if resp, err := j.api(context.Background(), http.MethodPost, "api/shutdown"); err == nil {
		resp.Body.Close()
	}
	pgid := j.cmd.Process.Pid
	if !waitClosed(j.exited, 15*time.Second) {
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		if !waitClosed(j.exited, 5*time.Second) {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-j.exited
		}
	}
	// The server is gone; give kernels it told to stop a moment to exit.
	var left []proc
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		left = markedProcesses(j.marker)
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL) // anything of the group that ignored SIGTERM
	j.mu.Lock()
	for _, p := range left {
		j.leftovers = append(j.leftovers, p.String())
		_ = syscall.Kill(p.pid, syscall.SIGKILL)
	}
	j.mu.Unlock()
	os.RemoveAll(j.runtime)
}

// Leftovers lists the processes started by the server (kernels, their
// children) that were still alive after Close's orderly shutdown, as
// "PID command line". Close killed them; a test asserts the list is empty,
// since a kernel that survives its server is a leak in normal use.
func (j *Jupyter) Leftovers() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return append([]string(nil), j.leftovers...)
}

// proc is a live process found by its environment.
type proc struct {
	pid  int
	args string
}

func (p proc) String() string { return strconv.Itoa(p.pid) + " " + p.args }

// markedProcesses lists live processes whose environment has markerEnv=marker,
// reading /proc (zombies have no readable environment and are skipped).
func markedProcesses(marker string) []proc {
	want := []byte(markerEnv + "=" + marker + "\x00")
	entries, _ := os.ReadDir("/proc")
	var out []proc
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(append([]byte("\x00"), env...), append([]byte("\x00"), want...)) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		args := strings.TrimSpace(strings.ReplaceAll(string(cmdline), "\x00", " "))
		if len(args) > 200 {
			args = args[:200] + "…"
		}
		out = append(out, proc{pid, args})
	}
	return out
}

// goPath is PATH with $(go env GOPATH)/bin and Go's bin folder in front, as
// the Makefile and scripts/run-notebooks.sh give the kernel.
func goPath() (string, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = "/usr/local/go/bin/go"
		if _, err := os.Stat(goBin); err != nil {
			return "", errors.New("browser: go not found on PATH nor at /usr/local/go/bin/go")
		}
	}
	gopath, err := exec.Command(goBin, "env", "GOPATH").Output()
	if err != nil {
		return "", fmt.Errorf("browser: go env GOPATH: %w", err)
	}
	return strings.Join([]string{
		filepath.Join(strings.TrimSpace(string(gopath)), "bin"),
		filepath.Dir(goBin),
		os.Getenv("PATH"),
	}, string(os.PathListSeparator)), nil
}

// freePort asks the kernel for a free TCP port on 127.0.0.1. Another process
// could take it before Jupyter binds it; --port-retries=0 then makes the
// start fail loudly instead of serving elsewhere.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand panics on failure)
	return hex.EncodeToString(b)
}

// escapePath escapes each element of a slash-separated path for a URL.
func escapePath(p string) string {
	parts := strings.Split(filepath.ToSlash(p), "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

func waitClosed(ch <-chan struct{}, d time.Duration) bool {
	select {
	case <-ch:
		return true
	case <-time.After(d):
		return false
	}
}

// cancelBody releases a request's timeout when its body is closed.
type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// redactWriter hides a secret (the server's token, which Jupyter prints in
// its URLs) from a log. Writes are whole lines in practice (Python's
// logging), so a token is not split across writes.
type redactWriter struct {
	mu     sync.Mutex
	w      io.Writer
	secret string
}

func (r *redactWriter) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.w.Write(bytes.ReplaceAll(p, []byte(r.secret), []byte("REDACTED"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// tokenParam matches a token in a URL's query, for messages.
var tokenParam = regexp.MustCompile(`([?&]token=)[^&#\s]+`)

// redactURL hides any token in a URL's query.
func redactURL(s string) string {
	return tokenParam.ReplaceAllString(s, "${1}REDACTED")
}
