package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// runRowsSuffix ends the names of the row files `esr run` writes into its
// output folder (lab's Result.Write: NAME-outcomes.jsonl).
const runRowsSuffix = "-outcomes.jsonl"

// LoadRun reads a stored run from path: an outcome-row JSONL file (esr
// eval's --out or esr rejudge's output) or a folder of `esr run` output,
// whose *-outcomes.jsonl files are read in name order. A bad line is an
// error naming its file and line; so are two rows of one file that answer
// one (qid, memory, reader, condition) differently (CheckConflicts).
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
	for _, f := range files {
		rows, err := readRowsNamed(f)
		if err != nil {
			return nil, err
		}
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
	return r, nil
}

// readRowsNamed is ReadOutcomes with errors naming the file as given.
func readRowsNamed(path string) ([]Outcome, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return DecodeOutcomes(f, path)
}
