package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/internal/regfile"
)

// runRowsSuffix ends the names of the row files `esr run` writes into its
// output folder (lab's Result.Write: NAME-outcomes.jsonl).
const runRowsSuffix = "-outcomes.jsonl"

// LoadRun reads a stored run from path: an outcome-row JSONL file (esr
// eval's --out or esr rejudge's output) or a folder of `esr run` output,
// whose *-outcomes.jsonl files are read in name order. A bad line is an
// error naming its file and line; so are two rows of one file that answer
// one (qid, memory, reader, condition) differently (CheckConflicts). A run
// with no complete row (an empty file, one unfinished line) is an error
// that says so, rather than a run that compares as nothing.
func LoadRun(path string) (*StoredRun, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	files := []string{path}
	if st.IsDir() {
		ents, err := os.ReadDir(path)
		if err != nil {
			return nil, err
		}
		files = nil
		for _, e := range ents {
			if !e.IsDir() && strings.HasSuffix(e.Name(), runRowsSuffix) {
				files = append(files, filepath.Join(path, e.Name()))
			}
		}
		sort.Strings(files)
		if len(files) == 0 {
			return nil, fmt.Errorf("%s: a folder with no *%s file (esr run's outcome rows)", path, runRowsSuffix)
		}
	}
	r := &StoredRun{Name: path, Files: files, Judge: DefaultRunJudge}
	var size int64
	for _, f := range files {
		rows, n, err := readRowsNamed(f)
		if err != nil {
			return nil, err
		}
		size += n
		if err := CheckConflicts(rows, f); err != nil {
			return nil, err
		}
		// DecodeOutcomes reads every line but a cut last one: row i is line i+1.
		for i := range rows {
			if rows[i].QID == "" || rows[i].Memory.IsZero() {
				return nil, fmt.Errorf("%s:%d: field qid or memory is empty: not an outcome row", f, i+1)
			}
			r.At = append(r.At, RowAt{File: f, Line: i + 1})
		}
		r.Rows = append(r.Rows, rows...)
	}
	if len(r.Rows) == 0 {
		why := "line 1 is not a complete row"
		switch {
		case st.IsDir():
			why = fmt.Sprintf("none of its %d *%s files holds a complete row", len(files), runRowsSuffix)
		case size == 0:
			why = "the file is empty"
		}
		return nil, fmt.Errorf("%s: no outcome rows (%s)", path, why)
	}
	return r, nil
}

// readRowsNamed is ReadOutcomes with errors naming the file as given; it
// returns the file's size too.
func readRowsNamed(path string) ([]Outcome, int64, error) {
	f, st, err := regfile.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	rows, err := DecodeOutcomes(f, path)
	return rows, st.Size(), err
}
