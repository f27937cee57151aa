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

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/esr/runlog"
	"github.com/esrkit/esrkit/internal/safefile"
	"github.com/esrkit/esrkit/internal/site"
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
		fmt.Fprintln(stderr, "usage: esr compare A B [flags]\n  A, B: outcome rows (esr eval --out, esr rejudge --out) or an esr run output folder;\n  or two logs of another framework: Inspect (.eval or .json), lm-evaluation-harness (samples_*.jsonl or their folder), promptfoo (eval -o FILE.json)")
		fs.PrintDefaults()
	}
	rejudge := fs.String("rejudge", "", "rescore both runs with this judge first (needs --data); "+judgeFlagHelp)
	controls := fs.Bool("controls", false, "split each changed memory's difference into render and mechanism with the memories' ~render-only controls (read from the runs, else run with --data)")
	data := fs.String("data", "", "the benchmark `DIR` both runs answer: rebuilds the flipped questions' renders, rescoring and missing controls need it")
	adapters := fs.String("adapters", "", "exec: memories (`LIST` of exec:PATH, comma separated) whose adapters may run with --data to rebuild renders and answer controls; an adapter named only in the rows never runs")
	format := fs.String("format", "text", "output: text, csv, md or json")
	out := fs.String("out", "", "output `DIR` for the tables (differences, flips, only, controls) in --format; default: print to stdout")
	htmlPage := fs.Bool("html", false, "also write "+comparePageName+" into --out: the tables on one page with filters and each flip's renders side by side (esr report links the pages under results/compare/)")
	judgeA := fs.String("judge", eval.DefaultRunJudge, "the judge of rows that name none (esr eval's --judge, which rows do not record)")
	cache := fs.String("cache", defaultCache, "response cache `DIR` for an LLM judge or reader")
	B := fs.Int("B", eval.DefaultStats.B, "bootstrap resamples, 1 to 1000000")
	seed := fs.Uint64("seed", eval.DefaultStats.Seed, "bootstrap seed")
	var interval eval.IntervalKind
	fs.TextVar(&interval, "interval", eval.IntervalCluster, "bootstrap interval: cluster or pair")
	from := fs.String("from", "auto", "the logs' `FORMAT`: auto (detected), esr, inspect, lm-eval or promptfoo")
	fromA := fs.String("from-a", "", "A's format when it differs from --from")
	fromB := fs.String("from-b", "", "B's format when it differs from --from")
	gate := fs.Bool("fail-on-regression", false, "exit with status 3 when B is worse than A: a difference over all of a pair's samples whose interval lies below -margin")
	margin := fs.Float64("margin", 0, "with --fail-on-regression: how much worse B may be before it fails (the interval must lie below -`M`)")
	var lo logOptions
	fs.Var(&lo.scorers, "scorer", "logs: compare only this `SCORER` (repeat for several); each must be in both logs")
	fs.StringVar(&lo.modelA, "model-a", "", "logs: keep this model of A (a promptfoo provider)")
	fs.StringVar(&lo.modelB, "model-b", "", "logs: keep this model of B")
	fs.BoolVar(&lo.partial, "partial", false, "logs: compare the samples both hold, listing the rest, instead of refusing logs whose samples differ")
	fs.StringVar(&lo.group, "group", "", "logs: the dotted `PATH` of the field that groups samples into the bootstrap's clusters (doc.dialogue_id, metadata.document, vars.conversation); default: each sample")
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
	if *htmlPage && *out == "" {
		return fmt.Errorf("--html writes %s into --out: name the folder with --out DIR", comparePageName)
	}
	if *margin < 0 || *margin != *margin {
		return fmt.Errorf("--margin must be 0 or more, got %v", *margin)
	}
	fa, fb, err := logFormats(pos, *from, *fromA, *fromB)
	if err != nil {
		return err
	}
	if fa != runlog.ESR || fb != runlog.ESR {
		if fa == runlog.ESR || fb == runlog.ESR {
			return fmt.Errorf("A is %s and B %s: compare esrkit rows with esrkit rows, and a framework's logs with logs", formatName(fa), formatName(fb))
		}
		for name, set := range map[string]bool{"--rejudge": *rejudge != "", "--controls": *controls, "--data": *data != "", "--adapters": *adapters != ""} {
			if set {
				return fmt.Errorf("%s applies to esrkit rows; A is %s and B %s", name, formatName(fa), formatName(fb))
			}
		}
		lo.formatA, lo.formatB = fa, fb
		lo.stats = eval.StatOptions{B: *B, Seed: *seed, Level: 0.95, Interval: interval}
		return compareLogs(pos, lo, compareOutput{format: *format, ext: ext, out: *out, html: *htmlPage, gate: *gate, margin: *margin}, stdout, stderr)
	}
	if lo.used() {
		return fmt.Errorf("--scorer, --model-a, --model-b, --partial and --group apply to logs of other frameworks; A and B are esrkit rows")
	}
	if *rejudge != "" && *data == "" {
		return fmt.Errorf("--rejudge needs --data (the benchmark the rows answer)")
	}
	named, err := parseAdapters(*adapters)
	if err != nil {
		return err
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
		return fmt.Errorf("A: %w", err)
	}
	b, err := eval.LoadRun(pos[1])
	if err != nil {
		return fmt.Errorf("B: %w", err)
	}
	a.Judge, b.Judge = *judgeA, *judgeA
	opt := eval.RunCompareOptions{Stats: eval.StatOptions{B: *B, Seed: *seed, Level: 0.95, Interval: interval}, Controls: *controls, Adapters: named}
	if *data != "" {
		defer memory.CloseAdapters()
		if opt.Bench, err = openBench(*data, stderr); err != nil {
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
	}
	ctx, stop := interruptContext()
	defer stop()
	rc, err := eval.CompareRuns(ctx, a, b, opt)
	if err != nil {
		return err
	}
	tables := rc.Tables()
	verdict := func() error {
		if !*gate {
			return nil
		}
		return gateRuns(rc.Regressions(*margin), *margin, stderr)
	}
	if *out == "" {
		if *format == "json" {
			if err := writeCompareJSON(stdout, rc); err != nil {
				return err
			}
			return verdict()
		}
		for i, t := range tables {
			if i > 0 {
				io.WriteString(stdout, "\n")
			}
			if err := writeCompareTable(stdout, t, *format); err != nil {
				return err
			}
		}
		return verdict()
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	if *format == "json" {
		err = safefile.Write(filepath.Join(*out, "comparison.json"), 0o644, func(w io.Writer) error { return writeCompareJSON(w, rc) })
	} else {
		for _, t := range tables {
			t := t
			if err = safefile.Write(filepath.Join(*out, string(t.ID)+ext), 0o644, func(w io.Writer) error { return writeCompareTable(w, t, *format) }); err != nil {
				break
			}
		}
	}
	if err != nil {
		return err
	}
	if len(rc.Controls) == 0 && *format != "json" {
		// A controls table of an earlier comparison would read as this one's.
		if err := os.Remove(filepath.Join(*out, string(eval.RunControls)+ext)); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	page := filepath.Join(*out, comparePageName)
	if *htmlPage {
		err = safefile.WriteFile(page, site.ComparePage(rc), 0o644)
	} else if err = os.Remove(page); os.IsNotExist(err) {
		// A page of an earlier comparison would read as this one's.
		err = nil
	}
	if err != nil {
		return err
	}
	if err := target.Mark(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote the comparison of %s and %s into %s\n", pos[0], pos[1], *out)
	return verdict()
}

// comparePageName is the page --html writes into --out.
const comparePageName = "compare.html"

// compareOwned accepts the files esr compare writes into --out.
func compareOwned(name string) bool {
	if name == "comparison.json" || name == comparePageName {
		return true
	}
	for _, stem := range eval.RunTableIDs {
		for _, ext := range compareFormats {
			if name == string(stem)+ext {
				return true
			}
		}
	}
	return false
}

// parseAdapters reads --adapters: exec: memories, comma separated, as
// their classes (a ~render-only control runs its memory's adapter).
func parseAdapters(list string) ([]memory.Class, error) {
	var out []memory.Class
	for _, name := range strings.Split(list, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		sp, err := memory.ParseSpec(name)
		if err != nil {
			return nil, fmt.Errorf("--adapters: %w", err)
		}
		if !sp.Class.IsExec() {
			return nil, fmt.Errorf("--adapters: %q is not an exec: adapter (exec:PATH)", name)
		}
		out = append(out, sp.Class)
	}
	return out, nil
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
// markup, no raw HTML, no new line or cell, no terminal control), CSV
// quotes them, and text puts a line break as "⏎" and every other control
// character as its escape (Table.Text).
func writeCompareTable(w io.Writer, t *eval.Table, format string) error {
	switch format {
	case "csv":
		cw := csv.NewWriter(w)
		cw.Write(t.Columns)
		cw.WriteAll(t.Texts())
		return cw.Error()
	case "md":
		_, err := io.WriteString(w, t.LiteralMarkdown())
		return err
	}
	flat := &eval.Table{ID: t.ID, Title: oneLine(t.Title), Columns: t.Columns, Notes: t.Notes}
	for _, r := range t.Rows {
		row := make([]eval.Cell, len(r))
		for i, c := range r {
			row[i] = eval.Cell{Kind: c.Kind, Text: oneLine(c.Text)}
		}
		flat.Rows = append(flat.Rows, row)
	}
	_, err := io.WriteString(w, flat.Text())
	return err
}

func oneLine(s string) string {
	return strings.NewReplacer("\r\n", "⏎", "\n", "⏎", "\r", "⏎").Replace(s)
}
