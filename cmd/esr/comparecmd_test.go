package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/site"
)

const synthBench = "../../data/synthetic"

// evalRows runs esr eval of memory on the synthetic bench's snapshot
// questions with two scripted readers into out.
func evalRows(t *testing.T, out, mems string) {
	t.Helper()
	if _, errOut, code := runCLI(t, "eval", "--bench", synthBench, "--memory", mems, "--reader", "scripted:time-sorter,scripted:status-reader",
		"--query", "snapshot", "--out", out); code != 0 {
		t.Fatalf("esr eval %s: %s", mems, errOut)
	}
}

func TestCompareCommandAgreesWithOneRunThatEvaluatesBoth(t *testing.T) {
	dir := t.TempDir()
	a, b, both := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl"), filepath.Join(dir, "both.jsonl")
	const ma, mb = "graphiti@paraphrase=0@dup=0", "graphiti@paraphrase=1@dup=0"
	evalRows(t, a, ma)
	evalRows(t, b, mb)
	evalRows(t, both, ma+","+mb)
	out, errOut, code := runCLI(t, "compare", a, b, "--format", "json", "--B", "1000")
	if code != 0 {
		t.Fatalf("esr compare: %s", errOut)
	}
	var rc eval.RunComparison
	if err := json.Unmarshal([]byte(out), &rc); err != nil {
		t.Fatal(err)
	}
	rows, err := eval.ReadOutcomes(both)
	if err != nil {
		t.Fatal(err)
	}
	specA, _ := memory.ParseSpec(ma)
	specB, _ := memory.ParseSpec(mb)
	opt := eval.StatOptions{B: 1000, Seed: eval.DefaultStats.Seed, Level: 0.95}
	checked := 0
	err = eval.ByFamily(rows, nil, func(fam reader.Family, f eval.Filter) error {
		want, err := eval.Compare(rows, eval.Term{Label: "one run", A: specB, B: specA}, f, opt)
		if err != nil {
			return err
		}
		for _, d := range rc.Diffs {
			if d.Family == fam && d.Stratum == "" && d.QueryType == "" {
				checked++
				if d.Delta != want.Delta || d.Lo != want.Lo || d.Hi != want.Hi || d.P != want.P || d.N10 != want.N10 || d.N01 != want.N01 {
					t.Errorf("%s: two runs Δ %v [%v, %v] p %v; one run Δ %v [%v, %v] p %v", fam, d.Delta, d.Lo, d.Hi, d.P, want.Delta, want.Lo, want.Hi, want.P)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked != 3 || rc.Diffs[0].N10+rc.Diffs[0].N01 == 0 {
		t.Fatalf("checked %d rows (want pooled and two families); pooled %+v", checked, rc.Diffs[0])
	}
	if len(rc.Flips) != rc.Diffs[0].N10+rc.Diffs[0].N01 {
		t.Errorf("%d flips, %d discordant pairs", len(rc.Flips), rc.Diffs[0].N10+rc.Diffs[0].N01)
	}
}

// hostileRows are two one-memory runs whose answers and reasoning hold
// Markdown and HTML and a line break, on twelve questions.
func hostileRows(t *testing.T, dir string) (a, b string) {
	t.Helper()
	write := func(name string, m memory.Spec, flip bool) string {
		var sb strings.Builder
		for i := 0; i < 12; i++ {
			o := eval.Outcome{QID: "q" + string(rune('a'+i)), Source: "s", Gold: "x | y", Phenomenon: "monotonic", QueryType: "snapshot",
				Memory: m, Reader: reader.Spec{Kind: reader.KindScripted, Name: "t"}, Family: reader.Family{Kind: reader.KindScripted, Name: "t"},
				Answer: "<script>alert(1)</script> | a\nb", Reason: "because | <b>bold</b>\nsecond line", Correct: flip && i < 7}
			line, _ := json.Marshal(o)
			sb.Write(append(line, '\n'))
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	return write("a.jsonl", memory.SpecOf(memory.FineLedger), false), write("b.jsonl", memory.SpecOf(memory.RenderOnly), true)
}

func TestCompareCommandEscapesTextFromRowsInEveryFormat(t *testing.T) {
	dir := t.TempDir()
	a, b := hostileRows(t, dir)
	out := filepath.Join(dir, "out")
	for _, f := range []string{"md", "csv", "json", "text"} {
		if _, errOut, code := runCLI(t, "compare", a, b, "--B", "200", "--format", f, "--out", out); code != 0 {
			t.Fatalf("--format %s: %s", f, errOut)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "flips.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(md)), "\n")
	// title, blank, header, rule, seven flips: a line break in a cell
	// would add lines, a bare | would add cells, raw HTML would pass.
	if len(lines) != 11 || strings.Contains(string(md), "<script>") || strings.Contains(string(md), "<b>") {
		t.Fatalf("flips.md:\n%s", md)
	}
	flipColumns := (&eval.RunComparison{}).Tables()[1].Columns
	want := len(flipColumns) + 1
	for _, l := range lines[2:] {
		cells := strings.Count(strings.ReplaceAll(l, `\|`, ""), "|")
		if cells != want {
			t.Errorf("%d cell separators in %q, want %d", cells, l, want)
		}
	}
	f, err := os.Open(filepath.Join(out, "flips.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := func(name string) int { return slices.Index(flipColumns, name) }
	if len(recs) != 8 || recs[1][col("answer A")] != "<script>alert(1)</script> | a\nb" || recs[1][col("gold")] != "x | y" {
		t.Fatalf("flips.csv records %q", recs)
	}
	js, err := os.ReadFile(filepath.Join(out, "comparison.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rc eval.RunComparison
	if err := json.Unmarshal(js, &rc); err != nil {
		t.Fatal(err)
	}
	if len(rc.Flips) != 7 || rc.Flips[0].DecisionB != "because | <b>bold</b>\nsecond line" || rc.Flips[0].Direction != eval.Gained {
		t.Fatalf("json flips %+v", rc.Flips)
	}
	txt, err := os.ReadFile(filepath.Join(out, "flips.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.TrimSpace(string(txt)), "\n"); n != 10 {
		t.Errorf("flips.txt has %d lines, want 11 (a line break shown as ⏎):\n%s", n+1, txt)
	}
}

func TestCompareCommandRefusesAnotherJudgeNamingBoth(t *testing.T) {
	dir := t.TempDir()
	a, b := hostileRows(t, dir)
	rows, err := eval.ReadOutcomes(b)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for _, o := range rows {
		o.Judge = "exact-lenient"
		line, _ := json.Marshal(o)
		sb.Write(append(line, '\n'))
	}
	os.WriteFile(b, []byte(sb.String()), 0o644)
	_, errOut, code := runCLI(t, "compare", a, b)
	if code != 1 || !strings.Contains(errOut, "judge exact,") && !strings.Contains(errOut, "A has judge exact") || !strings.Contains(errOut, "B has judge exact-lenient") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestCompareCommandNamesTheFileAndLineOfABadRow(t *testing.T) {
	dir := t.TempDir()
	a, b := hostileRows(t, dir)
	data, _ := os.ReadFile(b)
	os.WriteFile(b, append([]byte("{\"qid\": 3}\n"), data...), 0o644)
	_, errOut, code := runCLI(t, "compare", a, b)
	if code != 1 || !strings.Contains(errOut, b+":1:") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestCompareCommandWritesThePageWithHTMLAndDropsAStaleOne(t *testing.T) {
	dir := t.TempDir()
	a, b := hostileRows(t, dir)
	if _, errOut, code := runCLI(t, "compare", a, b, "--html"); code == 0 || !strings.Contains(errOut, "--out") {
		t.Errorf("--html without --out: exit %d, %s", code, errOut)
	}
	out := filepath.Join(dir, "cmp")
	if _, errOut, code := runCLI(t, "compare", a, b, "--B", "200", "--html", "--out", out); code != 0 {
		t.Fatalf("esr compare --html: %s", errOut)
	}
	page, err := os.ReadFile(filepath.Join(out, "compare.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !site.IsComparePage(page) || strings.Count(string(page), `<tr class="flip"`) != 7 || strings.Contains(string(page), "<script>alert") {
		t.Fatalf("compare.html is not the escaped page of seven flips:\n%.2000s", page)
	}
	if _, errOut, code := runCLI(t, "compare", a, b, "--B", "200", "--out", out); code != 0 {
		t.Fatalf("esr compare again without --html: %s", errOut)
	}
	if _, err := os.Stat(filepath.Join(out, "compare.html")); !os.IsNotExist(err) {
		t.Errorf("the earlier comparison's page is left beside the new tables: %v", err)
	}
}

func TestCompareCommandRefusesAFolderHoldingAnotherPage(t *testing.T) {
	dir := t.TempDir()
	a, b := hostileRows(t, dir)
	out := filepath.Join(dir, "site")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "compare.html"), []byte("<p>mine</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, code := runCLI(t, "compare", a, b, "--B", "200", "--html", "--out", out); code == 0 {
		t.Fatal("esr compare replaced a compare.html in a folder it did not write")
	}
	if b, _ := os.ReadFile(filepath.Join(out, "compare.html")); string(b) != "<p>mine</p>" {
		t.Errorf("the user's page changed: %q", b)
	}
}

// terminalControls are what a row may hold that a terminal acts on: an
// escape sequence (colour, cursor moves, a window title), a bell, a
// right-to-left override and the Unicode line and paragraph separators.
var terminalControls = []string{"\x1b", "\a", "\u202e", "\u2028", "\u2029", "\u009b"}

// The text and Markdown tables esr compare prints show the control
// characters of rows as visible escapes: a row cannot colour, move, retitle
// or reorder what the terminal shows.
func TestCompareCommandPrintsControlCharactersOfRowsAsEscapes(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, m memory.Spec, flip bool) string {
		var sb strings.Builder
		for i := 0; i < 12; i++ {
			o := eval.Outcome{QID: "q" + string(rune('a'+i)), Source: "s", Gold: "gold\u202eevil", Phenomenon: "monotonic", QueryType: "snapshot",
				Memory: m, Reader: reader.Spec{Kind: reader.KindScripted, Name: "t"}, Family: reader.Family{Kind: reader.KindScripted, Name: "t"},
				Answer: "\x1b]0;pwned\a\x1b[2J\x1b[31mred\u2028next\u2029para\u009b1m", Reason: "ring\a", Correct: flip && i < 7}
			line, _ := json.Marshal(o)
			sb.Write(append(line, '\n'))
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := write("a.jsonl", memory.SpecOf(memory.FineLedger), false), write("b.jsonl", memory.SpecOf(memory.RenderOnly), true)
	// Markdown escapes the escape's backslash and bracket as well.
	shown := map[string][]string{
		"text": {`\x1b[31mred`, `\a`, `gold\u202eevil`, `red\u2028next\u2029para\u009b1m`},
		"md":   {`\\x1b\[31mred`, `\\a`, `gold\\u202eevil`, `red\\u2028next\\u2029para\\u009b1m`},
	}
	for f, escapes := range shown {
		out, errOut, code := runCLI(t, "compare", a, b, "--B", "200", "--format", f)
		if code != 0 {
			t.Fatalf("--format %s: %s", f, errOut)
		}
		for _, c := range terminalControls {
			if strings.Contains(out, c) {
				t.Errorf("--format %s prints %q from the rows as it is", f, c)
			}
		}
		for _, esc := range escapes {
			if !strings.Contains(out, esc) {
				t.Errorf("--format %s does not show %s", f, esc)
			}
		}
	}
}

// An error that quotes text from outside (here a file name from the
// command line, as a row's text or a server's reply may be) reaches the
// terminal escaped.
func TestErrorsShowControlCharactersAsEscapes(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "rows\x1b]0;pwned\a\u202e.jsonl")
	_, errOut, code := runCLI(t, "compare", missing, missing)
	if code == 0 {
		t.Fatal("esr compare of missing files: exit 0")
	}
	for _, c := range terminalControls {
		if strings.Contains(errOut, c) {
			t.Errorf("the error prints %q as it is: %q", c, errOut)
		}
	}
	if !strings.Contains(errOut, `rows\x1b]0;pwned\a\u202e.jsonl`) {
		t.Errorf("the error does not show the name escaped: %q", errOut)
	}
}
