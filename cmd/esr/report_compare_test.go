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
