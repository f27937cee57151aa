package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/lab"
)

// writer is one writing subcommand: args runs it with OUT as its output
// and BENCH as its benchmark (or other input) folder.
type writer struct {
	name string
	dir  bool // the output is a folder
	args func(out, benchDir string) []string
}

// writers are every subcommand of esr that writes a file or folder (its
// --out or --export), found by the flags of cmd/esr/*.go.
func writers(t *testing.T, scratch string) []writer {
	cache := filepath.Join(scratch, "cache")
	os.MkdirAll(cache, 0o755)
	nb := filepath.Join(scratch, "executed")
	os.MkdirAll(nb, 0o755)
	os.WriteFile(filepath.Join(nb, "02-esr.ipynb"), []byte(`{"cells":[{"cell_type":"markdown","source":"# §2 · ESR"}]}`), 0o644)
	fresh := filepath.Join(scratch, "fresh.jsonl")
	rows := filepath.Join(scratch, "rows.jsonl")
	os.WriteFile(rows, nil, 0o644)
	suite := lab.SuiteNames()[0]
	ws := []writer{
		{"batch export", false, func(o, b string) []string { return []string{"batch", "export", "--bench", b, "--out", o} }},
		{"batch export --notebooks", false, func(o, b string) []string {
			return []string{"batch", "export", "--notebooks", "--data", b, "--out", o}
		}},
		{"cache export", false, func(o, b string) []string { return []string{"cache", "export", "--cache", cache, "--out", o} }},
		{"calibrate", false, func(o, b string) []string { return []string{"calibrate", "--bench", b, "--out", o} }},
		{"eval", false, func(o, b string) []string { return []string{"eval", "--bench", b, "--out", o} }},
		{"extract", false, func(o, b string) []string {
			return []string{"extract", "--streams", filepath.Join(b, "streams.jsonl"), "--model", "m", "--out", o}
		}},
		{"judge audit --export", false, func(o, b string) []string {
			return []string{"judge", "audit", "--bench", b, "--dry-run", "--export", o}
		}},
		{"rejudge", false, func(o, b string) []string {
			return []string{"rejudge", "--rows", rows, "--judge", "exact", "--bench", b, "--out", o}
		}},
		{"rejudge --export", false, func(o, b string) []string {
			return []string{"rejudge", "--rows", rows, "--judge", "exact", "--bench", b, "--out", fresh, "--dry-run", "--export", o}
		}},
		{"example", true, func(o, b string) []string { return []string{"example", "--out", o} }},
		{"gen", true, func(o, b string) []string { return []string{"gen", "--per-stratum", "1", "--out", o} }},
		{"import dyknow", true, func(o, b string) []string { return []string{"import", "dyknow", "--src", b, "--out", o} }},
		{"import vdyknow", true, func(o, b string) []string { return []string{"import", "vdyknow", "--src", b, "--out", o} }},
		{"import debian", true, func(o, b string) []string {
			return []string{"import", "debian", "--src", b, "--packages", filepath.Join(b, "packages.txt"), "--out", o}
		}},
		{"import mem0", true, func(o, b string) []string {
			return []string{"import", "mem0", "--db", filepath.Join(b, "history.db"), "--out", o}
		}},
		{"import graphiti", true, func(o, b string) []string {
			return []string{"import", "graphiti", "--edges", filepath.Join(b, "edges.json"), "--out", o}
		}},
		{"scrub", true, func(o, b string) []string { return []string{"scrub", "--bench", b, "--out", o} }},
		{"report", true, func(o, b string) []string { return []string{"report", "--executed", nb, "--figures", b, "--out", o} }},
		{"run " + suite, true, func(o, b string) []string {
			return []string{"run", suite, "--bench", b, "--readers", "oracle", "--out", o}
		}},
		{"run all", true, func(o, b string) []string {
			return []string{"run", "all", "--data", b, "--readers", "oracle", "--out", o}
		}},
	}
	return ws
}

// snapshot reads every file under dir (relative name → content).
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(b)
		return nil
	})
	return out
}

func sameFiles(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for name, b := range before {
		if a, ok := after[name]; !ok || a != b {
			t.Errorf("%s: %s changed or removed", what, name)
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s: %s written", what, name)
		}
	}
}

