package sim

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr/bench"
)

// This file asks whether the calibration is identified: which target moves
// which parameter (the Jacobian at the fit), and how the fitted
// render/mechanism split moves across starting points, ridge weights,
// auxiliary noise levels and with Table 2's targets dropped.

// ParamSensitivity is what one fitted parameter moves: the weighted
// targets' derivatives in the parameter's fitted (logit/log) coordinate.
type ParamSensitivity struct {
	Param string `json:"param"`
	// Top are the targets with the largest |∂ weighted target / ∂ param|,
	// largest first (at most three), and Share each one's share of the
	// column's squared norm.
	Top   []string  `json:"top"`
	Share []float64 `json:"share"`
	// Norm is the column's Euclidean norm: 0 means no target moves the
	// parameter (only the ridge holds it).
	Norm float64 `json:"norm"`
	// Prior is the share of the parameter's prior (its weight λ, the fit's
	// own) beside the targets': the shares in Top count it as one more row,
	// "prior", as the identification table does (ParamShare).
	Prior float64 `json:"prior"`
}

// Sensitivity is the Jacobian of a calibration at its fitted profiles.
type Sensitivity struct {
	Kind           string             `json:"kind"` // sensitivityKind
	Params         []ParamSensitivity `json:"params"`
	SingularValues []float64          `json:"singular_values"`
	Rank           int                `json:"rank"`
	Targets        int                `json:"targets"`
}

// CalibrationSensitivity computes c's Jacobian on b at its fitted profiles
// (every target weighted as in the fit, dropped groups included, so a
// dropped target still shows what it would have pinned), each column's
// shares counting the parameter's prior (the weight c's fit used) as one
// more row.
func CalibrationSensitivity(ctx context.Context, b *bench.Bench, c *Calibration) (*Sensitivity, error) {
	set, err := calibrationItems(ctx, b, c.AuxNoise)
	if err != nil {
		return nil, err
	}
	opt, err := CalibrateOptions{Reading: c.Reading, Families: calibrationFamilies(c), AuxNoise: c.AuxNoise}.withDefaults()
	if err != nil {
		return nil, err
	}
	base := make([]Profile, len(c.Families))
	for i, f := range c.Families {
		base[i] = f.Profile
	}
	pr := newCalibProblem(set, opt, base)
	x := calibVector(c)
	J := pr.jacobian(x)
	var names []string
	for fi, ts := range pr.fam {
		for _, t := range ts {
			names = append(names, opt.Families[fi]+" "+t.Name)
		}
	}
	for _, t := range pr.panel {
		names = append(names, t.Name)
	}
	s := &Sensitivity{Kind: sensitivityKind, Targets: len(names)}
	s.SingularValues, s.Rank = singularValues(J, pr.weights[:pr.nTargets])
	_, cols := J.Dims()
	rows := pr.nTargets
	pnames := pr.layout.paramNames()
	lambda := c.priorWeights()
	for j := 0; j < cols; j++ {
		type d struct {
			name string
			v    float64
		}
		var ds []d
		norm := 0.0
		for i := 0; i < rows; i++ {
			v := J.At(i, j)
			ds = append(ds, d{names[i], v * v})
			norm += v * v
		}
		ps := ParamSensitivity{Param: pnames[j], Norm: math.Round(math.Sqrt(norm)*1e6) / 1e6}
		if len(lambda) == cols {
			ds = append(ds, d{PriorRow, lambda[j]})
			norm += lambda[j]
			ps.Prior = lambda[j] / norm
		}
		sort.SliceStable(ds, func(a, b int) bool { return ds[a].v > ds[b].v })
		for k := 0; k < 3 && k < len(ds) && norm > 0; k++ {
			ps.Top = append(ps.Top, ds[k].name)
			ps.Share = append(ps.Share, ds[k].v/norm)
		}
		s.Params = append(s.Params, ps)
	}
	return s, nil
}

// calibrationFamilies are c's families in order.
func calibrationFamilies(c *Calibration) []string {
	out := make([]string, len(c.Families))
	for i, f := range c.Families {
		out[i] = f.Family
	}
	return out
}

// calibVector is c's fitted stage-2 vector: each family's parameters in
// turn.
func calibVector(c *Calibration) []float64 {
	var x []float64
	for _, f := range c.Families {
		for _, p := range calibParams {
			v, _ := f.Profile.Get(p.Name)
			x = append(x, p.from(v))
		}
	}
	return x
}

