package setupcheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// nobody is a uid no test runs as: the other user who owns a planted tree.
const nobody = 65534

// toolsRepo is a copy of the scripts in a fresh folder (the repository
// root the scripts find), with a tools tree at .esr-tools/deb marked
// complete whose Python packages hold a planted module: importing it
// writes the file it names. It returns the root and that file.
func toolsRepo(t *testing.T) (root, marker string) {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("no /usr/bin/python3")
	}
	root = t.TempDir()
	marker = filepath.Join(t.TempDir(), "planted-code-ran")
	for _, s := range []string{"jupyter-env.sh", "setup.sh", "trusted-tree.sh"} {
		b, err := os.ReadFile(filepath.Join("../../scripts", s))
		if os.IsNotExist(err) {
			continue // (a script this version does not have)
		}
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(root, "scripts", s), string(b), 0o755)
	}
	pkgs := filepath.Join(root, ".esr-tools", "deb", "usr", "lib", "python3", "dist-packages")
	planted := "open(" + pyQuote(marker) + ", 'w').write('ran')\n"
	for _, m := range []string{"esrkit_probe", "nbformat", "nbclient", "jupyter_client"} {
		writeFile(t, filepath.Join(pkgs, m+".py"), planted, 0o644)
	}
	writeFile(t, filepath.Join(root, ".esr-tools", "deb", ".complete"), "python3-nbformat\n", 0o644)
	return root, marker
}

func writeFile(t *testing.T, p, body string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // (whatever the umask)
		t.Fatal(err)
	}
}

func pyQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }

