package main

import (
	"context"
	"fmt"
	"io"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/robust"
	"github.com/esrkit/esrkit/internal/paper"
)

func init() {
	register("calibrate", "fit one simulated reader per paper family to the paper's Tables 16–17 (writes the profiles as JSON)", runCalibrate)
}

// runCalibrate fits the calibrated sim profiles on a bench and writes them
// as a calibration file, which `sim:@FILE#NAME` loads; it prints each
// family's fit error per target.
func runCalibrate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("calibrate", stderr)
	dir := fs.String("bench", "data/synthetic", "benchmark folder the profiles are fitted on")
	targets := fs.String("targets", "paper", "what to fit to: paper (Tables 16 and 17 of the paper's registry)")
	reading := fs.String("reading", paper.Table17Reading, "Table 17's column reading: verbose-first or compact-first")
	out := fs.String("out", "", "calibration file to write (JSON)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *targets != "paper" {
		return fmt.Errorf("--targets %q: only paper is known", *targets)
	}
	if err := requireFlags(fs, "out"); err != nil {
		return err
	}
	b, err := bench.Load(*dir)
	if err != nil {
		return err
	}
	c, err := robust.Calibrate(context.Background(), b, robust.CalibrateOptions{Reading: *reading})
	if err != nil {
		return err
	}
	if err := writeJSON(*out, c); err != nil {
		return err
	}
	printCalibration(stdout, c)
	fmt.Fprintf(stdout, "wrote %d profiles to %s (load one as sim:@%s#NAME)\n", len(c.Families), *out, *out)
	return nil
}

// printCalibration prints each family's profile and its targets.
func printCalibration(w io.Writer, c *reader.Calibration) {
	for _, f := range c.Families {
		fmt.Fprintf(w, "%s (%s): %s; RMSE %.3f\n", f.Profile.Name, f.Family, f.Profile.Skills(), f.RMSE)
		for _, t := range f.Targets {
			fmt.Fprintf(w, "  %-14s paper %+.3f  fit %+.3f  error %+.3f\n", t.Name, t.Paper, t.Fit, t.Error())
		}
	}
}
