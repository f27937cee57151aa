package setupcheck

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestReproduceRunsAsUnprivilegedUser is the classroom case: a student
// account with a fresh HOME, no root and no sudo, runs what `make reproduce`
// runs (scripts/setup.sh, then scripts/run-notebooks.sh) on one small
// notebook in its own copy of the repository, and it ends well.
// Jupyter then comes from Debian's packages extracted into the copy's
// .esr-tools/deb (or from the system, when an administrator installed it),
// GoNB and goimports go to the user's GOPATH/bin and the kernel spec to
// ~/.local/share/jupyter. Go modules come from a copy of this machine's
// module download cache, else the module proxy.
//
// It creates a user (useradd -m, removed after with its HOME), so it runs
// only as root with ESRKIT_SETUP_TESTS=1; it takes about 5 minutes on two
// cores with empty Go caches, so give go test -timeout 15m.
func TestReproduceRunsAsUnprivilegedUser(t *testing.T) {
	if os.Getenv("ESRKIT_SETUP_TESTS") != "1" {
		t.Skip("ESRKIT_SETUP_TESTS=1 runs it (it creates a user and takes minutes)")
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root to create the unprivileged user")
	}
	for _, tool := range []string{"useradd", "userdel", "runuser", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}

	var rnd [4]byte
	_, _ = rand.Read(rnd[:])
	name := "esrsetup" + hex.EncodeToString(rnd[:])
	if out, err := exec.Command("useradd", "-m", "-s", "/bin/bash", name).CombinedOutput(); err != nil {
		t.Fatalf("useradd: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("userdel", "-r", name).CombinedOutput(); err != nil {
			t.Logf("userdel -r %s: %v\n%s", name, err, out)
		}
	})
	u, err := user.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)

	// The user's own copy of the working tree (uncommitted changes included),
	// without git's data or anything a run leaves behind.
	base, err := os.MkdirTemp("", "esrsetup")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(base, "esrkit")
	if err := copyTree(repo, work, uid, gid); err != nil {
		t.Fatal(err)
	}

	// As the user would be after logging in: their HOME, a plain PATH (no Go on
	// it: setup.sh finds /usr/local/go), no root's GOPATH, caches or GOFLAGS.
	env := []string{"HOME=" + u.HomeDir, "USER=" + name, "LOGNAME=" + name,
		"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"}
	if p := os.Getenv("GOPROXY"); p != "" {
		env = append(env, "GOPROXY="+p)
	}
	// Go modules from a readable copy of this machine's module download cache
	// (a GOPROXY layout) first, then the proxy: the same modules, less waiting.
	if mc, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		if dl := filepath.Join(strings.TrimSpace(string(mc)), "cache", "download"); dirExists(dl) {
			proxy := filepath.Join(base, "goproxy")
			if err := copyTree(dl, proxy, uid, gid); err != nil {
				t.Fatal(err)
			}
			upstream := os.Getenv("GOPROXY")
			if upstream == "" || upstream == "off" {
				upstream = "https://proxy.golang.org,direct"
			}
			env = append(env, "GOPROXY=file://"+proxy+","+upstream)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	// asUser runs argv in the copy as the user, and returns its output and time.
	asUser := func(argv ...string) (string, time.Duration, error) {
		args := append([]string{"-u", name, "--", "env", "-i"}, env...)
		cmd := exec.CommandContext(ctx, "runuser", append(args, argv...)...)
		cmd.Dir = work
		start := time.Now()
		out, err := cmd.CombinedOutput()
		return string(out), time.Since(start).Round(time.Second), err
	}
	// What make reproduce runs (it adds go build ./..., which needs nothing
	// from root): setup, then one notebook.
	out, took, err := asUser("bash", "scripts/setup.sh")
	t.Logf("scripts/setup.sh as %s (no root, no sudo, fresh HOME): %s\n%s", name, took, out)
	if err != nil {
		t.Fatalf("setup.sh as an unprivileged user failed after %s: %v", took, err)
	}
	setupTook := took
	out, took, err = asUser("bash", "scripts/run-notebooks.sh", "notebooks/executed", "notebooks/03-bench.ipynb")
	t.Logf("scripts/run-notebooks.sh notebooks/03-bench.ipynb as %s: %s\n%s", name, took, out)
	if err != nil {
		t.Fatalf("the notebook as an unprivileged user failed after %s: %v", took, err)
	}
	t.Logf("setup %s + one notebook %s = %s", setupTook, took, setupTook+took)
	if !strings.Contains(out, "notebooks: 1 passed, 0 failed") {
		t.Errorf("run-notebooks.sh did not report the notebook as passed")
	}
	if _, err := os.Stat(filepath.Join(work, "notebooks", "executed", "03-bench.ipynb")); err != nil {
		t.Errorf("no executed copy: %v", err)
	}

	// Jupyter came from the system or from the copy's own .esr-tools, and the
	// kernel spec from the user's Jupyter directory names the user's gonb.
	if _, err := os.Stat("/usr/bin/jupyter"); err != nil {
		if _, err := os.Stat(filepath.Join(work, ".esr-tools", "deb", ".complete")); err != nil {
			t.Errorf("no system Jupyter, and setup.sh left no .esr-tools/deb/.complete: %v", err)
		}
	}
	b, err := os.ReadFile(filepath.Join(u.HomeDir, ".local", "share", "jupyter", "kernels", "gonb", "kernel.json"))
	if err != nil {
		t.Fatalf("no gonb kernel spec in the user's Jupyter directory: %v", err)
	}
	var spec struct{ Argv []string }
	if err := json.Unmarshal(b, &spec); err != nil || len(spec.Argv) == 0 || spec.Argv[0] != filepath.Join(u.HomeDir, "go", "bin", "gonb") {
		t.Errorf("kernel.json runs %v (%v), want the user's GOPATH/bin/gonb", spec.Argv, err)
	}

	// The report's converter runs for that user too (make report-html's nbconvert).
	if out, _, err := asUser("bash", "scripts/jupyter-env.sh", "jupyter", "nbconvert", "--to", "html",
		"--log-level", "WARN", "--output-dir", "report", "notebooks/executed/03-bench.ipynb"); err != nil {
		t.Fatalf("nbconvert as %s: %v\n%s", name, err, out)
	}
	if fi, err := os.Stat(filepath.Join(work, "report", "03-bench.html")); err != nil || fi.Size() == 0 {
		t.Errorf("nbconvert wrote no report/03-bench.html: %v", err)
	}
}

