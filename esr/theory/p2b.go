package theory

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/stats"
)

// P2bConfig sets up the random keys of P2bTypingBenefit. Zero fields take
// the defaults.
type P2bConfig struct {
	N                  int            // keys sampled (default 20000)
	MinAtoms, MaxAtoms int            // atoms per key, uniform (default 2 and 4)
	Values             int            // size of the value pool v0, v1, … (default 3)
	Labels             []esr.Relation // alphabet each co-keyed pair's label is drawn from (default all five)
	Seed               uint64
}

func (c P2bConfig) withDefaults() P2bConfig {
	if c.N <= 0 {
		c.N = 20000
	}
	if c.MinAtoms <= 0 {
		c.MinAtoms = 2
	}
	if c.MaxAtoms < c.MinAtoms {
		c.MaxAtoms = max(c.MinAtoms, 4)
	}
	if c.Values <= 0 {
		c.Values = 3
	}
	if len(c.Labels) == 0 {
		c.Labels = esr.Relations[:]
	}
	return c
}

// P2bResult holds the information quantities of Proposition 2b, in bits.
type P2bResult struct {
	Config     P2bConfig // with defaults filled in
	Labellings int       // distinct relation labellings R drawn
	HSnapshot  float64   // H(v*)
	// HSnapshotGivenValues is H(v* | values): what the values alone leave open.
	HSnapshotGivenValues float64
	// BType is b_type = I(v*; R | Π, values), the information the five-way
	// labelling adds once the live/dead partition is known: 0.
	BType CMI
	// RGivenValues is I(v*; R | values): without Π the labels do inform v*
	// (plug-in it equals H(v* | values), since v* is a function of R and
	// the values).
	RGivenValues CMI
	// PiGivenValues is I(v*; Π | values): the binary partition alone carries
	// all of it.
	PiGivenValues CMI
	// ReadOutMismatches counts keys where the read-out g(Π, values)
	// (esr.ReadOut) differed from ⊕'s snapshot: 0 when v* = g(Π, values).
	ReadOutMismatches int
}

// P2bTypingBenefit instantiates Proposition 2b (minimal sufficiency of the
// binary partition for snapshot queries). It draws cfg.N keys, each a
// sequence of atoms with values from a small pool and a random relation label
// for every co-keyed pair, folds ⊕ (esr.KeyLedger.Add) over them and records
// the snapshot answer v*, the partition Π (KeyLedger.Partition), the values
// in transaction order and the labelling R. It estimates
// b_type = I(v*; R | Π, values) by grouping on the (Π, values) cell
// (ConditionalMI): both estimates are exactly 0, because v* = g(Π, values).
// For contrast it estimates I(v*; R | values), which is positive: without Π
// the labels carry exactly the information Π would.
func P2bTypingBenefit(cfg P2bConfig) (P2bResult, error) {
	cfg = cfg.withDefaults()
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x2b))
	res := P2bResult{Config: cfg}
	vstar := make([]string, cfg.N)
	pis := make([]string, cfg.N)
	values := make([]string, cfg.N)
	labels := make([]string, cfg.N)
	cells := make([]string, cfg.N)
	for n := 0; n < cfg.N; n++ {
		k := cfg.MinAtoms + rng.IntN(cfg.MaxAtoms-cfg.MinAtoms+1)
		atoms := make([]esr.Atom, k)
		vs := make([]string, k)
		for i := range atoms {
			vs[i] = fmt.Sprintf("v%d", rng.IntN(cfg.Values))
			atoms[i] = esr.Atom{ID: fmt.Sprintf("a%d", i), EventIndex: i, Entity: "x", Attribute: "a",
				Value: vs[i], Polarity: esr.Positive}
		}
		rel := map[[2]int]esr.Relation{}
		var r strings.Builder
		for i := 0; i < k; i++ {
			for j := i + 1; j < k; j++ {
				l := cfg.Labels[rng.IntN(len(cfg.Labels))]
				rel[[2]int{i, j}] = l
				r.WriteByte(byte('0' + l))
			}
		}
		pos := map[*esr.Atom]int{}
		for i := range atoms {
			pos[&atoms[i]] = i
		}
		var kl esr.KeyLedger
		f := func(a, b *esr.Atom) esr.Relation { return rel[[2]int{pos[a], pos[b]}] }
		for i := range atoms {
			kl.Add(&atoms[i], f)
		}
		live := kl.Partition()
		if esr.ReadOut(kl.Atoms, live) != kl.Snapshot() {
			res.ReadOutMismatches++
		}
		var pi strings.Builder
		for _, l := range live {
			if l {
				pi.WriteByte('1')
			} else {
				pi.WriteByte('0')
			}
		}
		vstar[n] = kl.Snapshot().String()
		pis[n] = pi.String()
		values[n] = strings.Join(vs, ",")
		labels[n] = r.String()
		cells[n] = pis[n] + "|" + values[n]
	}
	counts, _ := stats.LabelCounts(vstar)
	res.HSnapshot = stats.Entropy(counts)
	_, distinct := stats.LabelCounts(labels)
	res.Labellings = len(distinct)
	res.HSnapshotGivenValues = stats.ConditionalEntropy(vstar, values)
	var err error
	if res.BType, err = stats.ConditionalMutualInformation(vstar, labels, cells); err != nil {
		return res, err
	}
	if res.RGivenValues, err = stats.ConditionalMutualInformation(vstar, labels, values); err != nil {
		return res, err
	}
	res.PiGivenValues, err = stats.ConditionalMutualInformation(vstar, pis, values)
	return res, err
}
