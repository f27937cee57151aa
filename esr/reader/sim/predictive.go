package sim

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/paper"
)

// This file carries the fit's uncertainty into predictions: the panel is
// refitted on target vectors drawn within the paper's own uncertainty, the
// validated tables are recomputed with every refit, and each cell gets a
// predictive interval, the union of the default fit's and every refit's
// 95% intervals.

// TargetDraw draws each target's value as paper + targetSE·z, z standard
// normal from a PCG seeded by (Seed, family, target name): the same draw
// for the same target whatever else is fitted.
type TargetDraw struct{ Seed uint64 }

// aux split size (App. G) behind Tables 16 and 17's rates.
const (
	auxItems      = 1198
	table17Paired = 734
)

// targetSE is the standard error of a published target: Table 2's terms
// from the paper's 95% interval ((hi − lo)/3.92); Table 17's paired
// differences of two accuracies over n = 734 items (sqrt(2·0.25/734), the
// largest a binomial allows); Table 16's agreement rates over n = 1,198,
// sqrt(p(1 − p)/n); its κ by the large-sample approximation
// sqrt(p_o(1 − p_o)/n)/(1 − p_e) (Cohen 1960), with p_e = (p_o − κ)/(1 − κ)
// from the same family's agreement p_o.
func targetSE(family, name string, value float64) float64 {
	switch {
	case strings.HasPrefix(name, "t2/"):
		if lo, hi, ok := paper.Interval(panelKeys[name]); ok {
			return (hi - lo) / 3.92
		}
		return 0.02
	case strings.HasPrefix(name, "t17/"):
		return math.Sqrt(2 * 0.25 / table17Paired)
	case name == targetRLCal || name == targetGRACal:
		return math.Sqrt(value * (1 - value) / auxItems)
	case name == targetRLKappa || name == targetGRAKappa:
		t16, ok := paper.Table16[family]
		if !ok {
			return 0.05
		}
		po := t16[0]
		if name == targetGRAKappa {
			po = t16[1]
		}
		pe := (po - value) / (1 - value)
		return math.Sqrt(po*(1-po)/auxItems) / math.Max(1-pe, 1e-3)
	}
	return 0.02
}

// apply returns ts with each paper value drawn (d nil: ts unchanged).
func (d *TargetDraw) apply(family string, ts []CalibrationTarget) []CalibrationTarget {
	if d == nil {
		return ts
	}
	out := append([]CalibrationTarget(nil), ts...)
	for i, t := range out {
		h := fnv.New64a()
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], d.Seed)
		h.Write(b[:])
		h.Write([]byte(family + "\x00" + t.Name))
		k := h.Sum64()
		z := rand.New(rand.NewPCG(k, k^0x9e3779b97f4a7c15)).NormFloat64()
		out[i].Paper = t.Paper + targetSE(family, t.Name, t.Paper)*z
	}
	return out
}

// PredictiveCell is one validated cell with its predictive interval.
type PredictiveCell struct {
	ValidationCell
	// PredLo, PredHi: the union of the default fit's 95% interval and the
	// refits' (Refits of them).
	PredLo float64 `json:"pred_lo"`
	PredHi float64 `json:"pred_hi"`
	Refits int     `json:"refits"`
}

// Inside reports whether the paper's value lies in the predictive
// interval.
func (c PredictiveCell) Inside() bool { return c.Paper >= c.PredLo && c.Paper <= c.PredHi }

// Predictive refits c on b draws times (TargetDraw seeds 1..draws, each
// from c's optimum), computes the validated cells of every refit with
// cellsOf (which evaluates the suites with those profiles) and returns the
// default cells with their predictive intervals.
func Predictive(ctx context.Context, b *bench.Bench, c *Calibration, cells []ValidationCell, draws int,
	cellsOf func(context.Context, []Profile) ([]ValidationCell, error), progress func(string)) ([]PredictiveCell, error) {
	if draws < 1 {
		panic("checks: Predictive needs at least one draw")
	}
	out := make([]PredictiveCell, len(cells))
	key := func(x ValidationCell) string { return x.Table + "\x00" + x.Cell }
	at := map[string]int{}
	for i, x := range cells {
		out[i] = PredictiveCell{ValidationCell: x, PredLo: x.Lo, PredHi: x.Hi}
		at[key(x)] = i
	}
	set, err := calibrationItems(ctx, b, c.AuxNoise)
	if err != nil {
		return nil, err
	}
	for d := 1; d <= draws; d++ {
		opt, err := CalibrateOptions{Reading: c.Reading, Families: calibrationFamilies(c), AuxNoise: c.AuxNoise,
			Draw: &TargetDraw{Seed: uint64(d)}, From: c, Iterations: 30}.withDefaults()
		if err != nil {
			return nil, err
		}
		rc, err := fitPanel(ctx, b, set, opt)
		if err != nil {
			return nil, err
		}
		ps := make([]Profile, len(rc.Families))
		for i, f := range rc.Families {
			ps[i] = f.Profile
			ps[i].Name = fmt.Sprintf("%s-refit%d", f.Profile.Name, d)
		}
		rcells, err := cellsOf(ctx, ps)
		if err != nil {
			return nil, err
		}
		for _, x := range rcells {
			if i, ok := at[key(x)]; ok {
				out[i].PredLo = math.Min(out[i].PredLo, x.Lo)
				out[i].PredHi = math.Max(out[i].PredHi, x.Hi)
				out[i].Refits++
			}
		}
		if progress != nil {
			progress(fmt.Sprintf("refit %d of %d: Table 2 terms %+.3f %+.3f %+.3f", d, draws, rc.Panel[0].Fit, rc.Panel[1].Fit, rc.Panel[2].Fit))
		}
	}
	return out, nil
}