func dirExists(p string) bool { fi, err := os.Stat(p); return err == nil && fi.IsDir() }

// copyTree copies the working tree src to dst, owned by uid:gid, leaving out
// git's data and what runs write (executed notebooks, report, caches, tools).
func copyTree(src, dst string, uid, gid int) error {
	skip := map[string]bool{".git": true, "notebooks/executed": true, "report": true, "results": true,
		".esr-cache": true, ".esr-tools": true, "bin": true}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if skip[filepath.ToSlash(rel)] {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			err = os.MkdirAll(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			var target string
			if target, err = os.Readlink(p); err == nil {
				err = os.Symlink(target, to)
			}
		case d.Type().IsRegular():
			var b []byte
			if b, err = os.ReadFile(p); err == nil {
				err = os.WriteFile(to, b, info.Mode().Perm())
			}
		default:
			return nil
		}
		if err != nil {
			return err
		}
		return os.Lchown(to, uid, gid)
	})
}

// scripts/jupyter-env.sh puts a prefix that setup.sh marked complete on
// PYTHONPATH, and leaves the system's Python alone otherwise.
func TestJupyterEnvUsesTheExtractedPrefix(t *testing.T) {
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	root := t.TempDir()
	script, err := os.ReadFile("../../scripts/jupyter-env.sh")
	if err != nil {
		t.Fatal(err)
	}
	trust, err := os.ReadFile("../../scripts/trusted-tree.sh")
	if err != nil {
		t.Fatal(err)
	}
	pkgs := filepath.Join(root, ".esr-tools", "deb", "usr", "lib", "python3", "dist-packages")
	for _, f := range []struct{ path, body string }{
		{filepath.Join(root, "scripts", "jupyter-env.sh"), string(script)},
		{filepath.Join(root, "scripts", "trusted-tree.sh"), string(trust)},
		{filepath.Join(pkgs, "esrkit_extracted_probe.py"), "WHERE = 'prefix'\n"},
	} {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f.path, []byte(f.body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	probe := func() (string, error) {
		out, err := exec.Command("bash", filepath.Join(root, "scripts", "jupyter-env.sh"), "python3", "-c",
			"import esrkit_extracted_probe as p; print(p.WHERE)").CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	// Half extracted (no .complete): not used.
	if out, err := probe(); err == nil {
		t.Errorf("an unfinished prefix is on PYTHONPATH: %s", out)
	}
	if err := os.WriteFile(filepath.Join(root, ".esr-tools", "deb", ".complete"), []byte("python3-nbclient\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := probe(); err != nil || out != "prefix" {
		t.Errorf("the extracted prefix is not on PYTHONPATH: %v: %s", err, out)
	}
}

// directJupyter is /usr/bin/jupyter in a command's place (a line's start,
// after ; | & ( or $( ), or a variable set to it; "[ -x /usr/bin/jupyter ]"
// and messages only name it.
var directJupyter = regexp.MustCompile(`(^|[;|&(]|\$\()\s*"?/usr/bin/jupyter"?\s|=\s*"?/usr/bin/jupyter\b`)

// Nothing calls /usr/bin/jupyter directly any more: without root, Jupyter
// lives in .esr-tools/deb, which only scripts/jupyter-env.sh knows.
func TestScriptsRunJupyterThroughJupyterEnv(t *testing.T) {
	for _, f := range []string{"../../Makefile", "../../scripts/run-notebooks.sh", "../../scripts/setup.sh"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			code, _, _ := strings.Cut(line, "#")
			if directJupyter.MatchString(code) {
				t.Errorf("%s:%d runs /usr/bin/jupyter, which a user without root does not have: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}
