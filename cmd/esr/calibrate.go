package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/report"
	"github.com/esrkit/esrkit/internal/rowcache"
	"github.com/esrkit/esrkit/internal/safefile"
)

func init() {
	register("calibrate", "fit the paper panel (one simulated reader per paper family) in two stages: its curve-shaped skills to the evidence registry's published measurements, the rest to Tables 16–17 and Table 2 (writes the profiles as JSON); --grid shows whether the fit is identified, --figures draws the anchors", runCalibrate)
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
	noise := fs.Float64("aux-noise", sim.DefaultAuxNoise, "relation-label noise that stands for the paper's auxiliary split (Tables 16–17's targets)")
	drop := fs.String("drop", "", "comma-separated target groups to leave out of the fit: t2, t16, t17 (e.g. --drop t2, the identifiability lesson)")
	ridge := fs.Float64("ridge", sim.CalibrationRidge, "ridge weight toward the starting point")
	starts := fs.String("starts", "", "comma-separated starting points (0–2) to fit from; empty tries all and keeps the best")
	grid := fs.String("grid", "", "run a grid of fits instead of one: identifiability (starts × ridge × with/without Table 2) or noise (auxiliary noise 0–0.3); or sensitivity: the Jacobian of --calibration's fit")
	calFile := fs.String("calibration", "", "with --grid sensitivity: the calibration file to differentiate (default: the shipped one)")
	card := fs.Bool("card", false, "write the model card (Markdown) of --calibration (default: the shipped one) to --out, with the shipped validation cells")
	predictive := fs.Int("predictive", 0, "with --validate: refit the panel this many times on targets drawn within the paper's uncertainty and give every cell a predictive interval (minutes per refit)")
	validate := fs.Bool("validate", false, "evaluate the default readers on --bench's render-confound, strata, noise and provenance suites and write the validation cells (JSON) to --out")
	out := fs.String("out", "", "file to write: the calibration or the grid's summaries (JSON), the model card (Markdown) or the validation cells (JSON)")
	probes := fs.Bool("probes", false, "print issue 54's probes of --calibration's panel (default: the shipped one) on --bench: hand-built renders (newest of 8 dated rows, an 8-row LIVE-first ledger, a 2-value key with distractor keys and at ~2,000 tokens) and graphrag-abstain on the cross-source-conflict questions, instead of fitting")
	figures := fs.String("figures", "", "write the anchor figures of --calibration (default: the shipped one), each skill's model curve beside the evidence registry's points per family, as DIR/evidence-SKILL-FAMILY.png and .svg, instead of fitting")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *probes {
		c := sim.Calibrated()
		if *calFile != "" {
			var err error
			if c, err = sim.LoadCalibration(*calFile); err != nil {
				return err
			}
		}
		b, err := bench.Load(*dir)
		if err != nil {
			return err
		}
		var ps []sim.Profile
		for _, f := range c.Families {
			ps = append(ps, f.Profile)
		}
		text, err := sim.Probes(context.Background(), b, ps)
		if err != nil {
			return err
		}
		fmt.Fprint(stdout, text)
		return nil
	}
	if *figures != "" {
		c := sim.Calibrated()
		if *calFile != "" {
			var err error
			if c, err = sim.LoadCalibration(*calFile); err != nil {
				return err
			}
		}
		plots := sim.EvidencePlots(sim.ShippedEvidence(), c)
		names := make([]string, 0, len(plots))
		for n := range plots {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if _, _, err := report.SaveFigure(plots[n], *figures, n); err != nil {
				return err
			}
		}
		fmt.Fprintf(stdout, "wrote %d anchor figures (PNG and SVG) to %s\n", len(names), *figures)
		return nil
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
	opt := sim.CalibrateOptions{Reading: *reading, AuxNoise: *noise, Ridge: *ridge}
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
	b, err := openBench(*dir, stderr)
	if err != nil {
		return err
	}
	ctx := context.Background()
	if *card {
		c := sim.Calibrated()
		if *calFile != "" {
			if c, err = sim.LoadCalibration(*calFile); err != nil {
				return err
			}
		}
		shape, err := sim.ShapeOf(b)
		if err != nil {
			return err
		}
		return safefile.WriteFile(*out, []byte(sim.ModelCard(c, shape, sim.ShippedValidation())), 0o644)
	}
	if *validate {
		v, err := validation(ctx, b)
		if err != nil {
			return err
		}
		if *predictive > 0 {
			cellsOf := func(ctx context.Context, ps []sim.Profile) ([]sim.ValidationCell, error) {
				var rs []reader.Reader
				for _, p := range ps {
					r, err := sim.New(p, 0)
					if err != nil {
						return nil, err
					}
					rs = append(rs, r)
				}
				return validationCellsWith(ctx, b, rs)
			}
			if v.Predictive, err = sim.Predictive(ctx, b, sim.Calibrated(), v.Cells, *predictive, cellsOf,
				func(s string) { fmt.Fprintln(stderr, "calibrate: "+s) }); err != nil {
				return err
			}
		}
		if err := writeJSON(*out, v); err != nil {
			return err
		}
		fmt.Fprintln(stdout, sim.ValidationSummary(sim.OutOfSample(sim.Calibrated(), v.Cells)))
		for _, m := range v.Misses {
			fmt.Fprintf(stdout, "- %s (%s): %s\n", m.Table, m.Cause, m.Sentence)
		}
		return nil
	}
	if *grid == "sensitivity" {
		c := sim.Calibrated()
		if *calFile != "" {
			if c, err = sim.LoadCalibration(*calFile); err != nil {
				return err
			}
		}
		s, err := sim.CalibrationSensitivity(ctx, b, c)
		if err != nil {
			return err
		}
		if err := writeJSON(*out, s); err != nil {
			return err
		}
		fmt.Fprintln(stdout, sim.SensitivityTable(s).Markdown())
		return nil
	}
	if *grid != "" {
		var g []sim.GridFit
		switch *grid {
		case "identifiability":
			g = sim.IdentifiabilityGrid()
		case "noise":
			g = sim.NoiseGrid()
		default:
			return fmt.Errorf("--grid %q: want identifiability or noise", *grid)
		}
		rows, err := sim.FitGrid(ctx, b, g)
		if err != nil {
			return err
		}
		if err := writeJSON(*out, sim.GridFile{Kind: sim.GridKind, Fits: rows}); err != nil {
			return err
		}
		fmt.Fprintln(stdout, sim.FitGridTable("calibration-grid", "Fits of the "+*grid+" grid", rows).Markdown())
		fmt.Fprintln(stdout, sim.GridSentence(rows))
		return nil
	}
	c, err := sim.Calibrate(ctx, b, opt)
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
func printCalibration(w io.Writer, c *sim.Calibration) {
	fmt.Fprintln(w, sim.CalibrationSentence(c))
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

// validation evaluates the default readers on b's suites that the
// validated tables read, and returns sim.Validate's cells with the
// misses explained; beside them the same readers' Table 2 and Table 5 on
// the clean bench (generated: lab.DefaultGenConfig), which measures Table
// 5's composition share.
func validation(ctx context.Context, b *bench.Bench) (*sim.ValidationFile, error) {
	readers, err := lab.DefaultReaders(".esr-cache")
	if err != nil {
		return nil, err
	}
	v, err := validationRows(ctx, b, readers)
	if err != nil {
		return nil, err
	}
	cells := sim.Validate(v, eval.DefaultStats)
	clean, err := cleanBenchCells(ctx, readers)
	if err != nil {
		return nil, err
	}
	misses, err := sim.ExplainMisses(ctx, b, v, cells, sim.Calibrated(), clean)
	if err != nil {
		return nil, err
	}
	real, err := realBenchCells(ctx, readers)
	if err != nil {
		return nil, err
	}
	return &sim.ValidationFile{Kind: sim.ValidationKind, Cells: cells, Misses: misses, CleanBench: clean,
		RealBench: real, RealBenchName: realBench}, nil
}

// realBench is the bundled bench of real threads whose Table 2 the model
// card reports beside the fitted one.
const realBench = "debian"

// realBenchCells are readers' Table 2 cells on data/debian (real Debian
// bug threads): the render-confound suite's rows, validated as on the
// bundled bench.
func realBenchCells(ctx context.Context, readers []reader.Reader) ([]sim.ValidationCell, error) {
	rb, err := rowcache.NotebookBench(".", realBench)
	if err != nil {
		return nil, fmt.Errorf("validate: data/%s: %w", realBench, err)
	}
	s := lab.Setup{Bench: rb, Readers: readers, Stats: eval.DefaultStats}
	r, _, err := rowcache.Rows(ctx, lab.SuiteRenderConfound.Suite(), s, filepath.Join(".esr-cache", "notebooks"))
	if err != nil {
		return nil, fmt.Errorf("validate: data/%s: suite %s: %w", realBench, lab.SuiteRenderConfound, err)
	}
	return sim.Table2Cells(sim.Validate(sim.ValidationRows{RenderConfound: r}, eval.DefaultStats)), nil
}

// cleanBenchCells are readers' Table 2 and Table 5 cells on the clean
// bench (`esr gen --like clean`, generated in memory): the render-confound
// and strata suites' rows, validated as on the bundled bench.
func cleanBenchCells(ctx context.Context, readers []reader.Reader) ([]sim.ValidationCell, error) {
	cb, err := lab.Generate(lab.DefaultGenConfig())
	if err != nil {
		return nil, err
	}
	rows := map[lab.SuiteID][]eval.Outcome{}
	for _, name := range []lab.SuiteID{lab.SuiteRenderConfound, lab.SuiteStrata} {
		s := lab.Setup{Bench: cb, Readers: readers, Stats: eval.DefaultStats}
		r, _, err := rowcache.Rows(ctx, name.Suite(), s, filepath.Join(".esr-cache", "notebooks"))
		if err != nil {
			return nil, fmt.Errorf("validate: clean bench: suite %s: %w", name, err)
		}
		rows[name] = r
	}
	return sim.CompositionCells(sim.Validate(sim.ValidationRows{RenderConfound: rows[lab.SuiteRenderConfound], Strata: rows[lab.SuiteStrata]}, eval.DefaultStats)), nil
}

// validationCellsWith are the validated cells of readers on b.
func validationCellsWith(ctx context.Context, b *bench.Bench, readers []reader.Reader) ([]sim.ValidationCell, error) {
	v, err := validationRows(ctx, b, readers)
	if err != nil {
		return nil, err
	}
	return sim.Validate(v, eval.DefaultStats), nil
}

// validationRows evaluates readers on the suites the validated tables read.
func validationRows(ctx context.Context, b *bench.Bench, readers []reader.Reader) (sim.ValidationRows, error) {
	rows := map[lab.SuiteID][]eval.Outcome{}
	for _, id := range []lab.SuiteID{lab.SuiteRenderConfound, lab.SuiteStrata, lab.SuiteNoise, lab.SuiteProvenance} {
		s := lab.Setup{Bench: b, Readers: readers, Stats: eval.DefaultStats}
		r, _, err := rowcache.Rows(ctx, id.Suite(), s, filepath.Join(".esr-cache", "notebooks"))
		if err != nil {
			return sim.ValidationRows{}, fmt.Errorf("validate: suite %s: %w", id, err)
		}
		rows[id] = r
	}
	return sim.ValidationRows{RenderConfound: rows[lab.SuiteRenderConfound], Strata: rows[lab.SuiteStrata], Noise: rows[lab.SuiteNoise],
		Provenance: rows[lab.SuiteProvenance], Pure: eval.PureMonotonic(b), Lengths: bench.StreamLengths(b)}, nil
}
