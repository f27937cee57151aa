package relate

import (
	"github.com/esrkit/esrkit/internal/cimemo"
)

// A notebook reruns its program for every cell (GoNB), and a cell that
// cross-validates the learned pair scorer refits it six times: about two
// seconds of L-BFGS, nine tenths of it in objective. The weights are a
// deterministic function of the standardised design, the labels, k and λ,
// so a FitMemo can hand back ones fitted before: fitSoftmax keys it by a
// SHA-256 of all of them and the library's code (codefp.Fingerprint), so a
// memo never returns weights that the fit would not compute now.

// FitMemo keeps fitted weights by key. Implementations must be safe for
// concurrent use; a Recall that fails is a miss.
type FitMemo interface {
	RecallFloats(key [32]byte) ([]float64, bool)
	KeepFloats(key [32]byte, w []float64)
}

var fitMemo cimemo.Slot[FitMemo]

// SetFitMemo makes the learned scorer's fit consult m before it minimises
// and keep what it fits there; nil (the default) turns the memo off. The
// notebooks' helpers (nbhelp) set one under .esr-cache.
func SetFitMemo(m FitMemo) { fitMemo.Set(m) }

// fitKey is the memo key of a fit of the standardised rows xs (each of
// length d+1) with labels y into k classes under penalty lambda.
func fitKey(xs [][]float64, y []int, k int, lambda float64) [32]byte {
	key := cimemo.NewKey("relate.fitSoftmax v1")
	key.Uint(uint64(k))
	key.Float(lambda)
	key.Uint(uint64(len(xs)))
	for i, row := range xs {
		key.Uint(uint64(len(row)))
		for _, v := range row {
			key.Float(v)
		}
		key.Uint(uint64(y[i]))
	}
	return key.Sum()
}

// minimizeMemo is minimizeLBFGS of fg from zero weights of length n,
// through the memo when one is set: a recalled vector of another length is
// a miss.
func minimizeMemo(key func() [32]byte, fg func(w, g []float64) float64, n int) ([]float64, error) {
	m, ok := fitMemo.Get()
	if !ok {
		return minimizeLBFGS(fg, make([]float64, n), 1e-7, 5000)
	}
	k := key()
	if w, ok := m.RecallFloats(k); ok && len(w) == n {
		return w, nil
	}
	w, err := minimizeLBFGS(fg, make([]float64, n), 1e-7, 5000)
	if err == nil {
		m.KeepFloats(k, w)
	}
	return w, err
}
