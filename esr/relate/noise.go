package relate

import (
	"fmt"
	"hash/fnv"
	"math"

	"github.com/esrkit/esrkit/esr"
)

// RelationNoise wraps a relation source and replaces each predicted label,
// with probability P, by a uniformly random other label of the five-class
// alphabet (paper §4.2, Appendix C). The draw for a pair depends only on
// (Seed, P, the stream and the two atom ids), so every arm wrapped with the same Seed and P
// sees the same corruption.
type RelationNoise struct {
	Inner esr.Relator
	P     float64
	Seed  uint64
}

// Name names the inner source, the level and the seed (e.g.
// "rule+relation-noise(p=0.2, seed=2607)"): row fingerprints hash it, so
// rows at two levels or seeds never pass for one another.
func (n RelationNoise) Name() string {
	return fmt.Sprintf("%s+relation-noise(p=%g, seed=%d)", n.Inner.Name(), n.P, n.Seed)
}

func (n RelationNoise) ForStream(s *esr.Stream, atoms []esr.Atom) esr.PairFunc {
	inner := n.Inner.ForStream(s, atoms)
	if n.P <= 0 {
		return inner
	}
	return func(a, b *esr.Atom) esr.Relation {
		r := inner(a, b)
		h := pairHash(n.Seed, n.P, a.StreamID+"\x00"+a.ID, b.ID)
		if unit(h) >= n.P {
			return r
		}
		// A second, independent draw picks one of the four other labels.
		k := int(splitmix(h) % uint64(len(esr.Relations)-1))
		if esr.Relations[k] >= r {
			k++
		}
		return esr.Relations[k]
	}
}

// DropAtoms keeps each atom independently with probability 1 − p (atom
// dropout, paper §4.2). The draw for an atom depends only on (seed, p, its
// stream and id), so every arm loses the same atoms. The result is a new slice.
func DropAtoms(atoms []esr.Atom, p float64, seed uint64) []esr.Atom {
	out := make([]esr.Atom, 0, len(atoms))
	for _, a := range atoms {
		if p <= 0 || unit(pairHash(seed, p, a.StreamID+"\x00"+a.ID, "")) >= p {
			out = append(out, a)
		}
	}
	return out
}

// pairHash mixes the run seed, the noise level and up to two ids.
func pairHash(seed uint64, p float64, a, b string) uint64 {
	h := fnv.New64a()
	var buf [16]byte
	putUint64(buf[:8], seed)
	putUint64(buf[8:], math.Float64bits(p))
	h.Write(buf[:])
	h.Write([]byte(a))
	h.Write([]byte{0})
	h.Write([]byte(b))
	return splitmix(h.Sum64())
}

func putUint64(b []byte, v uint64) {
	for i := 0; i < 8; i++ {
		b[i] = byte(v >> (8 * i))
	}
}

// splitmix is the SplitMix64 finaliser (Steele, Lea & Flood 2014).
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// unit maps a hash to [0, 1).
func unit(h uint64) float64 { return float64(h>>11) / (1 << 53) }
