package main

import (
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/internal/report"
	"github.com/esrkit/esrkit/internal/safefile"
)

func init() {
	register("compare", "set two stored runs side by side, question by question: B − A per memory and reader, flips, render vs mechanism", runCompare)
}

// compareFormats are the --format values; json writes the whole comparison
// as one document.
var compareFormats = map[string]string{"text": ".txt", "csv": ".csv", "md": ".md", "json": ".json"}

func runCompare(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("compare A B", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: esr compare A B [flags]\n  A, B: outcome rows (esr eval --out, esr rejudge --out) or an esr run output folder")
		fs.PrintDefaults()
	}
	rejudge := fs.String("rejudge", "", "rescore both runs with this judge first (needs --data); "+judgeFlagHelp)
	controls := fs.Bool("controls", false, "split each changed memory's difference into render and mechanism with the memories' ~render-only controls (read from the runs, else run with --data)")
	data := fs.String("data", "", "the benchmark `DIR` both runs answer: rebuilds the flipped questions' renders, rescoring and missing controls need it")
	format := fs.String("format", "text", "output: text, csv, md or json")
	out := fs.String("out", "", "output `DIR` for the tables (differences, flips, only, controls) in --format; default: print to stdout")
	judgeA := fs.String("judge", eval.DefaultRunJudge, "the judge of rows that name none (esr eval's --judge, which rows do not record)")
	cache := fs.String("cache", defaultCache, "response cache `DIR` for an LLM judge or reader")
	B := fs.Int("B", eval.DefaultStats.B, "bootstrap resamples, 1 to 1000000")
	seed := fs.Uint64("seed", eval.DefaultStats.Seed, "bootstrap seed")
	interval := fs.String("interval", eval.IntervalCluster, "bootstrap interval: cluster or pair")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("name two runs: esr compare A B (got %d arguments)", len(pos))
	}
	ext, ok := compareFormats[*format]
	if !ok {
		return fmt.Errorf("--format must be text, csv, md or json, got %q", *format)
	}
	if err := checkResamples(*B); err != nil {
		return err
	}
	if *interval != eval.IntervalCluster && *interval != eval.IntervalPair {
		return fmt.Errorf("--interval %q: want %s or %s", *interval, eval.IntervalCluster, eval.IntervalPair)
	}
	if *rejudge != "" && *data == "" {
		return fmt.Errorf("--rejudge needs --data (the benchmark the rows answer)")
	}
	var target safefile.Target
	if *out != "" {
		target = safefile.Target{Flag: "--out", Path: *out, Writer: "esr compare", Dir: true,
			Inputs: []safefile.Input{input("A", pos[0]), input("B", pos[1]), input("--data", *data)},
			Owned:  func(name string, isDir bool) bool { return !isDir && compareOwned(name) }}
		if err := target.Check(); err != nil {
			return err
		}
	}
	a, err := eval.LoadRun(pos[0])
	if err != nil {
		return err
	}
	b, err := eval.LoadRun(pos[1])
	if err != nil {
		return err
	}
	a.Judge, b.Judge = *judgeA, *judgeA
	opt := eval.RunCompareOptions{Stats: eval.StatOptions{B: *B, Seed: *seed, Level: 0.95, Interval: *interval}, Controls: *controls}
	if *data != "" {
		if opt.Bench, err = bench.Load(*data); err != nil {
			return err
		}
		rel, err := relate.ByName(relate.RuleName, opt.Bench.Relations)
		if err != nil {
			return err
		}
		opt.MemoryOptions = memory.Options{Relator: rel}
	}
	pool := newPool(0, nil)
	if *rejudge != "" {
		j, err := judge.Parse(*rejudge, judge.Config{CacheDir: *cache, Pool: pool})
		if err != nil {
			return err
		}
		defer judge.Close(j)
		opt.Rejudge = j
	}
	if *controls && opt.Bench != nil {
		rs, err := parseReaders(readerList(a, b), *cache, pool, false)
		if err != nil {
			return err
		}
		defer closeReaders(rs)
		opt.Readers = rs
		defer memory.CloseAdapters()
	}
	ctx, stop := interruptContext()
	defer stop()
	rc, err := eval.CompareRuns(ctx, a, b, opt)
	if err != nil {
		return err
	}
	tables := compareTables(rc)
	if *out == "" {
		if *format == "json" {
			return writeCompareJSON(stdout, rc)
		}
		for i, t := range tables {
			if i > 0 {
				io.WriteString(stdout, "\n")
			}
			if err := writeCompareTable(stdout, t, *format); err != nil {
				return err
			}
		}
		return nil
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	if *format == "json" {
		err = safefile.Write(filepath.Join(*out, "comparison.json"), 0o644, func(w io.Writer) error { return writeCompareJSON(w, rc) })
	} else {
		for _, t := range tables {
			t := t
			if err = safefile.Write(filepath.Join(*out, t.Name+ext), 0o644, func(w io.Writer) error { return writeCompareTable(w, t, *format) }); err != nil {
				break
			}
		}
	}
	if err != nil {
		return err
	}
	if len(rc.Controls) == 0 && *format != "json" {
		// A controls table of an earlier comparison would read as this one's.
		if err := os.Remove(filepath.Join(*out, "controls"+ext)); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	if err := target.Mark(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote the comparison of %s and %s into %s\n", pos[0], pos[1], *out)
	return nil
}

// compareOwned accepts the files esr compare writes into --out.
func compareOwned(name string) bool {
	if name == "comparison.json" {
		return true
	}
	for _, stem := range compareTableNames {
		for _, ext := range compareFormats {
			if name == stem+ext {
				return true
			}
		}
	}
	return false
}

// parseInterspersed parses flags that may come after the positional
// arguments (esr compare A B --format md) and returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parseFlags(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

// readerList is the readers of both runs' rows, comma separated (the
// readers that answer missing controls).
func readerList(a, b *eval.StoredRun) string {
	seen := map[reader.Spec]bool{}
	var names []string
	for _, r := range []*eval.StoredRun{a, b} {
		for _, o := range r.Rows {
			if !seen[o.Reader] {
				seen[o.Reader] = true
				names = append(names, o.Reader.String())
			}
		}
	}
	return strings.Join(names, ",")
}

func writeCompareJSON(w io.Writer, rc *eval.RunComparison) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rc)
}

