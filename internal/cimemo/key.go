package cimemo

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"io"
	"math"
	"sync/atomic"

	"github.com/esrkit/esrkit/internal/codefp"
)

// Key builds a memo key: a SHA-256 of what is being kept (the purpose), the
// library's code (codefp.Fingerprint) and every value the kept result
// depends on, in order, so that a memo never returns what the code would not
// compute now. Values are buffered and hashed 64 KiB at a time.
type Key struct {
	h   hash.Hash
	buf []byte
}

// NewKey starts the key of a result of purpose (e.g. "eval.Compare bootstrap v1").
func NewKey(purpose string) *Key {
	k := &Key{h: sha256.New()}
	io.WriteString(k.h, purpose+"\n"+codefp.Fingerprint()+"\n")
	return k
}

func (k *Key) flush() {
	if len(k.buf) > 1<<16 {
		k.h.Write(k.buf)
		k.buf = k.buf[:0]
	}
}

// Uint adds v.
func (k *Key) Uint(v uint64) {
	k.buf = binary.LittleEndian.AppendUint64(k.buf, v)
	k.flush()
}

// Float adds v's bits (so -0 and 0 differ, as the results may).
func (k *Key) Float(v float64) { k.Uint(math.Float64bits(v)) }

// String adds s, length first, so that ("ab", "c") and ("a", "bc") differ.
func (k *Key) String(s string) {
	k.buf = binary.AppendUvarint(k.buf, uint64(len(s)))
	k.buf = append(k.buf, s...)
	k.flush()
}

// Sum returns the key.
func (k *Key) Sum() [32]byte {
	k.h.Write(k.buf)
	k.buf = k.buf[:0]
	var s [32]byte
	k.h.Sum(s[:0])
	return s
}

// Slot holds the memo a package consults (eval's intervals, relate's fits),
// safe to set and read concurrently; M is the package's memo interface.
type Slot[M any] struct{ p atomic.Pointer[M] }

// Set makes m the memo; a nil m turns the memo off.
func (s *Slot[M]) Set(m M) {
	if any(m) == nil {
		s.p.Store(nil)
		return
	}
	s.p.Store(&m)
}

// Get returns the memo, if one is set.
func (s *Slot[M]) Get() (M, bool) {
	if p := s.p.Load(); p != nil {
		return *p, true
	}
	var zero M
	return zero, false
}
