package relate

import (
	"fmt"
	"sort"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// Relator names.
const (
	learnedName    = "learned"     // Model
	learnedOOFName = "learned-oof" // CVResult.OutOfFold
)

// numClasses is the size of the relation alphabet.
const numClasses = len(esr.Relations)

// LearnedLambda is a mild L2 penalty for standardised features.
const LearnedLambda = 1e-3

// Learned is a trained pair scorer; it implements esr.Relator (Name
// "learned"). Build one with Train or take CVResult.Full.
type Learned struct {
	Lambda float64
	// NTrain is the number of gold pairs it was fitted on, ClassCounts
	// their labels by class.
	NTrain      int
	ClassCounts [numClasses]int
	sm          *softmax
}

func (m *Learned) Name() string { return learnedName }

// ForStream labels a pair with the most probable class under the model.
func (m *Learned) ForStream(s *esr.Stream, atoms []esr.Atom) esr.PairFunc {
	f := newFeaturizer(s, atoms)
	x := make([]float64, numFeatures)
	return func(a, b *esr.Atom) esr.Relation {
		f.features(a, b, x)
		return esr.Relation(m.sm.predict(x))
	}
}

// Probs is p(class | a, b) for one pair of the stream, in esr.Relations
// order.
func (m *Learned) Probs(s *esr.Stream, atoms []esr.Atom, a, b *esr.Atom) []float64 {
	x := make([]float64, numFeatures)
	newFeaturizer(s, atoms).features(a, b, x)
	return m.sm.probs(x)
}

// TrainLearned fits the scorer on every gold pair of the bench (b.Relations).
func TrainLearned(b *bench.Bench, lambda float64) (*Learned, error) {
	pairs, err := goldPairs(b)
	if err != nil {
		return nil, err
	}
	return fit(pairs, lambda)
}

func fit(pairs []learnedPair, lambda float64) (*Learned, error) {
	x := make([][]float64, len(pairs))
	y := make([]int, len(pairs))
	m := &Learned{Lambda: lambda, NTrain: len(pairs)}
	for i, p := range pairs {
		x[i], y[i] = p.x, int(p.gold)
		m.ClassCounts[p.gold]++
	}
	sm, err := fitSoftmax(x, y, numClasses, lambda)
	if err != nil {
		return nil, err
	}
	m.sm = sm
	return m, nil
}

// learnedPair is one gold-labelled co-keyed learnedPair with its features.
type learnedPair struct {
	stream string
	a, b   string
	gold   esr.Relation
	rule   esr.Relation
	x      []float64
}

// goldPairs lists the bench's gold pairs in a fixed order (streams in bench
// order, pairs by the positions of a then b), so fits are reproducible.
func goldPairs(bn *bench.Bench) ([]learnedPair, error) {
	if len(bn.Relations) == 0 {
		return nil, fmt.Errorf("learn: bench %q has no gold relations (relations.jsonl)", bn.Dir)
	}
	var out []learnedPair
	for _, s := range bn.Streams {
		gold := bn.Relations[s.ID]
		if len(gold) == 0 {
			continue
		}
		atoms := bn.Atoms[s.ID]
		idx := make(map[string]int, len(atoms))
		for i := range atoms {
			idx[atoms[i].ID] = i
		}
		type ij struct {
			i, j int
			r    esr.Relation
		}
		var ps []ij
		for p, r := range gold {
			i, okA := idx[p.A]
			j, okB := idx[p.B]
			if !okA || !okB {
				return nil, fmt.Errorf("learn: stream %q: gold pair (%s, %s) names an unknown atom", s.ID, p.A, p.B)
			}
			ps = append(ps, ij{i, j, r})
		}
		sort.Slice(ps, func(x, y int) bool {
			if ps[x].i != ps[y].i {
				return ps[x].i < ps[y].i
			}
			return ps[x].j < ps[y].j
		})
		f := newFeaturizer(s, atoms)
		for _, p := range ps {
			a, b := &atoms[p.i], &atoms[p.j]
			x := make([]float64, numFeatures)
			f.features(a, b, x)
			out = append(out, learnedPair{stream: s.ID, a: a.ID, b: b.ID, gold: p.r, rule: f.rule(a, b), x: x})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("learn: bench %q: no gold pair belongs to a loaded stream", bn.Dir)
	}
	return out, nil
}

// Weights returns the fitted weights: w[c][j] is the weight of feature j
// (learnedFeatures, then "bias" last) for relation class c (esr.Relations
// order). Inputs are standardised, so a weight is the change in that
// class's log-odds (against the others) per standard deviation of the
// feature.
func (m *Learned) Weights() (features []string, w [][]float64) {
	d1 := m.sm.d + 1
	features = append(append(features, learnedFeatures[:m.sm.d]...), "bias")
	w = make([][]float64, numClasses)
	for c := range numClasses {
		w[c] = append([]float64(nil), m.sm.w[c*d1:(c+1)*d1]...)
	}
	return features, w
}
