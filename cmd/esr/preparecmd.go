package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/codefp"
	"github.com/esrkit/esrkit/internal/repo"
	"github.com/esrkit/esrkit/internal/rowcache"
)

func init() {
	register("prepare", "evaluate the rows and build the tables every notebook reads, once, before the notebooks run (the notebooks' cache, .esr-cache/notebooks)", runPrepare)
}

func runPrepare(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("prepare", stderr)
	root := fs.String("root", "", "the repository `DIR` whose notebooks' cache to fill (default: the one holding the working directory)")
	jobs := fs.Int("jobs", runtime.NumCPU(), "runs at a time")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *jobs < 1 {
		return fmt.Errorf("--jobs %d: want at least 1", *jobs)
	}
	// The runs hold large row sets live, which the collector scans at every
	// cycle: at GOGC=200 the cold prepare took 5–10% less time and CPU than at
	// the default 100 (two alternated pairs on two cores, peak 2.8 GB against
	// 1.9 GB; docs/performance.md). A GOGC the user set wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	if *root == "" {
		r, err := repo.Root()
		if err != nil {
			return err
		}
		*root = r
	}
	// The rows are keyed on this program's code (codefp): built from other
	// code than the tree's, it would fill the notebooks' cache with rows no
	// cell reads, and remove the ones they do (rows of other code).
	if err := codefp.CheckTree(*root); err != nil {
		return err
	}
	// The notebooks' readers (nbhelp.Readers): the same configuration, so
	// the same cache keys.
	rs, err := lab.DefaultReaders(filepath.Join(*root, ".esr-cache"))
	if err != nil {
		return err
	}
	defer closeReaders(rs)
	ctx, stop := interruptContext()
	defer stop()
	start := time.Now()
	ps, err := rowcache.Prepare(ctx, *root, rs, *jobs, func(p rowcache.Prepared) {
		fmt.Fprintln(stderr, preparedLine(p))
	})
	if err != nil {
		return err
	}
	computed := 0
	for _, p := range ps {
		if p.Computed {
			computed++
		}
	}
	fmt.Fprintf(stdout, "prepare: %d runs (%d evaluated, %d read from the cache) in %.0f s\n", len(ps), computed, len(ps)-computed, time.Since(start).Seconds())
	return nil
}

// preparedLine is one run's progress line.
func preparedLine(p rowcache.Prepared) string {
	what := "rows read from the cache"
	if p.Computed {
		what = "rows evaluated"
	}
	if p.Tables {
		what += ", tables built"
	}
	return fmt.Sprintf("prepare: %-26s %7d rows  %5.1f s  (%s)", p.Run, p.Rows, p.Took.Seconds(), what)
}