// chownTree gives the tree at p to uid (as root only).
func chownTree(t *testing.T, p string, uid int) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a tree to another user")
	}
	err := filepath.Walk(p, func(q string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(q, uid, uid)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// untrusted are the ways a tools tree can hold someone else's code: each
// turns the tree of toolsRepo into one the caller must not import from.
var untrusted = map[string]func(t *testing.T, root string){
	"a folder group-writable": func(t *testing.T, root string) {
		os.Chmod(filepath.Join(root, ".esr-tools", "deb", "usr", "lib", "python3", "dist-packages"), 0o775)
	},
	"a file others may write": func(t *testing.T, root string) {
		os.Chmod(filepath.Join(root, ".esr-tools", "deb", "usr", "lib", "python3", "dist-packages", "nbformat.py"), 0o646)
	},
	"the tree owned by another user": func(t *testing.T, root string) {
		chownTree(t, filepath.Join(root, ".esr-tools"), nobody)
	},
	"a link into another user's folder": func(t *testing.T, root string) {
		other := filepath.Join(t.TempDir(), "their-tools")
		if err := os.Rename(filepath.Join(root, ".esr-tools"), other); err != nil {
			t.Fatal(err)
		}
		chownTree(t, other, nobody)
		if err := os.Symlink(other, filepath.Join(root, ".esr-tools")); err != nil {
			t.Fatal(err)
		}
	},
	"a link to a folder in a folder others may write": func(t *testing.T, root string) {
		shared := filepath.Join(t.TempDir(), "shared")
		if err := os.Mkdir(shared, 0o777); err != nil {
			t.Fatal(err)
		}
		os.Chmod(shared, 0o777) // (whatever the umask): anyone may rename the tree and put theirs
		if err := os.Rename(filepath.Join(root, ".esr-tools"), filepath.Join(shared, "tools")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(shared, "tools"), filepath.Join(root, ".esr-tools")); err != nil {
			t.Fatal(err)
		}
	},
}

// refused checks that a script refused the tree: it failed, said why, and
// no planted code ran.
func refused(t *testing.T, what, out string, err error, marker, tree string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s ran with an untrusted %s: %s", what, tree, out)
	}
	if _, serr := os.Stat(marker); serr == nil {
		t.Errorf("%s ran the code planted in %s", what, tree)
	}
	if !strings.Contains(out, tree) || !strings.Contains(out, "owned by") && !strings.Contains(out, "writable by") {
		t.Errorf("%s does not say why it refuses %s: %s", what, tree, out)
	}
}

// scripts/jupyter-env.sh imports from .esr-tools only when the caller
// alone can have put what is there: a tree someone else owns, or one (or
// a folder above it) that others may write to, is refused with the reason,
// before Python starts.
func TestJupyterEnvRefusesAToolsTreeOthersCouldHavePlanted(t *testing.T) {
	for name, spoil := range untrusted {
		t.Run(name, func(t *testing.T) {
			root, marker := toolsRepo(t)
			spoil(t, root)
			out, err := exec.Command("bash", filepath.Join(root, "scripts", "jupyter-env.sh"), "python3", "-c", "import esrkit_probe").CombinedOutput()
			refused(t, "jupyter-env.sh", string(out), err, marker, ".esr-tools")
		})
	}
	// The caller's own tree is used.
	root, marker := toolsRepo(t)
	if out, err := exec.Command("bash", filepath.Join(root, "scripts", "jupyter-env.sh"), "python3", "-c", "import esrkit_probe").CombinedOutput(); err != nil {
		t.Fatalf("the caller's own tree is refused: %v: %s", err, out)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Error("the caller's own tree is not on PYTHONPATH")
	}
}

// The same for a virtual environment at .venv (Jupyter off Debian): one
// that another user owns, or that others may write to, is not run.
func TestJupyterEnvRefusesAVenvOthersCouldHavePlanted(t *testing.T) {
	for name, spoil := range map[string]func(t *testing.T, venv string){
		"group-writable": func(t *testing.T, venv string) { os.Chmod(filepath.Join(venv, "bin"), 0o775) },
		"another user's": func(t *testing.T, venv string) { chownTree(t, venv, nobody) },
		"ours":           nil,
	} {
		t.Run(name, func(t *testing.T) {
			root, marker := toolsRepo(t)
			if err := os.RemoveAll(filepath.Join(root, ".esr-tools")); err != nil {
				t.Fatal(err)
			}
			venv := filepath.Join(root, ".venv")
			script := "#!/bin/sh\necho ran > " + marker + "\n"
			writeFile(t, filepath.Join(venv, "bin", "python3"), script, 0o755)
			writeFile(t, filepath.Join(venv, "bin", "jupyter"), script, 0o755)
			if spoil == nil {
				if out, err := exec.Command("bash", filepath.Join(root, "scripts", "jupyter-env.sh"), "python3", "-c", "pass").CombinedOutput(); err != nil {
					t.Fatalf("the caller's own venv is refused: %v: %s", err, out)
				}
				if _, err := os.Stat(marker); err != nil {
					t.Error("the caller's own venv is not used")
				}
				return
			}
			spoil(t, venv)
			out, err := exec.Command("bash", filepath.Join(root, "scripts", "jupyter-env.sh"), "python3", "-c", "pass").CombinedOutput()
			refused(t, "jupyter-env.sh", string(out), err, marker, ".venv")
		})
	}
}

// scripts/setup.sh refuses such a tree before it does anything: it neither
// imports from it nor extracts into it. (Stubs stand in for dpkg-query,
// which says every package is installed, and go, which fails: setup gets
// no further than its checks of the tree whatever the machine holds.)
func TestSetupRefusesAToolsTreeOthersCouldHavePlanted(t *testing.T) {
	for name, spoil := range untrusted {
		t.Run(name, func(t *testing.T) {
			root, marker := toolsRepo(t)
			spoil(t, root)
			stubs := t.TempDir()
			writeFile(t, filepath.Join(stubs, "dpkg-query"), "#!/bin/sh\nprintf 'install ok installed'\n", 0o755)
			writeFile(t, filepath.Join(stubs, "go"), "#!/bin/sh\n[ \"$1 $2\" = \"env GOPATH\" ] && { echo "+stubs+"/gopath; exit 0; }\nexit 1\n", 0o755)
			cmd := exec.Command("bash", filepath.Join(root, "scripts", "setup.sh"), "--headless")
			cmd.Env = append(os.Environ(), "PATH="+stubs+":/usr/bin:/bin")
			out, err := cmd.CombinedOutput()
			refused(t, "setup.sh", string(out), err, marker, ".esr-tools")
		})
	}
}
