package lab_test

import (
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/benchtest"
)

func TestBenchTables(t *testing.T) {
	b := benchtest.Mini(5)
	t1 := lab.Table1(b, "mini")
	if len(t1.Rows) != 2 { // snapshot and provenance rows of source ""
		t.Errorf("table 1 rows: %v", t1.Rows)
	}
	sl, err := lab.StreamLengthTable(b, "mini")
	if err != nil || !strings.Contains(sl.Notes[0], "median") {
		t.Errorf("stream lengths: %v %v", sl, err)
	}
	cov := lab.CoverageTable(bench.Figure1Bench(), "figure1")
	if cov.Rows[0][1].Text != "1.000 ± 0.000" {
		t.Errorf("coverage of a noise-free bench: %v", cov.Rows[0])
	}
	if last := cov.Texts()[len(cov.Rows)-1]; last[0] != "questions about a key with no atom" || last[2] != "0 / 1" {
		t.Errorf("coverage's uncovered row: %v", last)
	}
}
