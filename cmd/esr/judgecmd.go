package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/safefile"
)

func init() {
	register("judge", "audit judges with planted answers (gold, paraphrase, outdated, both values, hedge, ...), the judge term of stored rows, the named LLM judge templates", runJudge)
}

// judgeFlagHelp is the --judge flag's help, shared by the commands that
// take judges.
const judgeFlagHelp = "judge: exact, exact-lenient, exact-strict, llm[:MODEL][@template=kit|longmemeval|strict] (docs/judges.md)"

func runJudge(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || (args[0] != "audit" && args[0] != "templates" && args[0] != "term") {
		return fmt.Errorf("usage: esr judge audit --bench DIR --judge J[,J...] [--format text|md|csv|json]\n" +
			"       esr judge term --rows FILE --bench DIR --judge J,J[,J...] [--stratum S] [--format text|md|csv]\n" +
			"       esr judge templates [--format text|json]")
	}
	switch args[0] {
	case "templates":
		return runJudgeTemplates(args[1:], stdout, stderr)
	case "term":
		return runJudgeTerm(args[1:], stdout, stderr)
	}
	fs := newFlags("judge audit", stderr)
	dir := fs.String("bench", "", "benchmark `DIR` whose snapshot QAs get planted answers (required)")
	judges := fs.String("judge", "exact,exact-lenient", "judges to audit, comma separated; "+judgeFlagHelp)
	format := fs.String("format", "text", "output: text, md, csv or json")
	cache := fs.String("cache", defaultCache, "response cache `DIR` for LLM judges")
	conc := fs.Int("concurrency", 0, "requests in flight per endpoint (default: "+llm.EnvConcurrency+", else 8)")
	dry := fs.Bool("dry-run", false, "send nothing: print, as JSON, the LLM judge requests the audit would make and how many are cached")
	export := fs.String("export", "", "with --dry-run: write the uncached requests to `FILE` in the Batch API format (then esr batch import)")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if err := requireFlags(fs, "bench"); err != nil {
		return err
	}
	switch *format {
	case "text", "md", "csv", "json":
	default:
		return fmt.Errorf("--format must be text, md, csv or json, got %q", *format)
	}
	if *export != "" && !*dry {
		return fmt.Errorf("--export needs --dry-run")
	}
	if *export != "" {
		if err := checkFile("--export", *export, "esr judge audit", isRequests, input("--bench", *dir)); err != nil {
			return err
		}
	}
	b, err := openBench(*dir, stderr)
	if err != nil {
		return err
	}
	pool := newPool(*conc, nil)
	js, err := judge.ParseList(*judges, judge.Config{CacheDir: *cache, Pool: pool, Offline: *dry})
	if err != nil {
		return err
	}
	defer judge.Close(js...)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opt := judge.AuditOptions{Concurrency: judgeConcurrency(js)}
	if *dry {
		plan := llm.NewPlan()
		if _, err := lab.JudgeAudit(llm.WithPlan(ctx, plan), b, js, opt); err != nil {
			return err
		}
		return finishPlan(stdout, stderr, plan, *export)
	}
	meter := startMeter(stderr, pool, "judge audit")
	opt.Progress = meter.progress
	rep, err := lab.JudgeAudit(ctx, b, js, opt)
	meter.stop()
	if err != nil {
		return err
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return writeTable(stdout, rep.Table(), *format)
}

// writeTable prints t as text, md or csv.
func writeTable(w io.Writer, t *eval.Table, format string) error {
	switch format {
	case "csv":
		return t.WriteCSV(w)
	case "md":
		_, err := io.WriteString(w, t.Markdown())
		return err
	}
	_, err := io.WriteString(w, t.Text())
	return err
}

// judgeConcurrency is how many answers to judge at once: twice the largest
// endpoint limit of the LLM judges, 1 without any.
func judgeConcurrency(js []judge.Judge) int {
	n := 1
	for _, j := range js {
		if l, ok := j.(*judge.LLMJudge); ok && l.Client != nil && 2*l.Client.Concurrency() > n {
			n = 2 * l.Client.Concurrency()
		}
	}
	return n
}

// finishPlan prints a dry run's plan and, with export set, writes its
// uncached requests as a Batch API file.
func finishPlan(stdout, stderr io.Writer, plan *llm.Plan, export string) error {
	if export != "" {
		if err := safefile.Write(export, 0o644, func(w io.Writer) error { return llm.WriteBatch(w, plan.Pending()) }); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "wrote %d requests to %s\n", plan.ToSend(), export)
	}
	return printPlan(stdout, plan, false)
}

