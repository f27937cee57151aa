package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var updateCompareDoc = flag.Bool("update-compare-doc", false, "rewrite the outputs shown in docs/compare.md's part on other frameworks' logs")

// compareDocPath is the page and logsSection its part whose commands
// TestCompareDocLogExamplesRun runs.
const (
	compareDocPath = "../../docs/compare.md"
	logsSection    = "## 6. Logs from other frameworks"
)

// docBlock is a fenced block of the page: its language and lines, and
// where its body starts and ends in the page's lines.
type docBlock struct {
	lang       string
	body       []string
	start, end int
}

func docBlocks(lines []string) []docBlock {
	var out []docBlock
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		b := docBlock{lang: strings.TrimPrefix(lines[i], "```"), start: i + 1}
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			b.body = append(b.body, lines[i])
		}
		b.end = i
		out = append(out, b)
	}
	return out
}

// exitsComment is a command line's "# exits N": the status it must exit
// with (0 without one).
var exitsComment = regexp.MustCompile(`\s+# exits (\d+)$`)

// shellWords splits a command line as the shell would for the plain
// words, single and double quotes the docs use.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var out []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				out, inWord = append(out, cur.String()), false
				cur.Reset()
			}
		case c == '\'' || c == '"':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				t.Fatalf("an unclosed quote in %q", line)
			}
			cur.WriteString(line[i+1 : i+1+j])
			i, inWord = i+1+j, true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// TestCompareDocLogExamplesRun runs every command of docs/compare.md's part
// on other frameworks' logs, in order, from a folder where esr/ is the
// repository's (its testdata) and mine/ the commands' own: esr commands in
// this process (as bin/esr would run them), the others (mkdir, sed) in
// bash. The text block after a command block must be what its last esr
// command printed (stdout, then stderr), and each command must exit as its
// "# exits N" says. -update-compare-doc rewrites the text blocks.
func TestCompareDocLogExamplesRun(t *testing.T) {
	raw, err := os.ReadFile(compareDocPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	from := -1
	for i, l := range lines {
		if strings.HasPrefix(l, logsSection) {
			from = i
		} else if from >= 0 && strings.HasPrefix(l, "## ") {
			lines = lines[:i]
			break
		}
	}
	if from < 0 {
		t.Fatalf("%s has no part %q", compareDocPath, logsSection)
	}
	all := strings.Split(string(raw), "\n")
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(repo, "esr"), filepath.Join(dir, "esr")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	blocks := docBlocks(lines[from:])
	var last string
	ran, checked := 0, 0
	type rewrite struct {
		start, end int
		body       string
	}
	var rewrites []rewrite
	for i, b := range blocks {
		switch b.lang {
		case "sh":
			last = ""
			for _, line := range b.body {
				want := 0
				if m := exitsComment.FindStringSubmatch(line); m != nil {
					want, _ = strconv.Atoi(m[1])
					line = line[:len(line)-len(m[0])]
				}
				if strings.HasPrefix(line, "bin/esr ") {
					out, errOut, code := runCLI(t, shellWords(t, strings.TrimPrefix(line, "bin/esr "))...)
					if code != want {
						t.Errorf("%s: exit %d, want %d\n%s", line, code, want, errOut)
					}
					last = out + errOut
					ran++
					continue
				}
				cmd := exec.Command("bash", "-c", line)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s: %v\n%s", line, err, out)
				}
			}
		case "text":
			if i == 0 || blocks[i-1].lang != "sh" {
				continue
			}
			got := strings.TrimRight(last, "\n")
			if *updateCompareDoc {
				rewrites = append(rewrites, rewrite{from + b.start, from + b.end, got})
				continue
			}
			if want := strings.Join(b.body, "\n"); got != want {
				t.Errorf("the output shown after %q is out of date (go test ./cmd/esr -run TestCompareDocLogExamplesRun -update-compare-doc):\ngot:\n%s\nshown:\n%s", blocks[i-1].body[len(blocks[i-1].body)-1], got, want)
			}
			checked++
		}
	}
	if ran < 4 || (!*updateCompareDoc && checked < 4) {
		t.Errorf("ran %d esr commands and checked %d outputs: the part lost its examples", ran, checked)
	}
	if *updateCompareDoc {
		for k := len(rewrites) - 1; k >= 0; k-- {
			r := rewrites[k]
			all = append(all[:r.start], append(strings.Split(r.body, "\n"), all[r.end:]...)...)
		}
		if err := os.WriteFile(filepath.Join(repo, "docs", "compare.md"), []byte(strings.Join(all, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