// writeCompareTable prints t. Cells hold text from data (answers, a
// reader's reasoning): Markdown escapes every cell with MarkdownText (no
// markup, no raw HTML, no new line or cell), CSV quotes them, and text
// puts a line break as "⏎".
func writeCompareTable(w io.Writer, t *eval.Table, format string) error {
	switch format {
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write(t.Columns)
		cw.WriteAll(t.Rows)
		return cw.Error()
	case "md":
		var sb strings.Builder
		sb.WriteString("**" + report.MarkdownText(t.Title) + "**\n\n|")
		for _, c := range t.Columns {
			sb.WriteString(" " + report.MarkdownText(c) + " |")
		}
		sb.WriteString("\n|" + strings.Repeat("---|", len(t.Columns)) + "\n")
		for _, r := range t.Rows {
			sb.WriteString("|")
			for _, c := range r {
				sb.WriteString(" " + report.MarkdownText(c) + " |")
			}
			sb.WriteString("\n")
		}
		for _, n := range t.Notes {
			sb.WriteString("\n- " + report.MarkdownText(n))
		}
		if len(t.Notes) > 0 {
			sb.WriteString("\n")
		}
		_, err := io.WriteString(w, sb.String())
		return err
	}
	flat := &eval.Table{Name: t.Name, Title: oneLine(t.Title), Columns: t.Columns, Notes: t.Notes}
	for _, r := range t.Rows {
		row := make([]string, len(r))
		for i, c := range r {
			row[i] = oneLine(c)
		}
		flat.Rows = append(flat.Rows, row)
	}
	_, err := io.WriteString(w, flat.Text())
	return err
}

