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

var updateDocs = flag.Bool("update-docs", false, "rewrite the outputs shown after the docs' command blocks (docs/*.md)")

// docsDir holds the pages whose commands TestDocCommandsRun runs.
const docsDir = "../../docs"

// A fenced block of a page that holds an esr command says how the test
// treats it by its info string:
//
//   - sh: its lines run in order, in the page's own folder (below), esr
//     commands in this process (as bin/esr would run them), the others
//     (cp, sed, printf) in bash; each must exit as its "# exits N" says
//     (0 without one). A text block right after it is what its last esr
//     command printed (stdout, then stderr).
//   - sh slow: the same, left out under -short (make test runs go test
//     without it); a later block of the page does not use what it wrote.
//   - sh flags-only: not run; its first line is a comment saying why (an
//     endpoint, a source checkout, your own file, minutes of work), and
//     every flag of each esr command must be one that command's --help
//     lists.
//
// A block with an esr command and another info string fails the test, so
// every command in docs/ is either run or has its flags checked.
const (
	blockRun       = "sh"
	blockSlow      = "sh slow"
	blockFlagsOnly = "sh flags-only"
)

// docBlock is a fenced block of a page: its info string and lines, and
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
		b := docBlock{lang: strings.TrimSpace(strings.TrimPrefix(lines[i], "```")), start: i + 1}
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			b.body = append(b.body, lines[i])
		}
		b.end = i
		out = append(out, b)
	}
	return out
}

// docCommand is one command of a block: its code without the comment, the
// exit status its "# exits N" asks for, and its line in the page.
type docCommand struct {
	code string
	want int
	line int
}

// exitsComment is a command's "# exits N".
var exitsComment = regexp.MustCompile(`^# exits (\d+)$`)

// commands are a block's commands: continued lines ("\" at the end)
// joined, comments cut off (outside quotes), blank and comment lines
// dropped.
func (b docBlock) commands(t *testing.T) []docCommand {
	t.Helper()
	var out []docCommand
	for i := 0; i < len(b.body); i++ {
		line, at := b.body[i], b.start+i+1
		for strings.HasSuffix(line, "\\") && i+1 < len(b.body) {
			i++
			line = strings.TrimSuffix(line, "\\") + " " + strings.TrimSpace(b.body[i])
		}
		code, comment := cutComment(line)
		if code == "" {
			continue
		}
		c := docCommand{code: code, line: at}
		if m := exitsComment.FindStringSubmatch(comment); m != nil {
			c.want, _ = strconv.Atoi(m[1])
		}
		out = append(out, c)
	}
	return out
}

// cutComment splits a shell line at its first "#" that starts a word
// outside quotes.
func cutComment(line string) (code, comment string) {
	var quote byte
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return strings.TrimSpace(line[:i]), strings.TrimSpace(line[i:])
		}
	}
	return strings.TrimSpace(line), ""
}

// esrArgs are the arguments of an esr command (bin/esr, esr or go run
// ./cmd/esr, then a command esr has), or ok false for any other command.
func esrArgs(t *testing.T, code string) (args []string, ok bool) {
	t.Helper()
	words := shellWords(t, code)
	switch {
	case len(words) > 1 && (words[0] == "bin/esr" || words[0] == "esr"):
		words = words[1:]
	case len(words) > 3 && words[0] == "go" && words[1] == "run" && words[2] == "./cmd/esr":
		words = words[3:]
	default:
		return nil, false
	}
	if _, ok := commands[words[0]]; !ok {
		return nil, false
	}
	return words, true
}

// mentionsESR reports whether lines hold an esr command, read as plain
// words (a block of another language need not parse as shell).
func mentionsESR(lines []string) bool {
	for _, l := range lines {
		code, _ := cutComment(l)
		w := strings.Fields(code)
		if len(w) > 3 && w[0] == "go" && w[1] == "run" && w[2] == "./cmd/esr" {
			w = w[2:]
		}
		if len(w) > 1 && (w[0] == "bin/esr" || w[0] == "esr" || w[0] == "./cmd/esr") {
			if _, ok := commands[w[1]]; ok {
				return true
			}
		}
	}
	return false
}

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

// helpFlag is a flag as --help lists it.
var helpFlag = regexp.MustCompile(`(?m)^\s+-([A-Za-z][\w-]*)`)

// checkFlags fails unless every flag of the esr command args is one its
// --help lists (a subcommand's, such as `stats bootstrap`'s, when it has
// one).
func checkFlags(t *testing.T, args []string, where string) {
	t.Helper()
	var help string
	if len(args) > 1 && !strings.HasPrefix(args[1], "-") {
		if out, errOut, code := runCLI(t, args[0], args[1], "--help"); code == 0 && helpFlag.MatchString(out+errOut) {
			help = out + errOut
		}
	}
	if help == "" {
		out, errOut, _ := runCLI(t, args[0], "--help")
		help = out + errOut
	}
	known := map[string]bool{}
	for _, m := range helpFlag.FindAllStringSubmatch(help, -1) {
		known[m[1]] = true
	}
	if len(known) == 0 {
		t.Errorf("%s: esr %s --help lists no flags to check against", where, args[0])
		return
	}
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "-") || a == "-" {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !known[name] {
			t.Errorf("%s: esr %s has no flag %s", where, args[0], a)
		}
	}
}

