package bench

import (
	"fmt"
	"strings"
)

// Fold counts the text fields of one file whose tabs and line breaks the
// load folded to spaces: an atom's entity, attribute or value quoted from
// a multi-line comment is real data, not a reason to refuse the file, but
// a value is single-line text (a line break could start a row of its own
// in a render). Line and Field name the first such field.
type Fold struct {
	File   string
	Fields int
	Line   int
	Field  string
}

// breaks replaces each tab and each line break (CR LF, LF or CR) with one
// space.
var breaks = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ")

// foldBreaks returns s with each tab and each line break (CR LF, LF or CR)
// replaced by one space, and whether there was any. Other control
// characters are left for the caller to refuse.
func foldBreaks(s string) (string, bool) {
	if !strings.ContainsAny(s, "\t\n\r") {
		return s, false
	}
	return breaks.Replace(s), true
}

// noteFold counts one folded field of file at line.
func (b *Bench) noteFold(file string, line int, field string) {
	for i := range b.Folds {
		if b.Folds[i].File == file {
			b.Folds[i].Fields++
			return
		}
	}
	b.Folds = append(b.Folds, Fold{File: file, Fields: 1, Line: line, Field: field})
}

// Notices are what a command says once about a loaded benchmark: per file,
// the fields whose tabs and line breaks were folded to spaces, and the
// questions about a key with no atom (Uncovered), which are evaluated. Nil
// when there is nothing to say.
func (b *Bench) Notices() []string {
	var out []string
	for _, f := range b.Folds {
		out = append(out, fmt.Sprintf("%s: %d %s held a tab or a line break, folded to a space (first: line %d, field %q)",
			f.File, f.Fields, plural(f.Fields, "field", "fields"), f.Line, f.Field))
	}
	if n := len(b.Uncovered); n > 0 {
		out = append(out, fmt.Sprintf("%s: %d of %d questions %s about a key with no atom in %s stream (a lossy extraction; first: %q): evaluated like any other, with nothing in any memory to show for %s; esr coverage counts %s",
			QAFile, n, len(b.QAs), plural(n, "is", "are"), plural(n, "its", "their"), b.Uncovered[0], plural(n, "it", "them"), plural(n, "it", "them")))
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
