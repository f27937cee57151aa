package sim

import "math"

// This file is the reader model's response to a render: how a sim
// reader's skills (its profile) become the probabilities it acts with on
// one render, given the render's features (features.go). The same numbers
// drive the draws (Sim.Read) and the expectations the calibration fits
// (Branch.Prob), so a fit and a run cannot disagree.
//
// The model is a logistic item-response model with sign-constrained
// weights. A skill is the probability of an act (read the status cells,
// read a declared order, sort dated rows, keep to the value found) on a
// clean render: two rows of one key in a block, no other keys, no length.
// Every feature of the render that makes reading harder moves that
// probability's logit by a cost that can only be ≥ 0:
//
//	logit P(act | f) = logit(skill) − ClutterScale · Σ_k cost_k · x_k(f),  cost_k ≥ 0
//
// with x_k(f) ≥ 0 growing with clutter: thousands of tokens, doublings of
// the key's rows beyond two, flat rows, doublings of the other keys' rows,
// dates inside prose, JSON nesting depth. So by the model's form, and
// whatever the fitted values:
//
//   - more rows, more distractors, a longer render, flat rows, dates in
//     prose or deeper nesting never make an act more likely (and more rows,
//     length or nesting never make a lapse less likely);
//   - a declared order, a status cell or grouping is an extra way to the
//     answer, never a cost: the order and status acts only add candidates'
//     information (see policy), and grouping only removes the flat cost;
//   - a higher skill never lowers any act's probability (logit is
//     increasing), so with common random numbers it never lowers accuracy.
//
// A skill of exactly 0 or 1 is left as it is (no clutter moves a reader
// that never or always acts). Which feature moves which act, and the
// evidence for each cost's range, is in Capabilities and the model card
// (docs/reader-model.md).

// Chances are a sim reader's probabilities on one render.
type Chances struct {
	// Clutter is the logit cost the render's features impose on reading
	// acts (before the row count, which only date sorts and lapses feel):
	// ClutterScale·(LengthCost·tokens/1000 + FlatCost·[flat] +
	// DistractorCost·log2(1 + other rows) + ProseDateCost·[dates in prose]
	// + NestCost·depth).
	Clutter float64
	// Row is P(the rows' status is used): the status skill less the
	// length and nesting costs (a status cell is found like any other
	// cell; flat rows and distractors cost a sort, not a lookup).
	// Key is P(an unresolved key header is read), less the length cost.
	Row, Key float64
	// Order is P(the top of a declared newest-first block is read as the
	// newest): the order skill less the length and nesting costs.
	Order float64
	// Prose is P(the key's values are found in raw event text): the prose
	// skill less the length cost.
	Prose float64
	// Lapse is P(a settled snapshot answer is replaced by another value
	// shown): the lapse rate plus the length and nesting costs and the
	// rows cost (stale answers grow with a key's number of versions and
	// with length, not with other keys' rows: those cost finding the key,
	// which the sort and order acts carry).
	Lapse float64
	// sortLogit is logit P(a sort of two dated rows succeeds) with the
	// whole clutter; rowsCost is the logit cost per doubling of the rows
	// beyond two; decay is DateDecayPerRow (the hand-set profiles' row
	// factor).
	sortLogit, rowsCost, decay float64
	sortSkill                  float64
}

// clutterLength is the length (and nesting) part of the clutter: what
// every act on the render feels.
func (p Profile) clutterLength(f RenderFeatures) float64 {
	return p.ClutterScale * (p.LengthCost*float64(f.Tokens)/1000 + p.NestCost*float64(f.Depth))
}

// clutterLayout is the layout part of the clutter a date sort and a lapse
// feel beyond length: flat rows, distractor rows, dates in prose.
func (p Profile) clutterLayout(f RenderFeatures) float64 {
	c := 0.0
	if f.Grouping == GroupedFlat {
		c += p.FlatCost
	}
	c += p.DistractorCost * math.Log2(1+float64(f.Distractors))
	if f.Dates == DatesInline {
		c += p.ProseDateCost
	}
	return p.ClutterScale * c
}

// Chances are p's probabilities on a render with features f.
func (p Profile) Chances(f RenderFeatures) Chances {
	length := p.clutterLength(f)
	all := length + p.clutterLayout(f)
	c := Chances{Clutter: all,
		Row: shiftLogit(p.StatusSkill, -length), Key: shiftLogit(p.KeySkill(), -p.ClutterScale*p.LengthCost*float64(f.Tokens)/1000),
		Order: shiftLogit(p.OrderSkill, -length),
		Prose: shiftLogit(p.ProseSkill, -p.ClutterScale*p.LengthCost*float64(f.Tokens)/1000),
		Lapse: shiftLogit(p.Lapse, length+p.ClutterScale*p.RowsCost*rowDoublings(f.Rows)),
		decay: p.DateDecayPerRow, rowsCost: p.ClutterScale * p.RowsCost, sortSkill: p.DateSkill}
	c.sortLogit = -all
	return c
}

// rowDoublings is log2(n/2) for n > 2 rows, else 0: how many times the
// rows a reader must compare have doubled beyond the pair.
func rowDoublings(n int) float64 {
	if n <= 2 {
		return 0
	}
	return math.Log2(float64(n) / 2)
}

// shiftLogit is the probability whose logit is logit(p) + d; p ≤ 0 and
// p ≥ 1 stay as they are (a reader that never or always acts).
func shiftLogit(p, d float64) float64 {
	switch {
	case p <= 0:
		return 0
	case p >= 1:
		return 1
	case d == 0:
		return p
	}
	return 1 / (1 + math.Exp(-(math.Log(p/(1-p)) + d)))
}

// Sort is the probability that a sort of n dated rows succeeds: 1 for
// fewer than two, else the date skill with its logit less the clutter and
// RowsCost per doubling of the rows beyond two, times (1 −
// DateDecayPerRow)^(n − 2). It does not grow with n.
func (c Chances) Sort(n int) float64 {
	if n < 2 {
		return 1
	}
	return shiftLogit(c.sortSkill, c.sortLogit-c.rowsCost*rowDoublings(n)) * math.Pow(1-c.decay, float64(n-2))
}
