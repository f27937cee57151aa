package sim

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Stage 1 of the calibration: each family's curve-shaped skills (reading
// raw text, its fall with length and with distractors, ordering rows and
// its fall with their number, seeing a conflict) fitted to that family's
// points in the evidence registry through their measurement models
// (measure.go), then frozen. Stage 2 (Calibrate) fits what only the paper
// speaks to with these held fixed.
//
// The fit is weighted least squares in the logit (values clipped to
// [0.01, 0.99], so a published 100.0 reads as 0.99): a level point
// compares logit(model) with logit(value); a shape point compares the
// model's logit drop from its series' anchor with the published drop.
// Each series counts once (its points' weights sum to 1), a stand-in's
// half, and a point outside the envelope's regime less (pointWeight). The
// stage-2 parameters the measurement renders touch (the lapse on PI-LLM's
// logs) are read at their prior centres. Each parameter has a prior at
// its centre whose weight is raised until no single point carries more
// than half of the parameter's identification (balancePriors).

// stage1Params are the skills stage 1 fits per family, with the range and
// prior centre their evidence allows (Capabilities).
var stage1Params = []calibParam{
	{simProse, false, 0.55, 0.999, 0.95, func(p *Profile, v float64) { p.ProseSkill = v }},
	{simParaCost, false, 0, 5, 2.0, func(p *Profile, v float64) { p.ParaphraseCost = v }},
	{simLengthCost, false, 0, 0.8, 0.3, func(p *Profile, v float64) { p.LengthCost = v }},
	{simDistractCost, false, 0, 0.5, 0.15, func(p *Profile, v float64) { p.DistractorCost = v }},
	{Date, false, 0.80, 0.995, 0.95, func(p *Profile, v float64) { p.DateSkill = v }},
	{simRowsCost, false, 0, 2.0, 0.7, func(p *Profile, v float64) { p.RowsCost = v }},
	{Conflict, false, 0.02, 0.70, 0.30, func(p *Profile, v float64) { p.ConflictSkill = Skill(v) }},
}

// stage1Ridge is the least prior weight of a stage-1 parameter (in the
// fitted space; balancePriors raises it where one point would carry a
// parameter alone).
const stage1Ridge = 1e-3

// logitClip bounds a proportion before its logit: a published 100.0 or
// 0.0 is read as 0.99 or 0.01.
const logitClip = 0.01

func clippedLogit(p float64) float64 {
	return logit(math.Min(math.Max(p, logitClip), 1-logitClip))
}

// baseProfile is a calibrated reader's structure with every fitted
// parameter at its prior centre: stage 1 starts from it and reads the
// stage-2 parameters from it.
func baseProfile(family string) Profile {
	p := Profile{Name: FitName(family), ClutterScale: 1}
	for _, c := range stage1Params {
		c.setter(&p, c.Centre)
	}
	for _, c := range calibParams {
		c.setter(&p, c.Centre)
	}
	return p
}

// Stage1Point is one registry point in a family's stage-1 fit.
type Stage1Point struct {
	ID     string  `json:"id"`
	Skill  string  `json:"skill"`
	Role   string  `json:"role"`
	Anchor string  `json:"anchor,omitempty"`
	Weight float64 `json:"weight"`
	// Value is the published value as a proportion; Model the model's
	// value in the point's frame (Measurement.InFrame: for a shape, the
	// anchor's published value moved by the model's logit drop), 0 when
	// not modelled (Role says so).
	Value float64 `json:"value"`
	Model float64 `json:"model"`
	// Residual is Model − Value.
	Residual float64 `json:"residual"`
}

// Stage1Family is one family's stage-1 fit.
type Stage1Family struct {
	Family string `json:"family"`
	// Params are the fitted skills by name (stage1Params' order), and
	// Prior their prior centres: the fit pooled over every family.
	Params []NamedValue `json:"params"`
	Prior  []NamedValue `json:"prior"`
	// Points are the family's registry points, fitted or shown.
	Points []Stage1Point `json:"points"`
	// Identification is each parameter's shares (targets are point ids).
	Identification []ParamShare `json:"identification"`
	// RMSE is the weighted root mean squared logit residual over the
	// fitted points.
	RMSE float64 `json:"rmse_logit"`
}

// NamedValue is a parameter's fitted value.
type NamedValue struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// stage1Problem is one family's stage-1 fit.
type stage1Problem struct {
	family string
	base   Profile
	ms     []*Measurement
	byID   map[string]*Measurement
	fitted []*Measurement // the points with a weight
}

func newStage1Problem(reg *EvidenceRegistry, family string) *stage1Problem {
	pr := &stage1Problem{family: family, base: baseProfile(family), byID: map[string]*Measurement{}}
	pr.ms = Measurements(reg, family)
	for _, m := range pr.ms {
		pr.byID[m.Point.ID] = m
	}
	for _, m := range pr.ms {
		if m.Weight > 0 {
			if _, ok := pr.byID[m.Anchor]; m.Role == roleShape && !ok {
				continue // an anchor that does not stand for the family
			}
			pr.fitted = append(pr.fitted, m)
		}
	}
	return pr
}

// profile is the base profile with the stage-1 values at x.
func (pr *stage1Problem) profile(x []float64) Profile {
	p := pr.base
	for j, c := range stage1Params {
		c.setter(&p, c.to(x[j]))
	}
	return p
}

