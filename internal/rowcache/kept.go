package rowcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"errors"
	"fmt"
	"os"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/safefile"
)

// keptResult is what a suite's Report built, except its figures (a plot
// does not serialise; lab.Result.Figure draws them again from the
// comparisons and rows), kept beside the suite's cached rows. GoNB runs every cell
// as a process of its own, so without it each cell that shows one table
// would build the suite's whole Report again (every table and every
// interval of the suite).
type keptResult struct {
	Name        string
	Tables      []*eval.Table
	Skipped     []skippedTable
	Comparisons map[lab.TableID][]eval.Comparison
	Verdicts    map[lab.TableID][]string
	// Rows is the seal of the rows file the tables were built from
	// (its row count and SHA-256): ReadKept reads them only beside it.
	Rows string
}

type skippedTable struct {
	Table lab.TableID
	Err   string
}

// KeptFile is where the Result built from the rows in rowsFile under opt
// is kept (Keep): the rows file's name already holds the data,
// readers, judge, options and code they depend on; the statistics options
// are added.
func KeptFile(rowsFile string, opt eval.StatOptions) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%+v", opt))
	return fmt.Sprintf("%s.tables-%x.gob", rowsFile, h[:6])
}

// Keep writes res, without its figures, to path (KeptFile), for ReadKept:
// res must have been built from the rows in rowsFile, which its seal must
// prove whole (Rows wrote it); the kept tables carry that seal.
func Keep(res *lab.Result, path, rowsFile string) error {
	sf, err := sealed(rowsFile)
	if err != nil {
		return err
	}
	b := keptResult{Name: res.Name, Tables: res.Tables, Comparisons: res.Comparisons, Verdicts: res.Verdicts, Rows: sealText(sf.seal)}
	for _, e := range res.Skipped {
		b.Skipped = append(b.Skipped, skippedTable{Table: e.Table, Err: e.Err.Error()})
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(b); err != nil {
		return err
	}
	return safefile.WriteFile(path, buf.Bytes(), 0o644)
}

// sealText is what kept tables record of their rows' seal.
func sealText(s rowsSeal) string { return fmt.Sprintf("%d rows sha256=%s", s.Rows, s.SHA256) }

// ReadKept is the Result kept at path for the rows in rowsFile, over rows
// (nil: a cell that shows a table needs none), without figures (Figure
// draws them from what was kept); ok is false when there is none, when it
// does not decode, or when rowsFile's seal does not prove it whole or is
// not the one the tables were built beside: they are then built again.
func ReadKept(path, rowsFile string, rows []eval.Outcome) (*lab.Result, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	var b keptResult
	if gob.NewDecoder(bytes.NewReader(data)).Decode(&b) != nil {
		return nil, false
	}
	sf, err := sealed(rowsFile)
	if err != nil || b.Rows != sealText(sf.seal) {
		return nil, false
	}
	res := &lab.Result{Name: b.Name, Rows: rows, Tables: b.Tables, Comparisons: b.Comparisons, Verdicts: b.Verdicts}
	for _, s := range b.Skipped {
		res.Skipped = append(res.Skipped, lab.TableError{Table: s.Table, Err: errors.New(s.Err)})
	}
	return res, true
}
