package lab

import (
	"github.com/esrkit/esrkit/esr/paper"

	"fmt"
	"sort"

	"gonum.org/v1/plot"

	mstats "github.com/montanaflynn/stats"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/coverage"
	"github.com/esrkit/esrkit/internal/report"
)

// Table1 is the paper's Table 1 for a benchmark: QAs by source, stratum
// and query type, with the paper's main-set counts beside.
func Table1(b *bench.Bench, name string) *eval.Table {
	c := coverage.Describe(b)
	t := &eval.Table{ID: eval.TableID("table1-composition-" + name), Title: fmt.Sprintf("Table 1: composition of %s (%d streams, %d QAs)", name, c.Streams, c.QAs),
		Columns: []string{"source", "query type"}}
	for _, p := range esr.Phenomena {
		t.Columns = append(t.Columns, string(p))
	}
	t.Columns = append(t.Columns, "total")
	var sources []string
	for s := range c.BySourceStratumQuery {
		sources = append(sources, s)
	}
	sort.Strings(sources)
	for _, src := range sources {
		for _, q := range esr.QueryTypes {
			row := []any{src, string(q)}
			total := 0
			for _, p := range esr.Phenomena {
				n := c.BySourceStratumQuery[src][string(p)][string(q)]
				total += n
				row = append(row, n)
			}
			if total == 0 {
				continue
			}
			t.AddRow(append(row, total)...)
		}
	}
	pc := func(k paper.Key) string { return report.Thousands(int(paper.Number(k))) }
	st := func(p esr.Phenomenon) string { return pc(paper.StratumCount(paper.T1, p)) }
	t.Notes = []string{fmt.Sprintf("paper main set: %s QAs (GitHub %s, Wiki %s, MultiRepo %s, DyKnow %s); strata RR %s, CSC %s, refines %s, monotonic %s",
		pc(paper.T1QAs), pc(paper.T1GitHub), pc(paper.T1Wiki), pc(paper.T1MultiRepo), pc(paper.T1DyKnow), st(esr.RevertedRevert), st(esr.CrossSourceConflict), st(esr.Refinement), st(esr.Monotonic))}
	return t
}

// StreamLengthTable is the distribution of events per stream: Table 12's
// bins with stream and QA counts, and descriptive statistics (computed with
// montanaflynn/stats).
func StreamLengthTable(b *bench.Bench, name string) (*eval.Table, error) {
	c := coverage.Describe(b)
	t := &eval.Table{ID: eval.TableID("stream-lengths-" + name), Title: "Stream lengths of " + name + " (events per stream)",
		Columns: []string{"events", "paper's bin (Table 12)", "streams", "QAs"}}
	if c.ShortStreams > 0 {
		t.AddRow("1", "below the paper's bins", c.ShortStreams, c.ShortQAs)
	}
	for _, bc := range c.LengthBins {
		t.AddRow(bc.Label, bc.Paper, bc.Streams, bc.QAs)
	}
	if c.LongStreams > 0 {
		t.AddRow(fmt.Sprintf("over %d", coverage.LengthBins[len(coverage.LengthBins)-1].Hi), "above the paper's bins", c.LongStreams, c.LongQAs)
	}
	lengths := make(mstats.Float64Data, 0, len(b.Streams))
	for _, s := range b.Streams {
		lengths = append(lengths, float64(len(s.Events)))
	}
	mean, err := lengths.Mean()
	if err != nil {
		return nil, err
	}
	med, _ := lengths.Median()
	q, err := mstats.Quartile(lengths)
	if err != nil {
		return nil, err
	}
	lo, _ := lengths.Min()
	hi, _ := lengths.Max()
	t.Notes = []string{fmt.Sprintf("mean %.1f, median %.0f, quartiles %.0f–%.0f, range %.0f–%.0f events", mean, med, q.Q1, q.Q3, lo, hi),
		"the paper prints Table 12's bins with shared edges (5–6, 6–10); read right-closed (a stream of n events is in the bin with lo < n ≤ hi) they hold the event counts of the first column; every stream is in one row"}
	return t, nil
}

// CoverageTable is Appendix F's extraction coverage on snapshot QAs: event
// recall and co-key recall with their parts, beside the paper's GitHub
// figures, plus atoms per event and keys per stream.
func CoverageTable(b *bench.Bench, name string) *eval.Table {
	r := coverage.Measure(b, func(q *esr.QA) bool { return q.Type() == esr.Snapshot })
	t := &eval.Table{ID: eval.TableID("coverage-" + name), Title: "Extraction coverage of " + name + " (snapshot QAs)",
		Columns: []string{"measure", "ours", "num / den", "paper (GitHub)"}}
	t.AddRow("event recall", fmt.Sprintf("%.3f ± %.3f", r.EventRecall.Value, r.EventRecall.SE), fmt.Sprintf("%d / %d", r.EventRecall.Num, r.EventRecall.Den), "0.86 (1770/2055)")
	t.AddRow("co-key recall", fmt.Sprintf("%.3f ± %.3f", r.CoKeyRecall.Value, r.CoKeyRecall.SE), fmt.Sprintf("%d / %d", r.CoKeyRecall.Num, r.CoKeyRecall.Den), "0.96 (585/609)")
	t.AddRow("atoms per event (events with atoms)", eval.NumberCell("%.2f", r.AtomsPerEvent.PerEventWith), fmt.Sprintf("%d / %d", r.AtomsPerEvent.Atoms, r.AtomsPerEvent.EventsWithAtoms), "—")
	t.AddRow("keys per stream", eval.NumberCell("%.2f", r.KeysPerStream.Mean), fmt.Sprintf("%d / %d", r.KeysPerStream.Keys, r.KeysPerStream.StreamsWithAtoms), "—")
	t.AddRow("questions about a key with no atom", eval.NumberCell("%.3f", float64(r.Uncovered)/float64(max(1, r.QAs))), fmt.Sprintf("%d / %d", r.Uncovered, r.QAs), "—")
	t.Notes = []string{"± is one binomial standard error; event recall counts gold-relevant (supporting ∪ deprecated) events with ≥ 1 atom; co-key recall: among QAs with a supporting and a deprecated event extracted, the share whose key sets intersect (spec §6)",
		"a question about a key with no atom in its stream (the extraction missed every event of the key) is evaluated like any other: every memory has nothing to show for it"}
	return t
}

// StreamLengthPlot draws the share of streams in each stream-length bin of
// Table 12 (right-closed event counts), one bar per bin.
func StreamLengthPlot(b *bench.Bench, name string) *plot.Plot {
	c := coverage.Describe(b)
	var pts []report.IntervalPoint
	for _, bc := range c.LengthBins {
		share := float64(bc.Streams) / float64(max(1, c.Streams))
		pts = append(pts, report.IntervalPoint{Label: bc.Label + " events", Est: share, Lo: share, Hi: share})
	}
	p := report.BarPlot("Streams of "+name+" by length (Table 12's bins)", "share of streams", pts)
	p.Y.Max = 1
	return p
}