func oneLine(s string) string {
	return strings.NewReplacer("\r\n", "⏎", "\n", "⏎", "\r", "⏎").Replace(s)
}

// compareTableNames are the stems of the tables, in compareTables's order.
var compareTableNames = []string{"differences", "flips", "only", "controls"}

// compareTables lays out rc as tables: differences (with rc's notes),
// flips, rows only in one run, and the render/mechanism splits.
func compareTables(rc *eval.RunComparison) []*eval.Table {
	diffs := &eval.Table{Name: "differences", Title: fmt.Sprintf("B − A: %s (B) against %s (A)", rc.B.Name, rc.A.Name),
		Columns: []string{"memory A", "memory B", "family", "scope", "n", "acc A", "acc B", "B − A", "95% CI", "p", "gained", "lost"}}
	for _, d := range rc.Diffs {
		scope := "all"
		switch {
		case d.Stratum != "":
			scope = "stratum " + string(d.Stratum)
		case d.QueryType != "":
			scope = "query type " + string(d.QueryType)
		}
		diffs.AddRow(d.Pair.A.String(), d.Pair.B.String(), string(d.Family), scope, d.N, report.Prop(d.AccA), report.Prop(d.AccB),
			report.Signed(d.Delta), d.CI(), report.PValue(d.P), d.Gained, d.Lost)
	}
	diffs.Notes = append([]string{rc.Interval}, rc.Notes...)
	flips := &eval.Table{Name: "flips", Title: "Flips: pairs right in one run only",
		Columns: []string{"memory A", "memory B", "qid", "stratum", "query type", "reader", "condition", "gold", "answer A", "answer B",
			"label A", "label B", "decision A", "decision B", "direction", "render lines changed"}}
	for _, f := range rc.Flips {
		flips.AddRow(f.Pair.A.String(), f.Pair.B.String(), f.QID, string(f.Stratum), string(f.QueryType), f.Reader.String(), f.Variant.String(),
			f.Gold, f.AnswerA, f.AnswerB, string(f.LabelA), string(f.LabelB), f.DecisionA, f.DecisionB, string(f.Direction),
			strings.Join(f.RenderChanged, "\n"))
	}
	only := &eval.Table{Name: "only", Title: "Rows only one run holds (left out)",
		Columns: []string{"run", "qid", "reader", "memory", "condition"}}
	for _, s := range []struct {
		run  string
		keys []eval.RowKey
	}{{"A", rc.OnlyA}, {"B", rc.OnlyB}} {
		for _, k := range s.keys {
			only.AddRow(s.run, k.QID, k.Reader.String(), k.Memory.String(), k.Variant.String())
		}
	}
	out := []*eval.Table{diffs, flips, only}
	if len(rc.Controls) > 0 {
		ctl := &eval.Table{Name: "controls", Title: "Render or mechanism: B − A split with each memory's render-matched control",
			Columns: []string{"memory A", "memory B", "control A", "control B", "family", "n", "total", "total CI", "render", "render CI", "mechanism", "mechanism CI"},
			Notes:   []string{"render = control B − control A; mechanism = (B − control B) − (A − control A); render + mechanism = total, pair by pair"}}
		for _, s := range rc.Controls {
			ctl.AddRow(s.Pair.A.String(), s.Pair.B.String(), s.ControlA.String(), s.ControlB.String(), string(s.Family), s.N,
				report.Signed(s.Total.Delta), report.Interval(s.Total.Lo, s.Total.Hi),
				report.Signed(s.Render.Delta), report.Interval(s.Render.Lo, s.Render.Hi),
				report.Signed(s.Mechanism.Delta), report.Interval(s.Mechanism.Lo, s.Mechanism.Hi))
		}
		out = append(out, ctl)
	}
	return out
}
