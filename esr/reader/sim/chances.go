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
// read a declared order, sort dated rows, find the key's lines in raw
// text, see a conflict, keep to the value found) on a clean render: two
// rows of one key in a block, no other keys, no length. Every feature of
// the render that makes reading harder moves that probability's logit by a
// cost that can only be ≥ 0:
//
//	logit P(act | f) = logit(skill) − ClutterScale · Σ_k cost_k · x_k(f),  cost_k ≥ 0,  ClutterScale ∈ [0, 1]
//
// with x_k(f) ≥ 0 growing with clutter: doublings of the render's length
// (log2(1 + tokens/1000)), doublings of the key's rows beyond two,
// doublings of the rows that are not the key's (log2(1 + n)), flat rows,
// dates inside prose, JSON nesting depth, the share of raw lines that
// state the key's value without naming it. ClutterScale is a switch that
// can only turn clutter down (0: the hand-set profiles, whose skills do
// not depend on the layout; 1: the calibrated panel), so the effective
// cost a reader feels never exceeds its cost, whose range is its
// published evidence. So by the model's form, and whatever the fitted
// values:
//
//   - more rows, more distractors, a longer render, flat rows, dates in
//     prose or deeper nesting never make an act more likely;
//   - the lapse feels only how the rows are written (nesting, sentences),
//     never their number nor the render's length, so no count of rows
//     takes it past what its range and the layout costs' ranges allow;
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
	// Clutter is the logit cost the render's features impose on a date
	// sort (before the row count): ClutterScale·(LengthCost·log2(1 +
	// tokens/1000) + NestCost·depth + ProseDateCost·[rows as sentences] +
	// FlatCost·[flat] + DistractorCost·log2(1 + other rows)).
	Clutter float64
	// Row is P(the rows' status is used): the status skill less the
	// length, nesting and sentence costs (a status cell is found like any
	// other cell; flat rows and distractors cost a sort, not a lookup).
	// Key is P(an unresolved key header is read), less the length cost.
	Row, Key float64
	// Order is P(the top of a declared newest-first block is read as the
	// newest): the order skill less the length, nesting and sentence
	// costs.
	Order float64
	// Prose is P(the key's lines are found in raw event text): the prose
	// skill less the length cost, the distractor cost (the lines that are
	// not the key's, which a reader reading by key must pass over) and the
	// paraphrase cost (lines that state the value without naming the key).
	Prose float64
	// Conflict is P(a conflict the render shows is seen: the key's values
	// disagree and nothing retracts one of them): the conflict skill less
	// the length cost (a profile with a conflict skill; see
	// Profile.ConflictSkill).
	Conflict float64
	// Lapse is P(a settled snapshot answer is replaced by another value
	// shown): the reader's lapse rate plus the layout's reading costs
	// (nesting, rows as sentences), never the number of rows nor the
	// length, so it stays bounded whatever the render's size.
	Lapse float64
	// sortLogit is logit P(a sort of two dated rows succeeds) with the
	// whole clutter; rowsCost is the logit cost per doubling of the rows
	// beyond two; decay is DateDecayPerRow (the hand-set profiles' row
	// factor).
	sortLogit, rowsCost, decay float64
	sortSkill                  float64
}

// lengthDoublings is x_length = log2(1 + tokens/1000): about the number
// of doublings of a long render's length beyond 1,000 tokens, and smooth
// down to 0 at no length. Published accuracy falls about linearly in the
// logit per doubling of the context (the registry's RULER, NoLiMa and
// HELMET curves; docs/evidence.md).
func lengthDoublings(tokens int) float64 { return math.Log2(1 + float64(tokens)/1000) }

// clutterRead is what every act that reads the key's rows feels: the
// length, the nesting, and rows written as sentences (dates inside prose:
// a status or an order read from a sentence, not a cell).
func (p Profile) clutterRead(f RenderFeatures) float64 {
	c := p.LengthCost*lengthDoublings(f.Tokens) + p.NestCost*float64(f.Depth)
	if f.Dates == DatesInline {
		c += p.ProseDateCost
	}
	return p.ClutterScale * c
}

// clutterLayoutRead is what the layout costs a reader that has found the
// key's rows and reads one of them: nesting and rows written as
// sentences, not their number nor the render's length (the lapse feels
// it: a value read off the wrong sentence or member).
func (p Profile) clutterLayoutRead(f RenderFeatures) float64 {
	c := p.NestCost * float64(f.Depth)
	if f.Dates == DatesInline {
		c += p.ProseDateCost
	}
	return p.ClutterScale * c
}

// clutterLayout is the layout part of the clutter a date sort feels
// beyond reading: flat rows and distractor rows.
func (p Profile) clutterLayout(f RenderFeatures) float64 {
	c := 0.0
	if f.Grouping == GroupedFlat {
		c += p.FlatCost
	}
	c += p.DistractorCost * math.Log2(1+float64(f.Distractors))
	return p.ClutterScale * c
}

// Chances are p's probabilities on a render with features f.
func (p Profile) Chances(f RenderFeatures) Chances {
	length := p.clutterRead(f)
	tokens := p.ClutterScale * p.LengthCost * lengthDoublings(f.Tokens)
	all := length + p.clutterLayout(f)
	c := Chances{Clutter: all,
		Row: shiftLogit(p.StatusSkill, -length), Key: shiftLogit(p.KeySkill(), -tokens),
		Order:    shiftLogit(p.OrderSkill, -length),
		Prose:    shiftLogit(p.ProseSkill, -tokens-p.ClutterScale*(p.DistractorCost*math.Log2(1+float64(f.Distractors))+p.ParaphraseCost*f.Paraphrased)),
		Conflict: shiftLogit(p.ConflictSkill.P, -tokens),
		Lapse:    shiftLogit(p.Lapse, p.clutterLayoutRead(f)),
		decay:    p.DateDecayPerRow, rowsCost: p.ClutterScale * p.RowsCost, sortSkill: p.DateSkill}
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

// Sort is the probability that a sort of n dated rows (or, in undated raw
// text, an ordering by text position) succeeds: 1 for fewer than two,
// else the date skill with its logit less the clutter and RowsCost per
// doubling of the rows beyond two, times (1 − DateDecayPerRow)^(n − 2).
// It does not grow with n.
func (c Chances) Sort(n int) float64 {
	if n < 2 {
		return 1
	}
	return shiftLogit(c.sortSkill, c.sortLogit-c.rowsCost*rowDoublings(n)) * math.Pow(1-c.decay, float64(n-2))
}