// TestDocCommandsRun runs the commands of every page in docs/ (see
// blockRun): each page in a folder of its own where data/, esr/ and
// examples/ are the repository's (read, never written: the commands write
// beside them) and /tmp/ in a command is the folder's tmp/. A text block
// after a run block must be what its last esr command printed:
// -update-docs rewrites those blocks instead.
func TestDocCommandsRun(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(docsDir, "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("no pages in %s (%v)", docsDir, err)
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	// The notebooks' reader families are the simulated ones here, whatever
	// the environment configures.
	for _, v := range []string{"ESR_LLM_MODELS", "ESR_LLM_BASE_URL", "ESR_LLM_JUDGE_MODEL", "ESR_LLM_ONLINE"} {
		t.Setenv(v, "")
	}
	ran, checked := 0, 0
	for _, page := range pages {
		t.Run(filepath.Base(page), func(t *testing.T) {
			r, c := runDocPage(t, page, repo)
			ran, checked = ran+r, checked+c
		})
	}
	if least := 10; testing.Short() && ran < least || !testing.Short() && ran < 2*least+5 || !*updateDocs && checked < 4 {
		t.Errorf("ran %d esr commands of docs/ and checked %d outputs: the pages lost their commands or the test stopped reading them", ran, checked)
	}
}

// runDocPage runs one page's blocks and returns how many esr commands ran
// and how many outputs shown it checked.
func runDocPage(t *testing.T, page, repo string) (ran, checked int) {
	raw, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	dir := t.TempDir()
	for _, sub := range []string{"data", "esr", "examples"} {
		if err := os.Symlink(filepath.Join(repo, sub), filepath.Join(dir, sub)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	local := func(s string) string { return strings.ReplaceAll(s, "/tmp/", filepath.Join(dir, "tmp")+"/") }
	type rewrite struct {
		start, end int
		body       string
	}
	var rewrites []rewrite
	var last string
	lastRan := false
	for _, b := range docBlocks(lines) {
		where := func(c docCommand) string { return filepath.Base(page) + ":" + strconv.Itoa(c.line) }
		switch {
		case b.lang == blockFlagsOnly:
			lastRan = false
			if len(b.body) == 0 || !strings.HasPrefix(b.body[0], "# ") {
				t.Errorf("%s:%d: a flags-only block opens with a comment saying why it is not run", filepath.Base(page), b.start)
			}
			for _, c := range b.commands(t) {
				if args, ok := esrArgs(t, c.code); ok {
					checkFlags(t, args, where(c))
				}
			}
		case b.lang == blockRun || b.lang == blockSlow:
			if b.lang == blockSlow && testing.Short() {
				t.Logf("-short: %s:%d not run (a slow block)", filepath.Base(page), b.start)
				lastRan = false
				continue
			}
			lastRan, last = true, ""
			for _, c := range b.commands(t) {
				for _, part := range strings.Split(c.code, " && ") {
					part = local(part)
					if strings.HasPrefix(part, "go build ") {
						continue // this test is the build
					}
					if args, ok := esrArgs(t, part); ok {
						out, errOut, code := runCLI(t, args...)
						if code != c.want {
							t.Fatalf("%s: %s: exit %d, want %d\n%s", where(c), part, code, c.want, errOut)
						}
						last = out + errOut
						ran++
						continue
					}
					cmd := exec.Command("bash", "-c", part)
					cmd.Dir = dir
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("%s: %s: %v\n%s", where(c), part, err, out)
					}
				}
			}
		case b.lang == "text":
			if !lastRan {
				continue
			}
			lastRan = false
			got := strings.TrimRight(strings.ReplaceAll(last, filepath.Join(dir, "tmp")+"/", "/tmp/"), "\n")
			if *updateDocs {
				rewrites = append(rewrites, rewrite{b.start, b.end, got})
				continue
			}
			if want := strings.Join(b.body, "\n"); got != want {
				t.Errorf("%s:%d: the output shown is out of date (go test ./cmd/esr -run TestDocCommandsRun -update-docs):\ngot:\n%s\nshown:\n%s", filepath.Base(page), b.start, got, want)
			}
			checked++
		default:
			lastRan = false
			if b.lang != "text" && mentionsESR(b.body) {
				t.Errorf("%s:%d: a block with esr commands is marked %q: mark it %q (run), %q (run without -short) or %q (flags checked, with a comment saying why it is not run)",
					filepath.Base(page), b.start, b.lang, blockRun, blockSlow, blockFlagsOnly)
			}
		}
	}
	if *updateDocs && len(rewrites) > 0 {
		for k := len(rewrites) - 1; k >= 0; k-- {
			r := rewrites[k]
			lines = append(lines[:r.start], append(strings.Split(r.body, "\n"), lines[r.end:]...)...)
		}
		if err := os.WriteFile(filepath.Join(repo, "docs", filepath.Base(page)), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ran, checked
}
