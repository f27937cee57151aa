package reader

import "math"

// This file is the reader model's response to a render: how a sim
// reader's skills (its profile) become the probabilities it acts with on
// one render, given the render's features (features.go). The same numbers
// drive the draws (Sim.Read) and the expectations the calibration fits
// (SimBranch.Prob), so a fit and a run cannot disagree.

// SimChances are a sim reader's probabilities on one render.
type SimChances struct {
	// Difficulty is the render's difficulty h = tokens/1000 +
	// InlineDateCost·[dates inline] + MemberDateCost·[dates in JSON
	// members]; Ease = exp(−DifficultyScale·h) multiplies every reading
	// skill (1 when the profile has no DifficultyScale).
	Difficulty, Ease float64
	// Row is P(the rows' status is used): StatusSkill·Ease, with the
	// status skill's logit shifted by WindowStatusLift when the status is
	// a validity window. Key is P(an unresolved key header is read):
	// KeySkill, a header word that difficulty does not hide.
	Row, Key float64
	// Order is P(the top of a declared newest-first block is read as the
	// newest): OrderSkill·Ease.
	Order float64
	// Lapse is P(a settled snapshot answer is replaced by another value
	// shown): 1 − (1 − Lapse)·Ease.
	Lapse float64
	// sortBase is P(a sort of two dated rows succeeds): DateSkill·Ease,
	// times 1 − FlatSortLoss when the rows are flat; decay is
	// DateDecayPerRow.
	sortBase, decay float64
}

// Chances are p's probabilities on a render with features f.
func (p SimProfile) Chances(f RenderFeatures) SimChances {
	h := float64(f.Tokens) / 1000
	switch f.Dates {
	case DatesInline:
		h += p.InlineDateCost
	case DatesMember:
		h += p.MemberDateCost
	}
	e := math.Exp(-p.DifficultyScale * h)
	c := SimChances{Difficulty: h, Ease: e, Key: p.KeySkill(), Order: p.OrderSkill * e,
		Lapse: 1 - (1-p.Lapse)*e, decay: p.DateDecayPerRow}
	s := p.StatusSkill
	if f.StatusWindow && p.WindowStatusLift != 0 && s > 0 && s < 1 {
		s = 1 / (1 + math.Exp(-(math.Log(s/(1-s)) + p.WindowStatusLift)))
	}
	c.Row = s * e
	c.sortBase = p.DateSkill * e
	if f.Grouping == GroupedFlat {
		c.sortBase *= 1 - p.FlatSortLoss
	}
	return c
}

// Sort is the probability that a sort of n dated rows succeeds: 1 for
// fewer than two, else sortBase·(1 − decay)^(n − 2).
func (c SimChances) Sort(n int) float64 {
	if n < 2 {
		return 1
	}
	return c.sortBase * math.Pow(1-c.decay, float64(n-2))
}
