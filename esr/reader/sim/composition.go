package sim

import (
	"fmt"
	"math"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
)

// This file measures what the bench's composition does to the validated
// tables: the same readers' Table 2 and Table 5 on the clean bench (`esr gen
// --like clean`: equal strata, no extraction loss, short template prose) and
// on the bundled one (the paper's composition), cell by cell, and the share
// of Table 5's miss that composition accounts for.

// compositionTables are the tables compared across benches: Table 2 (the
// render/mechanism split, reverted-revert snapshot questions) and Table 5
// (accuracy per stratum and class): both per stratum, so neither depends on
// the bench's stratum mix.
var compositionTables = []string{"Table 2", "Table 5"}

// CompositionCells keeps the cells of the compared tables (Table 2 and
// Table 5) from a validation's cells.
func CompositionCells(cells []ValidationCell) []ValidationCell {
	var out []ValidationCell
	for _, c := range cells {
		for _, t := range compositionTables {
			if c.Table == t {
				out = append(out, c)
			}
		}
	}
	return out
}

// compositionShare is Table 5's mean absolute error over its cells on the
// clean bench (Clean) and on the validated bench (Ours), with the same
// readers, and the share of the clean bench's error that the composition
// change removes:
//
//	Share = (Clean − Ours) / Clean
//
// (negative when the validated bench is missed by more). N is the number of
// cells both benches have.
type compositionShare struct {
	Clean, Ours, Share float64
	N                  int
}

// table5CompositionShare measures compositionShare over the Table 5 cells
// present in both clean and ours; ok is false when there are none.
func table5CompositionShare(clean, ours []ValidationCell) (compositionShare, bool) {
	by := map[string]ValidationCell{}
	for _, c := range clean {
		if c.Table == "Table 5" {
			by[c.Cell] = c
		}
	}
	var s compositionShare
	for _, c := range ours {
		o, ok := by[c.Cell]
		if c.Table != "Table 5" || !ok {
			continue
		}
		s.N++
		s.Clean += math.Abs(o.Error())
		s.Ours += math.Abs(c.Error())
	}
	if s.N == 0 || s.Clean == 0 {
		return s, false
	}
	s.Clean /= float64(s.N)
	s.Ours /= float64(s.N)
	s.Share = (s.Clean - s.Ours) / s.Clean
	return s, true
}

// CompositionTable sets the same readers' Table 2 and Table 5 cells on the
// clean bench beside those on the validated bench (bench names it), each
// with the paper's value and the error, and per table the mean absolute
// error on each. fitted says which of the validated bench's cells the
// calibration fitted (Table 2's: fitted on that bench, so agreement there
// is by construction; the same cells on the clean bench are not fitted).
func CompositionTable(clean, ours []ValidationCell, bench string, fitted func(ValidationCell) bool) *eval.Table {
	t := &eval.Table{ID: "composition-effect", Title: "The same SIMULATED readers on the clean bench and on " + bench + ": Table 2 and Table 5",
		Columns: []string{"table", "cell", "paper", "clean bench", "error", bench, "error"}}
	key := func(c ValidationCell) string { return c.Table + "\x00" + c.Cell }
	old := map[string]ValidationCell{}
	for _, c := range CompositionCells(clean) {
		old[key(c)] = c
	}
	val := func(c ValidationCell) eval.Cell {
		if c.Interval {
			return eval.SignedCell(c.Ours)
		}
		return eval.PropCell(c.Ours)
	}
	mae := map[string][2]float64{}
	n := map[string]int{}
	for _, c := range CompositionCells(ours) {
		o, ok := old[key(c)]
		if !ok {
			continue
		}
		paperV := eval.PropCell(c.Paper)
		if c.Interval {
			paperV = eval.SignedCell(c.Paper)
		}
		nv := val(c)
		if fitted != nil && fitted(c) {
			nv.Text += " (fitted)"
		}
		t.AddRow(c.Table, c.Cell, paperV, val(o), eval.SignedCell(o.Error()), nv, eval.SignedCell(c.Error()))
		m := mae[c.Table]
		m[0] += math.Abs(o.Error())
		m[1] += math.Abs(c.Error())
		mae[c.Table] = m
		n[c.Table]++
	}
	for _, tb := range compositionTables {
		if n[tb] == 0 {
			continue
		}
		k := float64(n[tb])
		t.AddRow(tb, fmt.Sprintf("mean |error| over %d cells", n[tb]), "", "", mae[tb][0]/k, "", mae[tb][1]/k)
	}
	t.Notes = []string{
		"SIMULATED readers (the default panel, sim:fit-*), the same on both benches; exact-match judge; Table 2: reverted-revert snapshot questions, paired differences; Table 5: snapshot accuracy per stratum and class",
		"clean bench: `esr gen --like clean` (equal strata, event and co-key recall 1, short template prose); " + bench + ": the paper's composition (`esr gen --like paper --rare-oversample 2`); both tables are per stratum, so the oversampled rare strata change their power, not their values",
		"regenerate: go run ./cmd/esr calibrate --bench data/synthetic --validate --out esr/reader/sim/validation-default.json",
	}
	if fitted != nil {
		t.Notes = append(t.Notes, "(fitted): a number the calibration fitted on "+bench+", agreement by construction; on the clean bench the same cell is out of sample")
	}
	return t
}

// CompositionSentence says what composition does to Table 5 with the same
// readers, every number from clean and ours.
func CompositionSentence(clean, ours []ValidationCell, bench string) string {
	s, ok := table5CompositionShare(clean, ours)
	if !ok {
		return ""
	}
	change := "removes"
	if s.Share < 0 {
		change = "adds"
	}
	return fmt.Sprintf("With the same readers, Table 5's mean |error| over its %d cells is %.3f on the clean bench and %.3f on %s: the paper's composition %s %.0f%% of the clean bench's miss (%.3f of %.3f); the other %.3f remains on a bench built like the paper's.",
		s.N, s.Clean, s.Ours, bench, change, 100*math.Abs(s.Share), math.Abs(s.Clean-s.Ours), s.Clean, s.Ours)
}

// compositionMarkdown is the comparison as docs/differences.md carries
// it: the sentence and the table.
func compositionMarkdown(v *ValidationFile, c *Calibration, bench string) string {
	var b strings.Builder
	fitted := func(x ValidationCell) bool { return Fitted(c, x) }
	fmt.Fprintf(&b, "%s\n\n%s", CompositionSentence(v.CleanBench, v.Cells, bench), CompositionTable(v.CleanBench, v.Cells, bench, fitted).Markdown())
	return b.String()
}

// Table2Cells are the Table 2 cells among cells (the DeepSeek-V3 column).
func Table2Cells(cells []ValidationCell) []ValidationCell {
	var out []ValidationCell
	for _, c := range cells {
		if c.Table == "Table 2" {
			out = append(out, c)
		}
	}
	return out
}
