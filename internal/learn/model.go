package learn

import (
	"fmt"
	"sort"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
)

// Relator names.
const (
	Name          = "learned"     // Model
	OutOfFoldName = "learned-oof" // CVResult.OutOfFold
)

// numClasses is the size of the relation alphabet.
const numClasses = len(esr.Relations)

// DefaultLambda is a mild L2 penalty for standardised features.
const DefaultLambda = 1e-3

// Model is a trained pair scorer; it implements esr.Relator (Name
// "learned"). Build one with Train or take CVResult.Full.
type Model struct {
	Lambda float64
	// NTrain is the number of gold pairs it was fitted on, ClassCounts
	// their labels by class.
	NTrain      int
	ClassCounts [numClasses]int
	sm          *softmax
}

func (m *Model) Name() string { return Name }

// ForStream labels a pair with the most probable class under the model.
func (m *Model) ForStream(s *esr.Stream, atoms []esr.Atom) esr.PairFunc {
	f := newFeaturizer(s, atoms)
	x := make([]float64, numFeatures)
	return func(a, b *esr.Atom) esr.Relation {
		f.features(a, b, x)
		return esr.Relation(m.sm.predict(x))
	}
}

// Probs is p(class | a, b) for one pair of the stream, in esr.Relations
// order.
func (m *Model) Probs(s *esr.Stream, atoms []esr.Atom, a, b *esr.Atom) []float64 {
	x := make([]float64, numFeatures)
	newFeaturizer(s, atoms).features(a, b, x)
	return m.sm.probs(x)
}

// Train fits the scorer on every gold pair of the bench (b.Relations).
func Train(b *bench.Bench, lambda float64) (*Model, error) {
	pairs, err := goldPairs(b)
	if err != nil {
		return nil, err
	}
	return fit(pairs, lambda)
}

func fit(pairs []pair, lambda float64) (*Model, error) {
	x := make([][]float64, len(pairs))
	y := make([]int, len(pairs))
	m := &Model{Lambda: lambda, NTrain: len(pairs)}
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

// pair is one gold-labelled co-keyed pair with its features.
type pair struct {
	stream string
	a, b   string
	gold   esr.Relation
	rule   esr.Relation
	x      []float64
}

// goldPairs lists the bench's gold pairs in a fixed order (streams in bench
// order, pairs by the positions of a then b), so fits are reproducible.
func goldPairs(bn *bench.Bench) ([]pair, error) {
	if len(bn.Relations) == 0 {
		return nil, fmt.Errorf("learn: bench %q has no gold relations (relations.jsonl)", bn.Dir)
	}
	var out []pair
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
			out = append(out, pair{stream: s.ID, a: a.ID, b: b.ID, gold: p.r, rule: f.rule(a, b), x: x})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("learn: bench %q: no gold pair belongs to a loaded stream", bn.Dir)
	}
	return out, nil
}

// CoefTable shows the fitted weights: one row per feature, one column per
// class. Inputs are standardised, so a weight is the change in that class's
// log-odds (against the others) per standard deviation of the feature.
func (m *Model) CoefTable() *eval.Table {
	t := &eval.Table{Name: "learned-scorer-coefficients",
		Title:   "Learned pair scorer: softmax weights per standardised feature",
		Columns: []string{"feature"}}
	for _, r := range esr.Relations {
		t.Columns = append(t.Columns, r.String())
	}
	d1 := m.sm.d + 1
	for j := 0; j < d1; j++ {
		name := "bias"
		if j < m.sm.d {
			name = FeatureNames[j]
		}
		row := []any{name}
		for c := range numClasses {
			row = append(row, fmt.Sprintf("%+.3f", m.sm.w[c*d1+j]))
		}
		t.AddRow(row...)
	}
	t.Notes = []string{fmt.Sprintf("Multinomial logistic regression, L2 λ = %g, fitted by L-BFGS on %d gold pairs.", m.Lambda, m.NTrain)}
	return t
}
