package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// statsCLI runs "esr stats ARGS..." in-process.
func statsCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runMain(append([]string{"stats"}, args...), &out, &errb)
	return out.String(), errb.String(), code
}

// statsJSON runs a stats subcommand that must succeed and decodes its single
// JSON object, checking that the keys are exactly want.
func statsJSON(t *testing.T, want []string, args ...string) map[string]any {
	t.Helper()
	out, errOut, code := statsCLI(t, args...)
	if code != 0 {
		t.Fatalf("esr stats %v: exit %d: %s", args, code, errOut)
	}
	if strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Fatalf("want one JSON line, got %q", out)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("output %q: %v", out, err)
	}
	if len(m) != len(want) {
		t.Errorf("keys %v, want %v", m, want)
	}
	for _, k := range want {
		if _, ok := m[k]; !ok {
			t.Errorf("missing key %q in %s", k, out)
		}
	}
	return m
}

func writeCSV(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// binaryPairsCSV writes n11 (1,1), n10 (1,0), n01 (0,1) and n00 (0,0) rows.
func binaryPairsCSV(t *testing.T, n11, n10, n01, n00 int) string {
	var b strings.Builder
	b.WriteString("a,b\n")
	for _, c := range []struct {
		k   int
		row string
	}{{n11, "1,1\n"}, {n10, "1,0\n"}, {n01, "0,1\n"}, {n00, "0,0\n"}} {
		b.WriteString(strings.Repeat(c.row, c.k))
	}
	return writeCSV(t, "pairs.csv", b.String())
}

func approx(t *testing.T, m map[string]any, key string, want, tol float64) {
	t.Helper()
	got, ok := m[key].(float64)
	if !ok || math.Abs(got-want) > tol {
		t.Errorf("%s = %v, want %v ± %g", key, m[key], want, tol)
	}
}

var bootstrapKeys = []string{"n", "estimate", "lo", "hi", "B", "seed", "level"}

func TestStatsBootstrap(t *testing.T) {
	// 439 pairs, A−B = (100 − 23)/439 = 0.1754; the same data and seed as
	// ExamplePairedBootstrapBinary in package stats: [0.130, 0.221].
	p := binaryPairsCSV(t, 79, 100, 23, 237)
	m := statsJSON(t, bootstrapKeys, "bootstrap", "--pairs", p)
	approx(t, m, "n", 439, 0)
	approx(t, m, "estimate", 77.0/439, 1e-12)
	approx(t, m, "lo", 0.130, 0.0005)
	approx(t, m, "hi", 0.221, 0.0005)
	approx(t, m, "B", 10000, 0)
	approx(t, m, "seed", 1, 0)
	approx(t, m, "level", 0.95, 0)

	// Flags are honoured and the output is reproducible from the seed.
	args := []string{"bootstrap", "--pairs", p, "--B", "500", "--seed", "9", "--level", "0.9"}
	m1 := statsJSON(t, bootstrapKeys, args...)
	m2 := statsJSON(t, bootstrapKeys, args...)
	if m1["lo"] != m2["lo"] || m1["hi"] != m2["hi"] {
		t.Errorf("same seed, different intervals: %v %v", m1, m2)
	}
	approx(t, m1, "B", 500, 0)
	approx(t, m1, "seed", 9, 0)
	approx(t, m1, "level", 0.9, 0)

	// Real-valued pairs take the general path.
	real := writeCSV(t, "real.csv", "a,b\n0.9,0.8\n0.7,0.72\n0.8,0.6\n0.6,0.55\n0.95,0.9\n0.5,0.52\n0.75,0.6\n0.85,0.7\n")
	m = statsJSON(t, bootstrapKeys, "bootstrap", "--pairs", real, "--level", "0.9", "--seed", "7")
	approx(t, m, "estimate", 0.0825, 1e-12)
	approx(t, m, "lo", 0.0400, 0.00005) // as ExamplePairedBootstrap
	approx(t, m, "hi", 0.1263, 0.00005)
}

// questionsCSV is ExamplePairedClusterBootstrap's data in package stats: six
// questions answered by three reader families each, with extra columns.
const questionsCSV = "question,reader,a,b\n" +
	"q1,r1,1,0\nq1,r2,1,0\nq1,r3,1,0\n" +
	"q2,r1,1,1\nq2,r2,0,0\nq2,r3,1,1\n" +
	"q3,r1,1,0\nq3,r2,1,0\nq3,r3,1,1\n" +
	"q4,r1,0,0\nq4,r2,0,0\nq4,r3,0,0\n" +
	"q5,r1,1,1\nq5,r2,1,1\nq5,r3,0,0\n" +
	"q6,r1,1,0\nq6,r2,1,0\nq6,r3,1,0\n"

func TestStatsBootstrapCluster(t *testing.T) {
	p := writeCSV(t, "questions.csv", questionsCSV)
	keys := append(slices.Clone(bootstrapKeys), "clusters", "interval")
	m := statsJSON(t, keys, "bootstrap", "--pairs", p, "--cluster", "question")
	approx(t, m, "n", 18, 0)
	approx(t, m, "clusters", 6, 0)
	approx(t, m, "estimate", 8.0/18, 1e-15)
	approx(t, m, "lo", 0.111, 0.0005) // as ExamplePairedClusterBootstrap
	approx(t, m, "hi", 0.833, 0.0005)
	approx(t, m, "B", 10000, 0)
	if m["interval"] != "cluster" {
		t.Errorf("interval = %v, want \"cluster\"", m["interval"])
	}
	// The column is matched case-insensitively, like a and b.
	if m2 := statsJSON(t, keys, "bootstrap", "--pairs", p, "--cluster", "Question"); m2["lo"] != m["lo"] || m2["hi"] != m["hi"] {
		t.Errorf("--cluster Question: %v, want %v", m2, m)
	}
	// Without --cluster the other columns are ignored and the pair interval,
	// narrower here, comes out in today's shape.
	m = statsJSON(t, bootstrapKeys, "bootstrap", "--pairs", p)
	approx(t, m, "lo", 0.222, 0.0005)
	approx(t, m, "hi", 0.667, 0.0005)

	// One row per cluster: the cluster bootstrap draws what the pair bootstrap
	// draws, so the real-valued pairs of ExamplePairedBootstrap give its interval.
	real := writeCSV(t, "real.csv", "id,a,b\n1,0.9,0.8\n2,0.7,0.72\n3,0.8,0.6\n4,0.6,0.55\n"+
		"5,0.95,0.9\n6,0.5,0.52\n7,0.75,0.6\n8,0.85,0.7\n")
	m = statsJSON(t, keys, "bootstrap", "--pairs", real, "--cluster", "id", "--level", "0.9", "--seed", "7")
	approx(t, m, "clusters", 8, 0)
	approx(t, m, "lo", 0.0400, 0.00005)
	approx(t, m, "hi", 0.1263, 0.00005)
}

// TestStatsBootstrapUnclusteredOutput pins today's output byte for byte
// (recorded before --cluster existed).
func TestStatsBootstrapUnclusteredOutput(t *testing.T) {
	p := binaryPairsCSV(t, 79, 100, 23, 237)
	out, errOut, code := statsCLI(t, "bootstrap", "--pairs", p, "--seed", "7", "--level", "0.9")
	const want = `{"n":439,"estimate":0.17539863325740318,"lo":0.1366742596810934,"hi":0.214123006833713,"B":10000,"seed":7,"level":0.9}` + "\n"
	if code != 0 || out != want {
		t.Errorf("exit %d, stdout %q (stderr %q), want %q", code, out, errOut, want)
	}
}

func TestStatsMDE(t *testing.T) {
	keys := []string{"n", "discordant", "alpha", "power", "mde"}
	m := statsJSON(t, keys, "mde", "--n", "439", "--discordant", "0.28")
	// scipy.optimize.brentq on Connor's formula, gen_reference.py
	approx(t, m, "mde", 0.07056409454218723, 1e-12)
	approx(t, m, "n", 439, 0)
	approx(t, m, "discordant", 0.28, 0)
	approx(t, m, "alpha", 0.05, 0)
	approx(t, m, "power", 0.8, 0)
	m = statsJSON(t, keys, "mde", "--n", "100", "--discordant", "0.5", "--alpha", "0.01", "--power", "0.8")
	approx(t, m, "mde", 0.23817277293695965, 1e-12)
}

func TestStatsPermutation(t *testing.T) {
	p := binaryPairsCSV(t, 79, 100, 23, 237)
	keys := []string{"n", "n10", "n01", "estimate", "p", "exact"}
	m := statsJSON(t, keys, "permutation", "--pairs", p)
	approx(t, m, "n10", 100, 0)
	approx(t, m, "n01", 23, 0)
	// scipy.stats.binomtest(100, 123, 0.5).pvalue = 1.2206923441568713e-12
	approx(t, m, "p", 1.2206923441568713e-12, 1e-20)
	if m["exact"] != true {
		t.Errorf("exact = %v", m["exact"])
	}
	m = statsJSON(t, keys, "permutation", "--pairs", p, "--B", "10000")
	if m["exact"] != false {
		t.Errorf("--B given: exact = %v", m["exact"])
	}
	approx(t, m, "p", 1.0/10001, 1e-15) // the paper's floor
}

func TestStatsHolm(t *testing.T) {
	keys := []string{"reject", "adjusted"}
	for _, tc := range []struct {
		p       []string
		rejects int
	}{
		{[]string{".0001", ".021", ".067", "1.0"}, 1},  // Table 20, Llama
		{[]string{".0001", ".0001", ".016", ".75"}, 3}, // Table 20, Mistral
	} {
		m := statsJSON(t, keys, append([]string{"holm", "--alpha", "0.05"}, tc.p...)...)
		n := 0
		for _, r := range m["reject"].([]any) {
			if r == true {
				n++
			}
		}
		if n != tc.rejects {
			t.Errorf("%v: %d rejections, want %d", tc.p, n, tc.rejects)
		}
		if adj := m["adjusted"].([]any); len(adj) != len(tc.p) || adj[0].(float64) != 0.0004 {
			t.Errorf("adjusted = %v", adj)
		}
	}
}

func TestStatsKappa(t *testing.T) {
	p := writeCSV(t, "raters.csv", "r1,r2\nrevert,revert\nrevert,revert\nmono,revert\nmono,mono\nmono,mono\n"+
		"csc,csc\nrefines,mono\nmono,mono\nrevert,revert\ncsc,revert\n")
	m := statsJSON(t, []string{"n", "kappa", "lo", "hi"}, "kappa", "--pairs", p)
	// sklearn.metrics.cohen_kappa_score = 0.5522388059701493; statsmodels
	// cohens_kappa std_kappa = 0.19728257752587455.
	approx(t, m, "n", 10, 0)
	approx(t, m, "kappa", 0.5522388059701493, 1e-12)
	approx(t, m, "lo", 0.5522388059701493-1.959963984540054*0.19728257752587455, 1e-9)
	approx(t, m, "hi", 0.5522388059701493+1.959963984540054*0.19728257752587455, 1e-9)
}

func TestStatsMI(t *testing.T) {
	p := writeCSV(t, "xy.csv", "x,y\nsame,same\nsame,refines\nrefines,refines\nsupersedes,supersedes\n"+
		"same,same\nsupersedes,supersedes\nrefines,same\nsame,same\n")
	keys := []string{"n", "hx", "hy", "hxy", "mi", "hx_mm", "hy_mm", "hxy_mm", "mi_mm"}
	m := statsJSON(t, keys, "mi", "--pairs", p)
	approx(t, m, "n", 8, 0)
	approx(t, m, "hy", 1.5, 1e-12)                // scipy.stats.entropy([4,2,2], base=2)
	approx(t, m, "mi", 0.8443609377704333, 1e-12) // sklearn mutual_info_score / ln 2
	approx(t, m, "hy_mm", 1.5+2/(16*math.Ln2), 1e-12)
	mi, hx, hy, hxy := m["mi_mm"].(float64), m["hx_mm"].(float64), m["hy_mm"].(float64), m["hxy_mm"].(float64)
	if math.Abs(mi-(hx+hy-hxy)) > 1e-12 {
		t.Errorf("mi_mm %v != hx_mm + hy_mm − hxy_mm", mi)
	}
}

func TestStatsFano(t *testing.T) {
	m := statsJSON(t, []string{"pe", "weak"}, "fano", "--H", "1.89", "--I", "0.216", "--K", "5")
	if pe := m["pe"].(float64); pe < 0.364 || pe > 0.365 {
		t.Errorf("pe = %v, want the paper's 0.364–0.365", pe)
	}
	approx(t, m, "weak", 0.290, 0.0005)
	m = statsJSON(t, []string{"pe", "weak"}, "fano", "--H", "1.89", "--I", "0.216", "--K", "5", "--list", "2")
	approx(t, m, "pe", 0.14246661280640563, 1e-10) // scipy.optimize.brentq, gen_reference.py
}

func TestStatsWilson(t *testing.T) {
	m := statsJSON(t, []string{"lo", "hi"}, "wilson", "--k", "585", "--n", "609")
	// statsmodels proportion_confint(585, 609, method='wilson')
	approx(t, m, "lo", 0.9420315601321386, 1e-12)
	approx(t, m, "hi", 0.9733764820710541, 1e-12)
	m = statsJSON(t, []string{"lo", "hi"}, "wilson", "--k", "45", "--n", "100", "--level", "0.9")
	approx(t, m, "lo", 0.37056097069445393, 1e-12)
}

func TestStatsErrors(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bad := file("pairs.csv", "a,b\n1,0\n0,1\n1,1\n0,0\n1,0\nx1,0\n1,x\n")
	noHeader := file("nohdr.csv", "1,0\n0,1\n")
	wrongHeader := file("wrong.csv", "a,c\n1,0\n")
	empty := file("empty.csv", "")
	onlyHeader := file("hdr.csv", "a,b\n")
	ragged := file("ragged.csv", "a,b\n1,0\n1\n")
	nan := file("nan.csv", "a,b\n1,0\nNaN,1\n")
	emptyLabel := file("labels.csv", "r1,r2\na,b\n,b\n")
	clustered := file("clustered.csv", "q,a,b\nq1,1,0\nq1,0,0\n,1,1\n")
	clusterBad := file("clusterbad.csv", "q,a,b\nq1,1,0\nq2,0,x\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bootstrap", "--pairs", bad}, bad + `:7: field "a": "x1" is not a number`},
		{[]string{"permutation", "--pairs", bad}, bad + `:7: field "a": "x1" is not a number`},
		{[]string{"bootstrap", "--pairs", noHeader}, noHeader + `:1: missing header field "a" (want header "a,b", got "1,0")`},
		{[]string{"bootstrap", "--pairs", wrongHeader}, wrongHeader + `:1: missing header field "b" (want header "a,b", got "a,c")`},
		{[]string{"kappa", "--pairs", wrongHeader}, wrongHeader + `:1: missing header field "r1" (want header "r1,r2", got "a,c")`},
		{[]string{"mi", "--pairs", noHeader}, noHeader + `:1: missing header field "x"`},
		{[]string{"bootstrap", "--pairs", empty}, empty + `:1: empty file, want header "a,b"`},
		{[]string{"bootstrap", "--pairs", onlyHeader}, onlyHeader + `: no data rows`},
		{[]string{"bootstrap", "--pairs", ragged}, ragged + `:3: wrong number of fields`},
		{[]string{"bootstrap", "--pairs", nan}, nan + `:3: field "a": "NaN" is not a finite number`},
		{[]string{"kappa", "--pairs", emptyLabel}, emptyLabel + `:3: field "r1": empty label`},
		{[]string{"bootstrap", "--pairs", filepath.Join(dir, "missing.csv")}, "missing.csv"},
		{[]string{"bootstrap"}, "--pairs is required"},
		{[]string{"bootstrap", "--pairs", onlyHeader, "--B", "0"}, "--B 0: want 1 to 1000000 resamples"},
		{[]string{"bootstrap", "--pairs", onlyHeader, "--level", "1"}, "--level 1 outside (0, 1)"},
		{[]string{"bootstrap", "--pairs", bad, "--cluster", "question"},
			bad + `:1: missing header field "question" (want header "a,b,question", got "a,b")`},
		{[]string{"bootstrap", "--pairs", clustered, "--cluster", "q"}, clustered + `:4: field "q": empty cluster label`},
		{[]string{"bootstrap", "--pairs", clusterBad, "--cluster", "q"}, clusterBad + `:3: field "b": "x" is not a number`},
		{[]string{"bootstrap", "--pairs", clustered, "--cluster", "A"}, `--cluster "A" must name a CSV column other than a and b`},
		{[]string{"bootstrap", "--pairs", clustered, "--cluster", ""}, `--cluster "" must name a CSV column other than a and b`},
		{[]string{"mde", "--discordant", "0.3"}, "--n is required"},
		{[]string{"mde", "--n", "100"}, "--discordant is required"},
		{[]string{"mde", "--n", "0", "--discordant", "0.3"}, "--n 0 < 1"},
		{[]string{"mde", "--n", "100", "--discordant", "0"}, "--discordant 0 outside (0, 1]"},
		{[]string{"mde", "--n", "100", "--discordant", "1.5"}, "--discordant 1.5 outside (0, 1]"},
		{[]string{"mde", "--n", "100", "--discordant", "0.3", "--alpha", "1"}, "--alpha 1 outside (0, 1)"},
		{[]string{"mde", "--n", "100", "--discordant", "0.3", "--power", "0"}, "--power 0 outside (0, 1)"},
		{[]string{"mde", "--n", "60", "--discordant", "0.1"}, "no solution: PairedBinaryMDE: no δ ≤ p_d = 0.1 reaches power 0.8"},
		{[]string{"holm"}, "no p-values given"},
		{[]string{"holm", "0.01", "x"}, `argument 2: "x" is not a number`},
		{[]string{"holm", "0.01", "1.5"}, `argument 2: p-value "1.5" outside [0, 1]`},
		{[]string{"holm", "--alpha", "0", "0.01"}, "--alpha 0 outside (0, 1)"},
		{[]string{"fano", "--H", "1.89", "--K", "5"}, "--I is required"},
		{[]string{"fano", "--H", "1.89", "--I", "0", "--K", "1"}, "--K 1 < 2"},
		{[]string{"fano", "--H", "1.89", "--I", "0", "--K", "5", "--list", "5"}, "--list 5 outside [1, K−1 = 4]"},
		{[]string{"fano", "--H", "9", "--I", "0", "--K", "5"}, "exceeds log2 K"},
		{[]string{"wilson", "--k", "3", "--n", "2"}, "--k 3 outside [0, n = 2]"},
		{[]string{"wilson", "--k", "0", "--n", "0"}, "--n 0 < 1"},
		{[]string{"wilson", "--n", "5"}, "--k is required"},
		{[]string{}, "missing subcommand"},
		{[]string{"frobnicate"}, `unknown subcommand "frobnicate"`},
	} {
		out, errOut, code := statsCLI(t, tc.args...)
		if code != 1 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("esr stats %v: exit %d, stdout %q, stderr %q; want exit 1 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

func TestStatsHelp(t *testing.T) {
	out, _, code := statsCLI(t, "--help")
	if code != 0 || !strings.Contains(out, "bootstrap") || !strings.Contains(out, "wilson") || !strings.Contains(out, "mde") {
		t.Errorf("esr stats --help: exit %d, %q", code, out)
	}
	for _, sub := range []string{"bootstrap", "permutation", "holm", "kappa", "mi", "fano", "wilson", "mde"} {
		out, errOut, code := statsCLI(t, sub, "--help")
		if code != 0 || out != "" || !strings.Contains(errOut, "usage: esr stats "+sub) {
			t.Errorf("esr stats %s --help: exit %d, stdout %q, stderr %q", sub, code, out, errOut)
		}
	}
}

// --B is bounded (1 to maxResamples), and the help says so: --B 2000000000
// took 8.6 GB within a minute. The bound itself is allowed.
func TestStatsRefusesResamplesPastTheBound(t *testing.T) {
	p := binaryPairsCSV(t, 3, 2, 1, 4)
	for _, sub := range []string{"bootstrap", "permutation"} {
		for _, b := range []string{"1000001", "0"} {
			_, errOut, code := statsCLI(t, sub, "--pairs", p, "--B", b)
			if code == 0 || !strings.Contains(errOut, "want 1 to 1000000 resamples") {
				t.Errorf("%s --B %s: exit %d, stderr %q; want an error naming the bound", sub, b, code, errOut)
			}
		}
		if _, errOut, code := statsCLI(t, sub, "--pairs", p, "--B", "1000000"); code != 0 {
			t.Errorf("%s --B 1000000 (the bound): exit %d: %s", sub, code, errOut)
		}
		_, help, _ := statsCLI(t, sub, "--help")
		if !strings.Contains(help, "1 to 1000000") {
			t.Errorf("%s --help does not give the bound on --B: %s", sub, help)
		}
	}
	var out, errb bytes.Buffer
	code := runMain([]string{"run", "boundary", "--bench", t.TempDir(), "--out", t.TempDir(), "--B", "2000000000"}, &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "want 1 to 1000000 resamples") {
		t.Errorf("run --B 2000000000: exit %d, stderr %q; want an error naming the bound", code, errb.String())
	}
}
