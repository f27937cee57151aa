package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/checks"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
)

func init() {
	register("calibrate", "fit the paper panel (one simulated reader per paper family) to Tables 16–17 and Table 2 jointly (writes the profiles as JSON); --grid shows whether the fit is identified", runCalibrate)
}

// runCalibrate fits the calibrated sim profiles on a bench and writes them
// as a calibration file, which `sim:@FILE#NAME` loads; it prints each
// family's fit error per target. With --grid it runs the identifiability
// or noise grid instead and writes its summaries.
func runCalibrate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("calibrate", stderr)
	dir := fs.String("bench", "data/synthetic", "benchmark folder the profiles are fitted on")
	targets := fs.String("targets", "paper", "what to fit to: paper (Tables 16, 17 and 2 of the paper's registry)")
	reading := fs.String("reading", paper.Table17Reading, "Table 17's column reading: verbose-first or compact-first")
	noise := fs.Float64("aux-noise", checks.DefaultAuxNoise, "relation-label noise that stands for the paper's auxiliary split (Tables 16–17's targets)")
	drop := fs.String("drop", "", "comma-separated target groups to leave out of the fit: t2, t16, t17 (e.g. --drop t2, the identifiability lesson)")
	ridge := fs.Float64("ridge", checks.CalibrationRidge, "ridge weight toward the starting point")
	starts := fs.String("starts", "", "comma-separated starting points (0–2) to fit from; empty tries all and keeps the best")
	grid := fs.String("grid", "", "run a grid of fits instead of one: identifiability (starts × ridge × with/without Table 2) or noise (auxiliary noise 0–0.3); or sensitivity: the Jacobian of --calibration's fit")
	calFile := fs.String("calibration", "", "with --grid sensitivity: the calibration file to differentiate (default: the shipped one)")
	out := fs.String("out", "", "file to write (JSON): the calibration, or the grid's summaries")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *targets != "paper" {
		return fmt.Errorf("--targets %q: only paper is known", *targets)
	}
	if err := requireFlags(fs, "out"); err != nil {
		return err
	}
	if err := checkFile("--out", *out, "esr calibrate", isCalibrateOut, input("--bench", *dir), input("--calibration", *calFile)); err != nil {
		return err
	}
	opt := checks.CalibrateOptions{Reading: *reading, AuxNoise: *noise, Ridge: *ridge}
	if *drop != "" {
		opt.Drop = strings.Split(*drop, ",")
	}
	if *starts != "" {
		for _, s := range strings.Split(*starts, ",") {
			i, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				return fmt.Errorf("--starts: %q is not a number", s)
			}
			opt.Starts = append(opt.Starts, i)
		}
	}
	b, err := bench.Load(*dir)
	if err != nil {
		return err
	}
	ctx := context.Background()
	if *grid == "sensitivity" {
		c := reader.Calibrated()
		if *calFile != "" {
			if c, err = reader.LoadCalibration(*calFile); err != nil {
				return err
			}
		}
		s, err := checks.CalibrationSensitivity(ctx, b, c)
		if err != nil {
			return err
		}
		if err := writeJSON(*out, s); err != nil {
			return err
		}
		fmt.Fprintln(stdout, checks.SensitivityTable(s).Markdown())
		return nil
	}
	if *grid != "" {
		var g []checks.GridFit
		switch *grid {
		case "identifiability":
			g = checks.IdentifiabilityGrid()
		case "noise":
			g = checks.NoiseGrid()
		default:
			return fmt.Errorf("--grid %q: want identifiability or noise", *grid)
		}
		rows, err := checks.FitGrid(ctx, b, g)
		if err != nil {
			return err
		}
		if err := writeJSON(*out, rows); err != nil {
			return err
		}
		fmt.Fprintln(stdout, checks.FitGridTable("calibration-grid", "Fits of the "+*grid+" grid", rows).Markdown())
		fmt.Fprintln(stdout, checks.GridSentence(rows))
		return nil
	}
	c, err := checks.Calibrate(ctx, b, opt)
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

// printCalibration prints the fit: the sentence, each family's profile and
// its targets, and the panel's.
func printCalibration(w io.Writer, c *reader.Calibration) {
	fmt.Fprintln(w, checks.CalibrationSentence(c))
	for _, f := range c.Families {
		fmt.Fprintf(w, "%s (%s): %s; RMSE %.3f\n", f.Profile.Name, f.Family, f.Profile.Skills(), f.RMSE)
		for _, t := range f.Targets {
			fmt.Fprintf(w, "  %-14s paper %+.3f  fit %+.3f  error %+.3f\n", t.Name, t.Paper, t.Fit, t.Error())
		}
	}
	for _, t := range c.Panel {
		fmt.Fprintf(w, "panel %-24s paper %+.3f  fit %+.3f  error %+.3f\n", t.Name, t.Paper, t.Fit, t.Error())
	}
}
