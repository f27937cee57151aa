package relate

import (
	"fmt"
	"math/rand/v2"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// LearnedFold is one cross-validation fold: the streams whose pairs it tests and
// the streams whose pairs trained its model (taken from the training pairs
// actually fitted, so the two lists are disjoint by construction and by
// check).
type LearnedFold struct {
	Test, Train []string
	NTest       int // test pairs
}

// PairPrediction is one gold pair's out-of-fold prediction and the rule
// scorer's label for it.
type PairPrediction struct {
	StreamID, A, B string
	Fold           int
	Gold, Rule     esr.Relation
	Learned        esr.Relation
}

// LearnedCV is a stream-grouped k-fold cross-validation of the learned
// scorer, with the rule scorer scored on the same pairs.
type LearnedCV struct {
	K      int
	Seed   uint64
	Lambda float64
	Folds  []LearnedFold
	Pairs  []PairPrediction // every gold pair, in goldPairs order
	// Rule and Learned score the rule scorer and the out-of-fold learned
	// predictions on Pairs.
	Rule, Learned RelationScores
	// Full is the model trained on every gold pair (the fallback of
	// OutOfFold for unlabelled pairs).
	Full *Learned

	oof    map[string]map[esr.AtomPair]esr.Relation
	models []*Learned     // by fold
	foldOf map[string]int // stream id -> fold
}

// CrossValidateLearned runs k-fold cross-validation grouped by stream: the streams
// with gold relations are shuffled by a PCG generator seeded with seed and
// dealt round-robin into k folds; each fold's model is fitted (with L2
// penalty lambda) on the pairs of the other folds' streams and predicts its
// own. The same bench, k, seed and lambda give identical results.
func CrossValidateLearned(b *bench.Bench, k int, seed uint64, lambda float64) (*LearnedCV, error) {
	pairs, err := goldPairs(b)
	if err != nil {
		return nil, err
	}
	var streams []string
	for i, p := range pairs {
		if i == 0 || pairs[i-1].stream != p.stream {
			streams = append(streams, p.stream)
		}
	}
	if k < 2 || k > len(streams) {
		return nil, fmt.Errorf("learn: k = %d folds needs 2 ≤ k ≤ %d (streams with gold relations)", k, len(streams))
	}
	foldOf := make(map[string]int, len(streams))
	for pos, i := range rand.New(rand.NewPCG(seed, 0x6c6561726e)).Perm(len(streams)) {
		foldOf[streams[i]] = pos % k
	}
	r := &LearnedCV{K: k, Seed: seed, Lambda: lambda, Folds: make([]LearnedFold, k),
		Pairs: make([]PairPrediction, len(pairs)), oof: map[string]map[esr.AtomPair]esr.Relation{},
		models: make([]*Learned, k), foldOf: foldOf}
	for _, s := range streams {
		f := &r.Folds[foldOf[s]]
		f.Test = append(f.Test, s)
	}
	for fi := range r.Folds {
		var train []learnedPair
		var test []int
		seen := map[string]bool{}
		for i, p := range pairs {
			if foldOf[p.stream] == fi {
				test = append(test, i)
				continue
			}
			train = append(train, p)
			if !seen[p.stream] {
				seen[p.stream] = true
				r.Folds[fi].Train = append(r.Folds[fi].Train, p.stream)
			}
		}
		for _, s := range r.Folds[fi].Test {
			if seen[s] {
				return nil, fmt.Errorf("learn: internal error: fold %d trains on its test stream %q", fi, s)
			}
		}
		m, err := fit(train, lambda)
		if err != nil {
			return nil, fmt.Errorf("learn: fold %d: %w", fi, err)
		}
		r.models[fi] = m
		r.Folds[fi].NTest = len(test)
		for _, i := range test {
			p := pairs[i]
			pred := esr.Relation(m.sm.predict(p.x))
			r.Pairs[i] = PairPrediction{StreamID: p.stream, A: p.a, B: p.b, Fold: fi, Gold: p.gold, Rule: p.rule, Learned: pred}
			g := r.oof[p.stream]
			if g == nil {
				g = map[esr.AtomPair]esr.Relation{}
				r.oof[p.stream] = g
			}
			g[esr.AtomPair{A: p.a, B: p.b}] = pred
		}
	}
	if r.Full, err = fit(pairs, lambda); err != nil {
		return nil, err
	}
	gold, rule, learned := make([]esr.Relation, len(pairs)), make([]esr.Relation, len(pairs)), make([]esr.Relation, len(pairs))
	for i, p := range r.Pairs {
		gold[i], rule[i], learned[i] = p.Gold, p.Rule, p.Learned
	}
	r.Rule, r.Learned = scoreRelations(gold, rule), scoreRelations(gold, learned)
	return r, nil
}

// OutOfFold is a Relator (Name "learned-oof") that answers each gold pair
// with its out-of-fold prediction — the label of the fold model that never
// saw the pair's stream. Other pairs of a cross-validated stream go to the
// same fold model, and pairs of any other stream to the full model. So
// evaluating the benchmark with it scores every labelled stream with a
// scorer not trained on that stream.
func (r *LearnedCV) OutOfFold() esr.Relator { return oofRelator{r} }

type oofRelator struct{ r *LearnedCV }

func (o oofRelator) Name() string { return learnedOOFName }

func (o oofRelator) ForStream(s *esr.Stream, atoms []esr.Atom) esr.PairFunc {
	m := o.r.Full
	if fi, ok := o.r.foldOf[s.ID]; ok {
		m = o.r.models[fi]
	}
	fallback := m.ForStream(s, atoms)
	oof := o.r.oof[s.ID]
	return func(a, b *esr.Atom) esr.Relation {
		if l, ok := oof[esr.AtomPair{A: a.ID, B: b.ID}]; ok {
			return l
		}
		return fallback(a, b)
	}
}
