package nbhelp

import (
	"encoding/json"
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

// The committed notebooks are sources: no outputs, no execution counts, and
// no result typed into their markdown.
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
			if c.Type != "markdown" {
				continue
			}
			if m := typedResult.FindString(src); m != "" {
				t.Errorf("%s cell %d: markdown types the number %q; generate it from a result or the paper registry in a code cell", p, i, m)
			}
		}
	}
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
