package relate

import (
	"crypto/sha256"
	"encoding/binary"
	"io"
	"math"
	"sync/atomic"

	"github.com/esrkit/esrkit/internal/codefp"
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

var fitMemo atomic.Pointer[FitMemo]

// SetFitMemo makes the learned scorer's fit consult m before it minimises
// and keep what it fits there; nil (the default) turns the memo off. The
// notebooks' helpers (nbhelp) set one under .esr-cache.
func SetFitMemo(m FitMemo) {
	if m == nil {
		fitMemo.Store(nil)
		return
	}
	fitMemo.Store(&m)
}

// fitKey is the memo key of a fit of the standardised rows xs (each of
// length d+1) with labels y into k classes under penalty lambda.
func fitKey(xs [][]float64, y []int, k int, lambda float64) [32]byte {
	h := sha256.New()
	io.WriteString(h, "relate.fitSoftmax v1\n"+codefp.Fingerprint()+"\n")
	var buf []byte
	buf = binary.LittleEndian.AppendUint64(buf, uint64(k))
	buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(lambda))
	buf = binary.LittleEndian.AppendUint64(buf, uint64(len(xs)))
	for i, row := range xs {
		buf = binary.LittleEndian.AppendUint64(buf, uint64(len(row)))
		for _, v := range row {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
		}
		buf = binary.LittleEndian.AppendUint64(buf, uint64(y[i]))
		if len(buf) > 1<<16 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	h.Write(buf)
	var key [32]byte
	h.Sum(key[:0])
	return key
}

// minimizeMemo is minimizeLBFGS of fg from zero weights of length n,
// through the memo when one is set: a recalled vector of another length is
// a miss.
func minimizeMemo(key func() [32]byte, fg func(w, g []float64) float64, n int) ([]float64, error) {
	mp := fitMemo.Load()
	if mp == nil {
		return minimizeLBFGS(fg, make([]float64, n), 1e-7, 5000)
	}
	k := key()
	if w, ok := (*mp).RecallFloats(k); ok && len(w) == n {
		return w, nil
	}
	w, err := minimizeLBFGS(fg, make([]float64, n), 1e-7, 5000)
	if err == nil {
		(*mp).KeepFloats(k, w)
	}
	return w, err
}
