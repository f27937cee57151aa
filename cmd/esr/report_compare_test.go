package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/internal/site"
)

// esr report links every comparison page esr compare wrote under
// --compare from a Comparisons section of the index, copied into the
// report, and leaves out a compare.html that esr compare did not write;
// with no comparison the index has no such section, and a rerun after a
// comparison is removed drops its page.
func TestReportLinksTheComparisonsUnderCompare(t *testing.T) {
	root, executed, out := reportFixture(t)
	args := []string{"report", "--executed", executed, "--figures", filepath.Join(root, "figures"), "--out", out, "--notebooks", filepath.Join(root, "notebooks")}
	cmpDir := filepath.Join(root, "results", "compare")
	if _, errOut, code := runCLI(t, append(args, "--compare", cmpDir)...); code != 0 {
		t.Fatalf("esr report without comparisons: %s", errOut)
	}
	if index, _ := os.ReadFile(filepath.Join(out, "index.html")); bytes.Contains(index, []byte("Comparisons")) {
		t.Error("the index has a Comparisons section with no comparison")
	}

	a, b := hostileRows(t, t.TempDir())
	mine := filepath.Join(cmpDir, "fine-vs-render")
	if _, errOut, code := runCLI(t, "compare", a, b, "--B", "200", "--html", "--out", mine); code != 0 {
		t.Fatalf("esr compare --html: %s", errOut)
	}
	foreign := filepath.Join(cmpDir, "other", "compare.html")
	if err := os.MkdirAll(filepath.Dir(foreign), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(foreign, []byte(`<html><body><script>alert(1)</script></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCLI(t, append(args, "--compare", cmpDir)...)
	if code != 0 {
		t.Fatalf("esr report with comparisons: %s", errOut)
	}
	if !strings.Contains(errOut, "not a page esr compare --html wrote") {
		t.Errorf("stderr does not name the foreign compare.html:\n%s", errOut)
	}
	index, _ := os.ReadFile(filepath.Join(out, "index.html"))
	if !bytes.Contains(index, []byte(`<h2 id="comparisons">Comparisons</h2>`)) || !bytes.Contains(index, []byte(`href="compare/fine-vs-render/compare.html"`)) ||
		bytes.Contains(index, []byte("compare/other")) {
		t.Errorf("index's comparisons:\n%s", index)
	}
	// The copy is the page as the sanitiser writes it (read by the
	// standard's parser and written out again), with nothing taken out.
	own, _ := os.ReadFile(filepath.Join(mine, "compare.html"))
	want, removed, err := site.SanitizeComparePage(own)
	if err != nil || removed != nil || strings.Contains(errOut, "fine-vs-render/compare.html") {
		t.Errorf("the page esr compare wrote lost %v (%v) when copied:\n%s", removed, err, errOut)
	}
	got, err := os.ReadFile(filepath.Join(out, "compare", "fine-vs-render", "compare.html"))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("the report's copy is not the page esr compare wrote, sanitised: %v", err)
	}
	if broken, err := site.BrokenLinks(out); err != nil || len(broken) > 0 {
		t.Errorf("broken links %v: %v", broken, err)
	}

	if err := os.RemoveAll(mine); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runCLI(t, append(args, "--compare", cmpDir)...); code != 0 {
		t.Fatalf("esr report rerun: %s", errOut)
	}
	if _, err := os.Stat(filepath.Join(out, "compare", "fine-vs-render")); !os.IsNotExist(err) {
		t.Errorf("a removed comparison's page is left in the report: %v", err)
	}
	if index, _ := os.ReadFile(filepath.Join(out, "index.html")); bytes.Contains(index, []byte("Comparisons")) {
		t.Error("the index still links a removed comparison")
	}
}

// treeOf maps every file under dir (relative path) to its content; nil
// when dir does not exist.
func treeOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		return nil
	}
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// An esr report that fails (here on an executed notebook that is not
// JSON) leaves --out as it was: a folder it made is gone, and an earlier
// report keeps its index and its comparison pages, byte for byte, with
// none of this run's copies among them.
func TestReportThatFailsLeavesTheOutputAsItWas(t *testing.T) {
	root, executed, out := reportFixture(t)
	cmpDir := filepath.Join(root, "results", "compare")
	a, b := hostileRows(t, t.TempDir())
	if _, errOut, code := runCLI(t, "compare", a, b, "--B", "200", "--html", "--out", filepath.Join(cmpDir, "first")); code != 0 {
		t.Fatalf("esr compare --html: %s", errOut)
	}
	args := func(out string) []string {
		return []string{"report", "--executed", executed, "--figures", filepath.Join(root, "figures"), "--out", out,
			"--notebooks", filepath.Join(root, "notebooks"), "--compare", cmpDir}
	}
	if _, errOut, code := runCLI(t, args(out)...); code != 0 {
		t.Fatalf("esr report: %s", errOut)
	}
	before := treeOf(t, out)
	if _, ok := before[filepath.Join("compare", "first", "compare.html")]; !ok {
		t.Fatalf("the first report has no comparison page: %v", before)
	}

	// A second comparison, and a notebook that breaks the report.
	if _, errOut, code := runCLI(t, "compare", b, a, "--B", "200", "--html", "--out", filepath.Join(cmpDir, "second")); code != 0 {
		t.Fatalf("esr compare --html: %s", errOut)
	}
	if err := os.WriteFile(filepath.Join(executed, "99-broken.ipynb"), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(root, "fresh-report")
	for _, o := range []string{out, fresh} {
		if _, _, code := runCLI(t, args(o)...); code == 0 {
			t.Fatalf("esr report --out %s with a broken notebook: exit 0", o)
		}
	}
	after := treeOf(t, out)
	for name, content := range before {
		if after[name] != content {
			t.Errorf("the failed report changed or removed %s", name)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("the failed report left %s", name)
		}
	}
	if got := treeOf(t, fresh); got != nil {
		t.Errorf("a failed report into a new folder left %d files: %v", len(got), sortedKeys(got))
	}
}
