package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/rowcache"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/internal/safefile"
)

func init() {
	register("rejudge", "rescore stored outcome rows with another judge, asking no reader again (append-only, resumable)", runRejudge)
}

func runRejudge(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("rejudge", stderr)
	rowsPath := fs.String("rows", "", "outcome rows JSONL `FILE` to rescore (esr eval's --out; required)")
	j := fs.String("judge", "", "the judge to rescore with (required); "+judgeFlagHelp)
	out := fs.String("out", "", "rescored rows JSONL `FILE`; rows are appended and a rerun resumes (required)")
	dir := fs.String("bench", "data/synthetic", "the benchmark `DIR` the rows answer (questions, aliases, the keys' prior values)")
	fresh := fs.Bool("fresh", false, "truncate --out instead of resuming")
	cache := fs.String("cache", defaultCache, "response cache `DIR` for an LLM judge")
	conc := fs.Int("concurrency", 0, "requests in flight per endpoint (default: "+llm.EnvConcurrency+", else 8)")
	dry := fs.Bool("dry-run", false, "send nothing: print, as JSON, the LLM judge requests the rescoring would make and how many are cached")
	export := fs.String("export", "", "with --dry-run: write the uncached requests to `FILE` in the Batch API format (then esr batch import)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "rows", "judge", "out"); err != nil {
		return err
	}
	if *export != "" && !*dry {
		return fmt.Errorf("--export needs --dry-run")
	}
	if same, err := samePath(*rowsPath, *out); err != nil {
		return err
	} else if same {
		return fmt.Errorf("--out %s is --rows: write the rescored rows to another file", *out)
	}
	// The rows' content is checked when the sink opens them.
	if err := checkFile("--out", *out, "esr rejudge", rowsChecked, input("--rows", *rowsPath), input("--bench", *dir)); err != nil {
		return err
	}
	if *export != "" {
		if err := checkFile("--export", *export, "esr rejudge", isRequests, input("--rows", *rowsPath), input("--bench", *dir), input("--out", *out)); err != nil {
			return err
		}
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
	pool := newPool(*conc, nil)
	jd, err := judge.Parse(*j, judge.Config{CacheDir: *cache, Pool: pool, Offline: *dry})
	if err != nil {
		return err
	}
	defer judge.Close(jd)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opt := eval.RejudgeOptions{Concurrency: judgeConcurrency([]judge.Judge{jd})}
	if *dry {
		plan := llm.NewPlan()
		var none discard
		if err := eval.Rejudge(llm.WithPlan(ctx, plan), b, rows, jd, none, opt); err != nil {
			return err
		}
		return finishPlan(stdout, stderr, plan, *export)
	}
	// The lock is taken before anything is read, trimmed or truncated,
	// and held to the end: a second run on the same --out is refused.
	sink, err := eval.OpenRescoredSink(*out)
	if err != nil {
		if errors.Is(err, safefile.ErrBusy) {
			return fmt.Errorf("%w: another run is writing it; wait for it to finish or use another --out", err)
		}
		return err
	}
	defer sink.Close()
	var prev []eval.Outcome
	if *fresh {
		err = sink.Truncate()
	} else {
		prev, err = sink.Resume()
	}
	if err != nil {
		return err
	}
	// Rescored rows record what produced them; a resume over rows of
	// another judge, benchmark, code or stored row is refused.
	if opt.Fingerprint, err = rowcache.Fingerprint(lab.Setup{Bench: b, Judge: jd}, "rejudge"); err != nil {
		return err
	}
	if st := eval.FindStaleRescored(filepath.Base(*out), prev, rows, opt.Fingerprint); st != nil {
		return fmt.Errorf("%w; use --fresh to rescore every row, or another --out", st)
	}
	opt.Done = eval.Keys(prev)
	meter := startMeter(stderr, pool, "rejudge")
	opt.Progress = meter.progress
	counted := &countingSink{Sink: sink}
	runErr := eval.Rejudge(ctx, b, rows, jd, counted, opt)
	if err := sink.Close(); err != nil && runErr == nil {
		runErr = err
	}
	meter.stop()
	if runErr != nil {
		return fmt.Errorf("%w (rows rescored so far are in %s; rerun to resume)", runErr, *out)
	}
	fmt.Fprintf(stderr, "rescored %d rows of %s with %s into %s (%d were there already); no reader was asked\n",
		counted.n, *rowsPath, jd.Name(), *out, len(prev))
	return nil
}

// countingSink counts the rows it passes on.
type countingSink struct {
	eval.Sink
	n int
}

func (c *countingSink) Put(o eval.Outcome) error {
	c.n++
	return c.Sink.Put(o)
}

// samePath reports whether a and b name the same file.
func samePath(a, b string) (bool, error) {
	fa, err := filepath.Abs(a)
	if err != nil {
		return false, err
	}
	fb, err := filepath.Abs(b)
	if err != nil {
		return false, err
	}
	if fa == fb {
		return true, nil
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb), nil
}
