package eval

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// StaleRow is a row of an outcomes file that the current selection would
// produce again, but under another fingerprint.
type StaleRow struct {
	File string
	Line int // 1-based, in the file as read
	Row  Outcome
	Want string // the current fingerprint
}

func (e *StaleRow) Error() string {
	what := fmt.Sprintf("the row of qid %s (memory %s, reader %s)", e.Row.QID, e.Row.Memory, e.Row.Reader)
	if e.Row.Judge != "" {
		what = fmt.Sprintf("the row of qid %s (memory %s, reader %s) rescored by judge %s", e.Row.QID, e.Row.Memory, e.Row.Reader, e.Row.Judge)
		if e.Row.Fingerprint == "" {
			return fmt.Sprintf("%s:%d: %s has no fingerprint (written by an older esrkit), so this run cannot tell whether "+
				"the judge, its configuration, the benchmark, the code or the stored row changed since", e.File, e.Line, what)
		}
		return fmt.Sprintf("%s:%d: %s was made by another rescoring (fingerprint %s, this run's %s): the judge or its configuration, "+
			"the benchmark, the code or the stored row changed since", e.File, e.Line, what, e.Row.Fingerprint, e.Want)
	}
	if e.Row.Fingerprint == "" {
		return fmt.Sprintf("%s:%d: %s has no fingerprint (written by an older esrkit), so this run cannot tell whether "+
			"the benchmark, relation source, formats, reader or judge configuration or the code changed since", e.File, e.Line, what)
	}
	s := fmt.Sprintf("%s:%d: %s was made by another configuration (fingerprint %s, this run's %s): the benchmark's content, "+
		"the relation source, the formats, the reader or judge configuration or the code changed since", e.File, e.Line, what, e.Row.Fingerprint, e.Want)
	if e.Row.Memory.Class.IsExec() {
		s += ", or the adapter (its fingerprint covers the file exec: runs and the version and files it names in its answer to hello; " +
			"docs/adapter-protocol.md)"
	}
	return s
}

// FindStale returns the first row of prev (read from file) that the current
// selection would produce (want reports its fingerprint and whether the
// row's memory and reader are selected) with another fingerprint, or nil.
// Rows of memories or readers outside the selection are left alone.
func FindStale(file string, prev []Outcome, want func(m memory.Spec, r reader.Spec) (string, bool)) *StaleRow {
	for i := range prev {
		fp, ok := want(prev[i].Memory, prev[i].Reader)
		if ok && prev[i].Fingerprint != fp {
			return &StaleRow{File: file, Line: i + 1, Row: prev[i], Want: fp}
		}
	}
	return nil
}
