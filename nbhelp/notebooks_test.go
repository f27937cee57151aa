package nbhelp

import (
	"bytes"
	"encoding/json"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// typedResult matches a number with two or more decimals: in a notebook's
// markdown such a number is a result (ours or the paper's) typed by hand.
// Every such number must come from a computed result or the registry of
// paper numbers, through a code cell.
var typedResult = regexp.MustCompile(`[+−-]?\d+\.\d{2,}`)

// codeSpan is inline code in markdown (`alpha := 0.01`): a parameter to
// type, not a result, so the check skips it.
var codeSpan = regexp.MustCompile("`[^`]*`")

// The committed notebooks are sources: no outputs, no execution counts, no
// result typed into their markdown, no helper functions of their own (they
// live in this package), and Go in every code cell gofmt-clean.
func TestNotebooksAreCleanSources(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "notebooks", "*.ipynb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks (%v)", err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var nb struct {
			Cells []struct {
				Type           string          `json:"cell_type"`
				Source         json.RawMessage `json:"source"`
				Outputs        []any           `json:"outputs"`
				ExecutionCount *int            `json:"execution_count"`
			} `json:"cells"`
		}
		if err := json.Unmarshal(b, &nb); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for i, c := range nb.Cells {
			src := sourceText(c.Source)
			if len(c.Outputs) > 0 || c.ExecutionCount != nil {
				t.Errorf("%s cell %d carries outputs or an execution count: commit notebooks without outputs", p, i)
			}
			if c.Type == "code" {
				checkGoCell(t, p, i, src)
				continue
			}
			if c.Type != "markdown" {
				continue
			}
			if m := typedResult.FindString(codeSpan.ReplaceAllString(src, "")); m != "" {
				t.Errorf("%s cell %d: markdown types the number %q; generate it from a result or the paper registry in a code cell", p, i, m)
			}
		}
	}
}

// nbCell is a notebook cell as the tests read it.
type nbCell struct {
	Type   string          `json:"cell_type"`
	Source json.RawMessage `json:"source"`
}

// readCells reads the cells of the notebook at path.
func readCells(t *testing.T, path string) []nbCell {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []nbCell `json:"cells"`
	}
	if err := json.Unmarshal(raw, &nb); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return nb.Cells
}

// sourceText reads a cell source, a string or a list of lines.
func sourceText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var lines []string
	_ = json.Unmarshal(raw, &lines)
	return strings.Join(lines, "")
}

// funcDecl matches a top-level function declaration in a cell.
var funcDecl = regexp.MustCompile(`(?m)^func `)

// checkGoCell checks one code cell: GoNB magics (lines starting with % or !)
// aside, its Go is gofmt-clean, and it declares no function.
func checkGoCell(t *testing.T, path string, i int, src string) {
	t.Helper()
	var code []string
	for _, l := range strings.Split(src, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "%") || strings.HasPrefix(strings.TrimSpace(l), "!") {
			continue
		}
		code = append(code, l)
	}
	body := strings.TrimSpace(strings.Join(code, "\n"))
	if body == "" {
		return
	}
	if funcDecl.MatchString(body) {
		t.Errorf("%s cell %d declares a function; notebook helpers belong in nbhelp", path, i)
	}
	got, err := format.Source([]byte(body))
	if err != nil {
		t.Errorf("%s cell %d: %v", path, i, err)
		return
	}
	if !bytes.Equal(bytes.TrimSpace(got), []byte(body)) {
		t.Errorf("%s cell %d is not gofmt-clean; gofmt gives:\n%s", path, i, got)
	}
}