// Every writing subcommand refuses a foreign output (a user's file or
// folder, left byte for byte) and an output inside its benchmark folder
// (the benchmark left byte for byte), before it does anything.
func TestEveryWriterRefusesForeignOutputAndInputFolder(t *testing.T) {
	scratch := t.TempDir()
	for _, w := range writers(t, scratch) {
		t.Run(w.name, func(t *testing.T) {
			root := t.TempDir()
			benchDir := filepath.Join(root, "fig1")
			if err := bench.Figure1Bench().Save(benchDir); err != nil {
				t.Fatal(err)
			}
			// (a) a user's file or folder.
			foreign := filepath.Join(root, "thesis.txt")
			if w.dir {
				foreign = filepath.Join(root, "site")
				os.MkdirAll(foreign, 0o755)
				os.WriteFile(filepath.Join(foreign, "index.html"), []byte("<html><body onload=x()>my site</body></html>\n"), 0o644)
				os.WriteFile(filepath.Join(foreign, "notes.html"), []byte("<p onclick=y()>notes</p>\n"), 0o644)
			} else {
				os.WriteFile(foreign, []byte("my thesis, chapter 1\n"), 0o644)
			}
			benchBefore := snapshot(t, benchDir)
			var before map[string]string
			if w.dir {
				before = snapshot(t, foreign)
			} else {
				before = map[string]string{"": "my thesis, chapter 1\n"}
			}
			_, errOut, code := runCLI(t, w.args(foreign, benchDir)...)
			if code == 0 {
				t.Errorf("onto a foreign %s: exit 0", foreign)
			}
			if !strings.Contains(errOut, "is not empty and not") {
				t.Errorf("onto a foreign output: %q does not say why", errOut)
			}
			if w.dir {
				sameFiles(t, "foreign folder", before, snapshot(t, foreign))
			} else if b, _ := os.ReadFile(foreign); string(b) != before[""] {
				t.Errorf("foreign file now %q", b[:min(len(b), 40)])
			}
			// (b) inside the benchmark folder: a benchmark file, or the
			// folder itself.
			inside := filepath.Join(benchDir, "qa.jsonl")
			if w.dir {
				inside = benchDir
			}
			_, errOut, code = runCLI(t, w.args(inside, benchDir)...)
			if code == 0 {
				t.Errorf("onto %s: exit 0", inside)
			}
			if !strings.Contains(errOut, "is inside") && !strings.Contains(errOut, "is not empty and not") && !strings.Contains(errOut, " holds ") {
				t.Errorf("inside the bench: %q does not say why", errOut)
			}
			sameFiles(t, "bench folder", benchBefore, snapshot(t, benchDir))
			// A new output inside the bench folder is refused as well (by
			// the commands given a folder to read).
			switch w.name {
			case "example", "gen", "cache export", "extract", "import mem0", "import graphiti":
			default:
				newInside := filepath.Join(benchDir, "new-output")
				if _, errOut, code := runCLI(t, w.args(newInside, benchDir)...); code == 0 || !strings.Contains(errOut, "is inside") {
					t.Errorf("a new output inside the bench: exit %d: %q", code, errOut)
				}
			}
			sameFiles(t, "bench folder", benchBefore, snapshot(t, benchDir))
		})
	}
}

// A rerun onto the command's own earlier output goes ahead: folders carry
// the marker, files their format, and outputs written before the marker
// are recognised by what they hold.
func TestWritersRewriteTheirOwnOutput(t *testing.T) {
	root := t.TempDir()
	fig := filepath.Join(root, "fig1")
	for i := 0; i < 2; i++ {
		if _, errOut, code := runCLI(t, "example", "--out", fig); code != 0 {
			t.Fatalf("esr example, run %d: %s", i+1, errOut)
		}
	}
	// gen onto a folder an earlier gen wrote (its MANIFEST.json, no marker).
	g := filepath.Join(root, "gen")
	mustCLI(t, "gen", "--per-stratum", "1", "--out", g)
	os.Remove(filepath.Join(g, ".esr-output"))
	mustCLI(t, "gen", "--per-stratum", "1", "--out", g)
	// but not esr example onto gen's folder.
	if _, errOut, code := runCLI(t, "example", "--out", g); code == 0 || !strings.Contains(errOut, "esr gen wrote it") {
		t.Errorf("esr example onto esr gen's folder: exit %d: %s", code, errOut)
	}
	// A result pack, rewritten.
	cache := filepath.Join(root, "cache")
	os.MkdirAll(cache, 0o755)
	pack := filepath.Join(root, "pack.gz")
	for i := 0; i < 2; i++ {
		if _, errOut, code := runCLI(t, "cache", "export", "--cache", cache, "--out", pack); code != 0 {
			t.Fatalf("esr cache export, run %d: %s", i+1, errOut)
		}
	}
	// The report's folder: pages converted from the notebooks, then the
	// index, then again (as `make report` leaves it).
	nb := filepath.Join(root, "executed")
	os.MkdirAll(nb, 0o755)
	os.WriteFile(filepath.Join(nb, "02-esr.ipynb"), []byte(`{"cells":[{"cell_type":"markdown","source":"# §2 · ESR"}]}`), 0o644)
	site := filepath.Join(root, "report")
	os.MkdirAll(site, 0o755)
	os.WriteFile(filepath.Join(site, "02-esr.html"), []byte("<html><body><p>page</p></body></html>\n"), 0o644)
	for i := 0; i < 2; i++ {
		if _, errOut, code := runCLI(t, "report", "--executed", nb, "--figures", filepath.Join(root, "figures"), "--out", site); code != 0 {
			t.Fatalf("esr report, run %d: %s", i+1, errOut)
		}
		os.Remove(filepath.Join(site, ".esr-output")) // as an earlier version left it
	}
	// esr run onto its own folder.
	suite := lab.SuiteNames()[0]
	res := filepath.Join(root, "results")
	for i := 0; i < 2; i++ {
		if _, errOut, code := runCLI(t, "run", suite, "--bench", fig, "--readers", "oracle", "--B", "20", "--out", res); code != 0 {
			t.Fatalf("esr run, run %d: %s", i+1, errOut)
		}
		os.Remove(filepath.Join(res, ".esr-output")) // as an earlier version left it
	}
}

// esr import debian rebuilds a folder that holds its own package list
// (data/debian/packages.txt, as scripts/build-debian.sh runs it), also one
// built before the output marker.
func TestImportDebianRebuildsFolderHoldingItsList(t *testing.T) {
	const sample = "../../internal/debian/testdata"
	out := filepath.Join(t.TempDir(), "debian")
	os.MkdirAll(out, 0o755)
	list, err := os.ReadFile(sample + "/packages.txt")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(out, "packages.txt"), list, 0o644)
	for i := 0; i < 2; i++ {
		if _, errOut, code := runCLI(t, "import", "debian", "--src", sample+"/raw", "--packages", filepath.Join(out, "packages.txt"), "--out", out); code != 0 {
			t.Fatalf("run %d: exit %d: %s", i+1, code, errOut)
		}
		os.Remove(filepath.Join(out, ".esr-output")) // as an earlier version left it
	}
	if b, _ := os.ReadFile(filepath.Join(out, "packages.txt")); string(b) != string(list) {
		t.Error("the package list changed")
	}
}
