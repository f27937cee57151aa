package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/runlog"
	"github.com/esrkit/esrkit/internal/report"
	"github.com/esrkit/esrkit/internal/safefile"
	"github.com/esrkit/esrkit/internal/site"
	"github.com/esrkit/esrkit/internal/termsafe"
)

// regressionExit is esr compare's status when --fail-on-regression finds
// B worse than A (1 is any other error, 2 a usage error).
const regressionExit = 3

// exitError is an error that sets the command's exit status.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// ExitCode is the status runMain exits with.
func (e *exitError) ExitCode() int { return e.code }

// listFlag is a flag that may repeat, one value each time (a scorer's
// name may hold a comma: lm-eval's "acc,none").
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, " ") }

func (l *listFlag) Set(v string) error {
	if v = strings.TrimSpace(v); v != "" {
		*l = append(*l, v)
	}
	return nil
}

// logOptions are esr compare's flags for logs of other frameworks.
type logOptions struct {
	formatA, formatB runlog.Format
	scorers          listFlag
	modelA, modelB   string
	partial          bool
	group            string
	stats            eval.StatOptions
}

func (o *logOptions) used() bool {
	return len(o.scorers) > 0 || o.modelA != "" || o.modelB != "" || o.partial || o.group != ""
}

// compareOutput is where and how esr compare writes.
type compareOutput struct {
	format, ext, out string
	html, gate       bool
	margin           float64
}

// logFormats are A's and B's formats: --from-a and --from-b, else --from,
// else detected.
func logFormats(pos []string, from, fromA, fromB string) (runlog.Format, runlog.Format, error) {
	var fs [2]runlog.Format
	for i, f := range []string{fromA, fromB} {
		if f == "" {
			f = from
		}
		g, err := runlog.ParseFormat(f)
		if err != nil {
			return "", "", fmt.Errorf("--from: %w", err)
		}
		if g == "" {
			if g, err = runlog.Detect(pos[i]); err != nil {
				return "", "", fmt.Errorf("%s: %w", "AB"[i:i+1], err)
			}
		}
		fs[i] = g
	}
	return fs[0], fs[1], nil
}

func formatName(f runlog.Format) string {
	switch f {
	case runlog.ESR:
		return "esrkit rows"
	case runlog.Inspect:
		return "an Inspect log"
	case runlog.LMEval:
		return "an lm-eval log"
	}
	return "a " + string(f) + " log"
}

// compareLogs is esr compare for two logs of other frameworks.
func compareLogs(pos []string, lo logOptions, o compareOutput, stdout, stderr io.Writer) error {
	var target safefile.Target
	if o.out != "" {
		target = safefile.Target{Flag: "--out", Path: o.out, Writer: "esr compare", Dir: true,
			Inputs: []safefile.Input{input("A", pos[0]), input("B", pos[1])},
			Owned:  func(name string, isDir bool) bool { return !isDir && compareOwned(name) }}
		if err := target.Check(); err != nil {
			return err
		}
	}
	ropt := runlog.ReadOptions{Group: lo.group}
	a, err := runlog.Read(pos[0], lo.formatA, ropt)
	if err != nil {
		return fmt.Errorf("A: %w", err)
	}
	b, err := runlog.Read(pos[1], lo.formatB, ropt)
	if err != nil {
		return fmt.Errorf("B: %w", err)
	}
	c, err := runlog.Compare(a, b, runlog.Options{Stats: lo.stats, Scorers: lo.scorers, ModelA: lo.modelA, ModelB: lo.modelB, Partial: lo.partial})
	if err != nil {
		return err
	}
	verdict := func() error {
		if !o.gate {
			return nil
		}
		for _, v := range c.Verdict(o.margin) {
			// A verdict names the logs' models: text from data.
			fmt.Fprintln(stderr, "esr compare: "+termsafe.Lines(v))
		}
		if r := c.Regressions(o.margin); len(r) > 0 {
			return &exitError{regressionExit, fmt.Sprintf("B is worse than A beyond %v in %d of %d scorers", o.margin, len(r), len(c.Verdict(o.margin)))}
		}
		return nil
	}
	tables := c.Tables()
	if o.out == "" {
		switch o.format {
		case "json":
			err = writeLogsJSON(stdout, c)
		case "md":
			_, err = io.WriteString(stdout, c.Markdown(o.margin))
		default:
			for i, t := range tables {
				if i > 0 {
					io.WriteString(stdout, "\n")
				}
				if err = writeCompareTable(stdout, t, o.format); err != nil {
					break
				}
			}
		}
		if err != nil {
			return err
		}
		return verdict()
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	written := map[string]bool{}
	if o.format == "json" {
		err = safefile.Write(filepath.Join(o.out, "comparison.json"), 0o644, func(w io.Writer) error { return writeLogsJSON(w, c) })
	} else {
		for _, t := range tables {
			t := t
			written[string(t.ID)+o.ext] = true
			if err = safefile.Write(filepath.Join(o.out, string(t.ID)+o.ext), 0o644, func(w io.Writer) error { return writeCompareTable(w, t, o.format) }); err != nil {
				break
			}
		}
	}
	if err != nil {
		return err
	}
	if o.format != "json" {
		// A table of an earlier comparison that this one has not
		// (controls, rows only one side holds) would read as this one's.
		for _, id := range eval.RunTableIDs {
			if name := string(id) + o.ext; !written[name] {
				if err := os.Remove(filepath.Join(o.out, name)); err != nil && !os.IsNotExist(err) {
					return err
				}
			}
		}
	}
	page := filepath.Join(o.out, comparePageName)
	if o.html {
		err = safefile.WriteFile(page, site.LogComparePage(c), 0o644)
	} else if err = os.Remove(page); os.IsNotExist(err) {
		err = nil
	}
	if err != nil {
		return err
	}
	if err := target.Mark(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote the comparison of %s and %s into %s\n", pos[0], pos[1], o.out)
	return verdict()
}

func writeLogsJSON(w io.Writer, c *runlog.Comparison) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}

// gateRuns is --fail-on-regression over two esrkit runs: each regression
// on stderr, and exit status 3 when there is one.
func gateRuns(regs []eval.Comparison, margin float64, stderr io.Writer) error {
	for _, d := range regs {
		fmt.Fprintf(stderr, "esr compare: %s, %s: B − A = %s %s over %d pairs: REGRESSION (its interval lies below %s)\n",
			termsafe.Lines(d.Label), termsafe.Lines(d.Family.String()), report.Signed(d.Delta), d.CI(), d.N, strconv.FormatFloat(-margin, 'g', -1, 64))
	}
	if len(regs) > 0 {
		return &exitError{regressionExit, fmt.Sprintf("B is worse than A beyond %v in %d memory pairs", margin, len(regs))}
	}
	return nil
}

// exitCode is the status of a command's error: its own (exitError), else 1.
func exitCode(err error) int {
	var e interface{ ExitCode() int }
	if errors.As(err, &e) {
		return e.ExitCode()
	}
	return 1
}