func runJudgeTemplates(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("judge templates", stderr)
	format := fs.String("format", "text", "output: text or json")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	type row struct {
		Name      string `json:"name"`
		Judge     string `json:"judge"`
		File      string `json:"file"`
		Version   string `json:"version"`
		MaxTokens int    `json:"max_tokens"`
		ReplyRule string `json:"reply_rule"`
		Source    string `json:"source"`
		Differs   string `json:"differs"`
	}
	var rows []row
	for _, t := range judge.JudgeTemplates {
		tm, err := llm.Builtin(t.File)
		if err != nil {
			return err
		}
		name := "llm:MODEL@template=" + t.Name
		if t.Name == judge.TemplateKit {
			name = "llm:MODEL"
		}
		rows = append(rows, row{t.Name, name, "esr/llm/templates/" + t.File + ".tmpl", tm.Version(), t.MaxTokens, t.ReplyRule, t.Source, t.Differs})
	}
	switch *format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	case "text":
		var b strings.Builder
		for _, r := range rows {
			fmt.Fprintf(&b, "%s (%s)\n  file: %s, version %s, max_tokens %d\n  reply: %s\n  source: %s\n  differs: %s\n\n",
				r.Name, r.Judge, r.File, r.Version, r.MaxTokens, r.ReplyRule, r.Source, r.Differs)
		}
		_, err := io.WriteString(stdout, b.String())
		return err
	}
	return fmt.Errorf("--format must be text or json, got %q", *format)
}

// runJudgeTerm rescores stored rows with each judge (no reader is asked)
// and prints how the render-matched terms move between them.
func runJudgeTerm(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("judge term", stderr)
	rowsPath := fs.String("rows", "", "outcome rows JSONL `FILE` with the render-matched memories (required)")
	dir := fs.String("bench", "data/synthetic", "the benchmark `DIR` the rows answer")
	judges := fs.String("judge", "exact,exact-lenient,exact-strict", "judges, comma separated, the first the baseline; each rescores the rows; "+judgeFlagHelp)
	stratum := fs.String("stratum", string(esr.RevertedRevert), "keep snapshot rows of this stratum (\"all\": every stratum)")
	format := fs.String("format", "text", "output: text, md or csv")
	cache := fs.String("cache", defaultCache, "response cache `DIR` for LLM judges")
	conc := fs.Int("concurrency", 0, "requests in flight per endpoint (default: "+llm.EnvConcurrency+", else 8)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "rows"); err != nil {
		return err
	}
	switch *format {
	case "text", "md", "csv":
	default:
		return fmt.Errorf("--format must be text, md or csv, got %q", *format)
	}
	rows, err := eval.ReadOutcomes(*rowsPath)
	if err != nil {
		return err
	}
	if err := eval.CheckConflicts(rows, *rowsPath); err != nil {
		return err
	}
	b, err := openBench(*dir, stderr)
	if err != nil {
		return err
	}
	js, err := judge.ParseList(*judges, judge.Config{CacheDir: *cache, Pool: newPool(*conc, nil)})
	if err != nil {
		return err
	}
	defer judge.Close(js...)
	if len(js) < 2 {
		return fmt.Errorf("--judge names %d judge; the judge term needs two or more", len(js))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	f := eval.QueryType(esr.Snapshot)
	scope := "all strata (snapshot)"
	if *stratum != "all" {
		if !esr.ValidPhenomenon(esr.Phenomenon(*stratum)) {
			return fmt.Errorf("--stratum %q is not a stratum or all", *stratum)
		}
		f = eval.And(f, eval.Phenomenon(esr.Phenomenon(*stratum)))
		scope = *stratum + " (snapshot)"
	}
	rows = eval.Select(rows, f)
	var runs []lab.JudgedRows
	for _, j := range js {
		var sink eval.SliceSink
		if err := eval.Rejudge(ctx, b, rows, j, &sink, eval.RejudgeOptions{Concurrency: judgeConcurrency([]judge.Judge{j})}); err != nil {
			return err
		}
		runs = append(runs, lab.JudgedRows{Judge: j.Name(), Rows: sink.Rows})
	}
	jts, err := lab.JudgeTerms(runs, eval.RenderMatched, nil, eval.DefaultStats)
	if err != nil {
		return err
	}
	if err := writeTable(stdout, lab.JudgeTermTable(jts, scope, rows), *format); err != nil {
		return err
	}
	if *format != "csv" {
		fmt.Fprintln(stdout, "\n"+lab.JudgeTermSummary(jts))
	}
	return nil
}