// residuals are the weighted logit residuals at x.
func (pr *stage1Problem) residuals(x []float64) []float64 {
	p := pr.profile(x)
	cache := map[*Measurement]float64{}
	pred := func(m *Measurement) float64 {
		if v, ok := cache[m]; ok {
			return v
		}
		v := m.Predict(p)
		cache[m] = v
		return v
	}
	out := make([]float64, len(pr.fitted))
	for i, m := range pr.fitted {
		r := clippedLogit(pred(m)) - clippedLogit(m.Value)
		if m.Role == roleShape {
			a := pr.byID[m.Anchor]
			r -= clippedLogit(pred(a)) - clippedLogit(a.Value)
		}
		out[i] = math.Sqrt(m.Weight) * r
	}
	return out
}

// FitStage1 fits every family's stage-1 skills to reg, in two levels:
// first one set of skills for all the families at once (every family's
// points, each family's weights), whose values become the prior centres
// of each family's own fit, so that a family with few points of a skill
// (one FaithEval bar, stand-ins only) is pulled toward what the registry
// says of 7–14B models as a whole, not toward a guess.
func FitStage1(ctx context.Context, reg *EvidenceRegistry, families []string) ([]Stage1Family, error) {
	prs := make([]*stage1Problem, len(families))
	for i, f := range families {
		prs[i] = newStage1Problem(reg, f)
		if len(prs[i].fitted) == 0 {
			return nil, fmt.Errorf("stage 1, %s: no registry point to fit", f)
		}
	}
	n := len(stage1Params)
	x0 := make([]float64, n)
	lambda := make([]float64, n)
	for j, c := range stage1Params {
		x0[j] = c.from(c.Centre)
		lambda[j] = stage1Ridge
	}
	pooled := &lsqProblem{resid: func(x []float64) []float64 {
		var out []float64
		for _, pr := range prs {
			out = append(out, pr.residuals(x)...)
		}
		return out
	}, x0: x0, lambda: lambda}
	xp, _, err := pooled.minimize(ctx, x0, 100)
	if err != nil {
		return nil, fmt.Errorf("stage 1, pooled: %w", err)
	}
	var out []Stage1Family
	for i, f := range families {
		sf, err := fitStage1Family(ctx, prs[i], xp)
		if err != nil {
			return nil, fmt.Errorf("stage 1, %s: %w", f, err)
		}
		out = append(out, sf)
	}
	return out, nil
}

// fitStage1Family fits one family's skills with priors centred at x0 (the
// pooled fit), each with the least weight stage1Ridge, raised until no
// point carries more than half of a skill's identification.
func fitStage1Family(ctx context.Context, pr *stage1Problem, prior []float64) (Stage1Family, error) {
	family := pr.family
	n := len(stage1Params)
	x0 := append([]float64(nil), prior...)
	lambda := make([]float64, n)
	for j := range lambda {
		lambda[j] = stage1Ridge
	}
	q := &lsqProblem{resid: pr.residuals, x0: x0, lambda: lambda}
	x := append([]float64(nil), x0...)
	var J *mat.Dense
	for round := 0; round < 8; round++ {
		var err error
		if x, _, err = q.minimize(ctx, x, 100); err != nil {
			return Stage1Family{}, err
		}
		J = q.jacobian(x)
		if !balancePriors(J, lambda) {
			break
		}
	}
	// Round to 4 decimals, so what is shipped is what is evaluated.
	p := pr.profile(x)
	sf := Stage1Family{Family: family}
	for j, c := range stage1Params {
		v, _ := p.Get(c.Name)
		v = math.Round(v*1e4) / 1e4
		c.setter(&p, v)
		sf.Params = append(sf.Params, NamedValue{c.Name, v})
		sf.Prior = append(sf.Prior, NamedValue{c.Name, round6(c.to(prior[j]))})
	}
	var rows, names []string
	for _, m := range pr.fitted {
		rows = append(rows, m.Point.ID)
	}
	for _, c := range stage1Params {
		names = append(names, c.Name+" ("+family+")")
	}
	sf.Identification = identification(J, rows, names, lambda)
	sq, w := 0.0, 0.0
	for _, m := range pr.fitted {
		r := clippedLogit(m.Predict(p)) - clippedLogit(m.Value)
		if m.Role == roleShape {
			a := pr.byID[m.Anchor]
			r -= clippedLogit(a.Predict(p)) - clippedLogit(a.Value)
		}
		sq += m.Weight * r * r
		w += m.Weight
	}
	sf.RMSE = round6(math.Sqrt(sq / w))
	for _, m := range pr.ms {
		sf.Points = append(sf.Points, stage1Point(m, p, pr.byID))
	}
	return sf, nil
}

// stage1Point is m's row under p.
func stage1Point(m *Measurement, p Profile, byID map[string]*Measurement) Stage1Point {
	pt := Stage1Point{ID: m.Point.ID, Skill: string(m.Point.Skill), Role: m.Role, Anchor: m.Anchor, Weight: round6(m.Weight), Value: m.Value}
	if m.Role == roleNone {
		return pt
	}
	v, ok := m.InFrame(p, byID)
	if !ok {
		pt.Role = roleNone
		return pt
	}
	pt.Model = round6(v)
	pt.Residual = round6(v - m.Value)
	return pt
}

// applyStage1 sets a family's stage-1 values on p.
func applyStage1(p Profile, sf Stage1Family) Profile {
	for _, nv := range sf.Params {
		for _, c := range stage1Params {
			if c.Name == nv.Name {
				c.setter(&p, nv.Value)
			}
		}
	}
	return p
}
