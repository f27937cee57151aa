package eval

import (
	"github.com/esrkit/esrkit/internal/cimemo"
	"github.com/esrkit/esrkit/stats"
)

// A notebook reruns its program for every cell (GoNB), and a cell that
// shows a table recomputes its bootstrap intervals: 10,000 resamples of a
// few thousand questions per comparison, seconds for a table of many. The
// intervals are a deterministic function of the pairs and the options, so
// an IntervalMemo can hand back one computed before: Compare keys it by a
// SHA-256 of everything the interval depends on (the interval kind, B,
// level, seed, every pair's two values and cluster label, and the library's
// code, codefp.Fingerprint), so a memo never returns an interval that
// Compare would not compute now.

// IntervalMemo keeps bootstrap intervals by key. Implementations must be
// safe for concurrent use; a Recall that fails is a miss.
type IntervalMemo interface {
	Recall(key [32]byte) (stats.BootstrapCI, bool)
	Keep(key [32]byte, ci stats.BootstrapCI)
}

var intervalMemo cimemo.Slot[IntervalMemo]

// SetIntervalMemo makes Compare consult m before it computes a bootstrap
// interval and keep what it computes there; nil (the default) turns the
// memo off. The notebooks' helpers (nbhelp) set one under .esr-cache.
func SetIntervalMemo(m IntervalMemo) { intervalMemo.Set(m) }

// intervalKey is the memo key of a bootstrap of pairs (xa, xb) with
// clusters qids under opt.
func intervalKey(xa, xb []float64, qids []string, opt StatOptions) [32]byte {
	k := cimemo.NewKey("eval.Compare bootstrap v1")
	k.String(opt.Interval.String())
	k.Uint(uint64(opt.B))
	k.Float(opt.Level)
	k.Uint(opt.Seed)
	k.Uint(uint64(len(xa)))
	for i := range xa {
		k.Float(xa[i])
		k.Float(xb[i])
		k.String(qids[i])
	}
	return k.Sum()
}

// bootstrap computes the interval of Compare, through the memo when one
// is set.
func bootstrap(xa, xb []float64, qids []string, opt StatOptions) (stats.BootstrapCI, error) {
	compute := func() (stats.BootstrapCI, error) {
		if opt.Interval == IntervalPair {
			if !stats.IsBinary(xa) || !stats.IsBinary(xb) {
				return stats.PairedBootstrap(xa, xb, opt.B, opt.Level, opt.Seed)
			}
			return stats.PairedBootstrapBinary(xa, xb, opt.B, opt.Level, opt.Seed)
		}
		return stats.PairedClusterBootstrap(xa, xb, qids, opt.B, opt.Level, opt.Seed)
	}
	m, ok := intervalMemo.Get()
	if !ok {
		return compute()
	}
	key := intervalKey(xa, xb, qids, opt)
	if ci, ok := m.Recall(key); ok {
		return ci, nil
	}
	ci, err := compute()
	if err == nil {
		m.Keep(key, ci)
	}
	return ci, err
}
