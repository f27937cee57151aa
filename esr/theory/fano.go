package theory

import (
	"errors"
	"fmt"
	"math"

	"github.com/esrkit/esrkit/esr/paper"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/stats"
)

// The paper's relation audit (Appendix A, "Scorer information floor (C2)";
// Table 4), read from the one registry of paper numbers: 500
// DeepSeek-labelled pairs, H(Y′) and Miller–Madow I(R; Y′) in bits, the Fano
// floor as printed, and the rule scorer's accuracy.
var (
	paperAuditN    = int(paper.Number(paper.T4N))
	PaperAuditH    = paper.Number(paper.FanoH)
	PaperAuditI    = paper.Number(paper.FanoI)
	paperAuditFano = paper.Number(paper.FanoFloor)
	paperAuditAcc  = paper.Number(paper.T4RuleAcc)
)

// RelationClasses is K, the relation alphabet's size.
const RelationClasses = len(esr.Relations) // K = 5

// FanoFloor is the scorer information floor C2 for one relation audit: how
// much the predicted labels Ŷ know about the gold labels Y, and the least
// error any decoder of Ŷ must make.
type FanoFloor struct {
	N, K int
	// HY is the plug-in entropy H(Y) of the gold labels (HYMM Miller–Madow).
	HY, HYMM float64
	// I and IMM are I(Y; Ŷ), plug-in and Miller–Madow.
	I, IMM float64
	// Bound is Fano's lower bound on the error, stats.FanoBound(HY, IMM, K):
	// the paper's recipe (plug-in H, Miller–Madow I; a negative Miller–Madow
	// I counts as 0).
	Bound float64
	// BoundPlugIn is stats.FanoBound(HY, I, K). It holds exactly for the
	// empirical joint distribution, so it never exceeds ErrorRate.
	BoundPlugIn float64
	// WeakBound is the weakened form (HY − IMM − 1)/log2 K
	// (stats.FanoWeakBound), clipped at 0.
	WeakBound float64
	// ErrorRate is the share of pairs with Ŷ ≠ Y.
	ErrorRate float64
	// CohenKappa is Cohen's κ between Y and Ŷ (NaN when undefined).
	CohenKappa float64
}

// Fano computes the floor C2 from a relation audit: gold labels and the
// scorer's predicted labels for the same pairs, over the K = 5 relation
// classes. Fano's inequality bounds the error of any estimator of Y built
// from Ŷ: h(Pe) + Pe·log2(K−1) ≥ H(Y) − I(Y; Ŷ).
func Fano(gold, pred []esr.Relation) (FanoFloor, error) {
	if len(gold) != len(pred) {
		return FanoFloor{}, fmt.Errorf("theory: Fano: %d gold labels but %d predictions", len(gold), len(pred))
	}
	f := FanoFloor{N: len(gold), K: RelationClasses, CohenKappa: math.NaN()}
	mi, err := stats.MutualInformationLabels(gold, pred)
	if err != nil {
		return f, err
	}
	f.HY, f.HYMM, f.I, f.IMM = mi.HX, mi.HXMM, mi.MI, mi.MIMM
	if f.Bound, err = stats.FanoBound(f.HY, math.Max(f.IMM, 0), f.K); err != nil {
		return f, err
	}
	if f.BoundPlugIn, err = stats.FanoBound(f.HY, f.I, f.K); err != nil {
		return f, err
	}
	f.WeakBound = stats.FanoWeakBound(f.HY, math.Max(f.IMM, 0), f.K)
	wrong := 0
	for i := range gold {
		if gold[i] != pred[i] {
			wrong++
		}
	}
	f.ErrorRate = acc(wrong, len(gold))
	k, err := stats.CohenKappa(gold, pred, 0.95)
	switch {
	case err == nil:
		f.CohenKappa = k.Kappa
	case !errors.Is(err, stats.ErrKappaUndefined):
		return f, err
	}
	return f, nil
}