// FitSummary is one fit of the identifiability grid.
type FitSummary struct {
	Label    string   `json:"label"`
	Start    int      `json:"start"`
	Ridge    float64  `json:"ridge"`
	AuxNoise float64  `json:"aux_noise"`
	Dropped  []string `json:"dropped,omitempty"`
	// Render, Fine and Coarse are the fitted panel's pooled Table 2 terms
	// (expected values), whether or not they were fitted.
	Render, Fine, Coarse float64
	// RMSE16 and RMSE17 are the root mean squared errors over every
	// family's Table 16 and Table 17 targets.
	RMSE16, RMSE17 float64
	// Objective is the fit's weighted squared error over the targets it
	// fitted (no ridge).
	Objective float64
	Rank      int `json:"rank"`
	Params    int `json:"params"`
	Targets   int `json:"targets"`
}

// summarizeFit reads a FitSummary off a calibration.
func summarizeFit(c *Calibration, label string, start int, ridge float64) FitSummary {
	s := FitSummary{Label: label, Start: start, Ridge: ridge, AuxNoise: c.AuxNoise, Dropped: c.Dropped, Rank: c.Rank, Params: c.Parameters, Targets: c.Targets}
	for _, t := range c.Panel {
		switch t.Name {
		case TargetRender:
			s.Render = t.Fit
		case TargetFine:
			s.Fine = t.Fit
		case TargetCoarse:
			s.Coarse = t.Fit
		}
	}
	var sq16, sq17 float64
	var n16, n17 int
	dropped := func(g string) bool {
		for _, d := range c.Dropped {
			if d == g {
				return true
			}
		}
		return false
	}
	for _, f := range c.Families {
		for _, t := range f.Targets {
			e := t.Error()
			if strings.HasPrefix(t.Name, "t17/") {
				sq17 += e * e
				n17++
				if !dropped(groupTable17) {
					s.Objective += table17Weight * table17Weight * e * e
				}
			} else {
				sq16 += e * e
				n16++
				if !dropped(groupTable16) {
					s.Objective += e * e
				}
			}
		}
	}
	if !dropped(GroupTable2) {
		for _, t := range c.Panel {
			s.Objective += table2Weight * table2Weight * t.Error() * t.Error()
		}
	}
	s.RMSE16, s.RMSE17 = math.Sqrt(sq16/float64(n16)), math.Sqrt(sq17/float64(n17))
	return s
}

// GridFit is one fit of a grid: its options and a label.
type GridFit struct {
	Label string
	Opt   CalibrateOptions
}

// IdentifiabilityGrid are the fits of the identifiability lesson: every
// fixed start at the default ridge, the default start at a ten times
// weaker and stronger ridge, each with and without Table 2's targets.
func IdentifiabilityGrid() []GridFit {
	var out []GridFit
	for _, drop := range [][]string{nil, {GroupTable2}} {
		with := "with Table 2"
		if drop != nil {
			with = "without Table 2"
		}
		for s := range calibrationStarts {
			out = append(out, GridFit{fmt.Sprintf("start %d, ridge %g, %s", s, CalibrationRidge, with),
				CalibrateOptions{Starts: []int{s}, Ridge: CalibrationRidge, Drop: drop, AuxNoise: DefaultAuxNoise}})
		}
		for _, r := range []float64{CalibrationRidge / 10, CalibrationRidge * 10} {
			out = append(out, GridFit{fmt.Sprintf("start 0, ridge %g, %s", r, with),
				CalibrateOptions{Starts: []int{0}, Ridge: r, Drop: drop, AuxNoise: DefaultAuxNoise}})
		}
	}
	return out
}

// NoiseGrid are the fits of the auxiliary-noise sensitivity: the default
// fit at each relation-noise level.
func NoiseGrid() []GridFit {
	var out []GridFit
	for _, p := range []float64{0, 0.1, 0.2, 0.3} {
		out = append(out, GridFit{fmt.Sprintf("auxiliary relation noise %.1f", p), CalibrateOptions{AuxNoise: p}})
	}
	return out
}

// FitGrid runs every fit of grid on b (items are built once per noise
// level) and summarises each.
func FitGrid(ctx context.Context, b *bench.Bench, grid []GridFit) ([]FitSummary, error) {
	sets := map[float64]*calibSet{}
	var out []FitSummary
	for _, g := range grid {
		opt, err := g.Opt.withDefaults()
		if err != nil {
			return nil, err
		}
		set, ok := sets[opt.AuxNoise]
		if !ok {
			if set, err = calibrationItems(ctx, b, opt.AuxNoise); err != nil {
				return nil, err
			}
			sets[opt.AuxNoise] = set
		}
		c, err := fitPanel(ctx, b, set, opt)
		if err != nil {
			return nil, err
		}
		start := -1
		if len(opt.Starts) == 1 {
			start = opt.Starts[0]
		}
		out = append(out, summarizeFit(c, g.Label, start, opt.Ridge))
	}
	return out, nil
}
