package rowcache_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/benchtest"
	"github.com/esrkit/esrkit/internal/rowcache"
)

// A cell that reads a suite's tables from the file kept beside its rows
// shows what building the suite's Report shows: the same tables, skipped
// tables (with their causes), comparisons and sentences; the figures are
// not kept, and each is drawn again from what was kept, byte for byte.
func TestKeptTablesReadBackAsBuilt(t *testing.T) {
	rs, err := reader.ParseList("scripted:status-reader,scripted:time-sorter", llm.Setup{}, sim.Readers)
	if err != nil {
		t.Fatal(err)
	}
	s := lab.Setup{Bench: benchtest.Mini(4), Readers: rs, Stats: eval.StatOptions{B: 50, Seed: 1}}
	figures := 0
	for _, name := range []string{"render-confound", "boundary", "provenance", "noise", "formats"} {
		su := lab.SuiteID(name).Suite()
		dir := t.TempDir()
		rows, _, err := rowcache.Rows(context.Background(), su, s, dir)
		if err != nil {
			t.Fatal(err)
		}
		rowsFile, err := rowcache.File(su, s, dir)
		if err != nil {
			t.Fatal(err)
		}
		res, err := su.Report(rows, s)
		if err != nil {
			t.Fatal(err)
		}
		path := rowcache.KeptFile(rowsFile, s.Stats)
		if err := rowcache.Keep(res, path, rowsFile); err != nil {
			t.Fatal(err)
		}
		got, ok := rowcache.ReadKept(path, rowsFile, res.Rows)
		if !ok {
			t.Fatalf("%s: kept tables do not read back", name)
		}
		// %v prints NaN endpoints alike, where == would not.
		for _, c := range []struct {
			what      string
			want, got any
		}{
			{"tables", values(res.Tables), values(got.Tables)},
			{"comparisons", res.Comparisons, got.Comparisons},
			{"sentences", res.Verdicts, got.Verdicts},
		} {
			if fmt.Sprintf("%+v", c.want) != fmt.Sprintf("%+v", c.got) {
				t.Errorf("%s: %s read back differ:\n%+v\n%+v", name, c.what, c.want, c.got)
			}
		}
		if len(got.Skipped) != len(res.Skipped) {
			t.Fatalf("%s: %d skipped tables read back, want %d", name, len(got.Skipped), len(res.Skipped))
		}
		for i := range res.Skipped {
			if got.Skipped[i].Error() != res.Skipped[i].Error() {
				t.Errorf("%s: skipped %q read back as %q", name, res.Skipped[i].Error(), got.Skipped[i].Error())
			}
		}
		if len(got.Figures) != 0 {
			t.Errorf("%s: figures were kept", name)
		}
		figures += len(res.Figures)
		for id, p := range res.Figures {
			q, err := got.Figure(id)
			if err != nil {
				t.Errorf("%s: figure %s not drawn from what was kept: %v", name, id, err)
				continue
			}
			if !bytes.Equal(svgBytes(t, p), svgBytes(t, q)) {
				t.Errorf("%s: figure %s drawn from what was kept differs from the Report's", name, id)
			}
		}
	}
	if figures < 5 {
		t.Errorf("%d figures compared, want the 5 these suites draw", figures)
	}
	if rowcache.KeptFile("r.jsonl", eval.StatOptions{B: 50}) == rowcache.KeptFile("r.jsonl", eval.StatOptions{B: 60}) {
		t.Error("tables built under other statistics options share a file")
	}
}

func svgBytes(t *testing.T, p *plot.Plot) []byte {
	w, err := p.WriterTo(4*vg.Inch, 3*vg.Inch, "svg")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := w.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func values(ts []*eval.Table) []eval.Table {
	var out []eval.Table
	for _, t := range ts {
		out = append(out, *t)
	}
	return out
}
