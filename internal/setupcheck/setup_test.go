package setupcheck

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// testOnly are the Debian packages only the tests use: the statistics
// tests' reference implementations, the browser tests' Chromium and the
// race detector's C compiler.
var testOnly = []string{"chromium", "python3-scipy", "python3-numpy", "python3-statsmodels", "python3-sklearn", "gcc"}

// packagesOf runs scripts/setup.sh --print with args and returns the
// Debian packages it would install.
func packagesOf(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("bash", append([]string{"../../scripts/setup.sh", "--print"}, args...)...).Output()
	if err != nil {
		t.Fatalf("setup.sh --print %v: %v", args, err)
	}
	return strings.Fields(string(out))
}

// interactiveOnly are the Debian packages that opening the notebooks in
// Jupyter and the report's converter use, and running them headless does not.
var interactiveOnly = []string{"jupyter-notebook", "python3-nbconvert", "python3-ipykernel"}

// make reproduce installs what runs the notebooks headless, never the
// notebook server, Chromium or SciPy; make setup adds the server and
// nbconvert; make test adds the tests' packages on top.
func TestReproduceInstallsOnlyWhatNotebooksUse(t *testing.T) {
	base, setup, full := packagesOf(t, "--headless"), packagesOf(t), packagesOf(t, "--test")
	for _, p := range testOnly {
		if slices.Contains(base, p) || slices.Contains(setup, p) {
			t.Errorf("setup.sh (make reproduce, make setup) installs %s, which only the tests use", p)
		}
		if !slices.Contains(full, p) {
			t.Errorf("setup.sh --test (make test) does not install %s", p)
		}
	}
	for _, p := range interactiveOnly {
		if slices.Contains(base, p) {
			t.Errorf("setup.sh --headless (make reproduce) installs %s, which only interactive use and the report use", p)
		}
		if !slices.Contains(setup, p) || !slices.Contains(full, p) {
			t.Errorf("setup.sh (make setup) or --test (make test) does not install %s", p)
		}
	}
	for _, p := range base {
		if !slices.Contains(setup, p) || !slices.Contains(full, p) {
			t.Errorf("setup.sh or setup.sh --test drops %s, which make reproduce installs", p)
		}
	}
	for _, p := range setup {
		if !slices.Contains(full, p) {
			t.Errorf("setup.sh --test drops %s, which make setup installs", p)
		}
	}
	// Nor through a dependency: the closure apt would install (without
	// recommends, as setup.sh installs) holds none of them.
	if _, err := exec.LookPath("apt-cache"); err != nil {
		t.Logf("no apt-cache: the dependency closure is not checked")
		return
	}
	args := append([]string{"depends", "--recurse", "--no-recommends", "--no-suggests", "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances"}, base...)
	out, err := exec.Command("apt-cache", args...).Output()
	if err != nil {
		t.Logf("apt-cache depends: %v: the dependency closure is not checked", err)
		return
	}
	closure := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		if l != "" && !strings.HasPrefix(l, " ") {
			closure[strings.TrimSpace(l)] = true
		}
	}
	if len(closure) < len(base) {
		t.Fatalf("apt-cache closure of %d packages has %d: the walk is broken", len(base), len(closure))
	}
	for _, p := range append(slices.Clone(testOnly), interactiveOnly...) {
		if closure[p] {
			t.Errorf("make reproduce's packages depend on %s", p)
		}
	}
}

// The Makefile's reproduce recipe (or scripts/reproduce.sh, which it
// runs) runs setup.sh --headless, never --test, and test depends on
// setup-test.
func TestMakefileTargets(t *testing.T) {
	b, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	mk := string(b)
	recipe := regexp.MustCompile(`(?ms)^reproduce:.*?\n\n`).FindString(mk)
	if recipe == "" {
		t.Fatal("no reproduce target in the Makefile")
	}
	// The recipe may hand its steps to scripts/reproduce.sh: read that too.
	if strings.Contains(recipe, "scripts/reproduce.sh") {
		sh, err := os.ReadFile("../../scripts/reproduce.sh")
		if err != nil {
			t.Fatal(err)
		}
		recipe += string(sh)
	}
	if strings.Contains(recipe, "--test") || strings.Contains(recipe, "setup-test") {
		t.Errorf("reproduce installs the tests' packages:\n%s", recipe)
	}
	if !strings.Contains(recipe, "scripts/setup.sh --headless") {
		t.Errorf("reproduce does not run scripts/setup.sh --headless:\n%s", recipe)
	}
	if !regexp.MustCompile(`(?m)^test: setup-test\b`).MatchString(mk) {
		t.Error("test does not depend on setup-test")
	}
}
