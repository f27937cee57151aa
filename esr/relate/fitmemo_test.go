package relate

import (
	"reflect"
	"sync"
	"testing"
)

// mapMemo is a FitMemo in memory that counts its hits and keeps.
type mapMemo struct {
	mu         sync.Mutex
	m          map[[32]byte][]float64
	hits, keep int
}

func (m *mapMemo) RecallFloats(k [32]byte) ([]float64, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	w, ok := m.m[k]
	if ok {
		m.hits++
	}
	return append([]float64(nil), w...), ok
}

func (m *mapMemo) KeepFloats(k [32]byte, w []float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[k] = append([]float64(nil), w...)
	m.keep++
}

// With a memo, a cross-validation is the same bit for bit as without: the
// first run keeps one fit per fold and the full one, the second recalls
// them all; another λ or bench is a new key for every fit, another seed for
// every fold (the full fit's rows do not depend on the folds: recalled).
func TestFitMemo(t *testing.T) {
	b := toyBench(30, 2)
	plain, err := CrossValidateLearned(b, 4, 7, LearnedLambda)
	if err != nil {
		t.Fatal(err)
	}
	memo := &mapMemo{m: map[[32]byte][]float64{}}
	SetFitMemo(memo)
	defer SetFitMemo(nil)
	same := func(r *LearnedCV) bool {
		return reflect.DeepEqual(r.Pairs, plain.Pairs) && reflect.DeepEqual(r.Folds, plain.Folds) &&
			reflect.DeepEqual(r.Learned, plain.Learned) && reflect.DeepEqual(r.Full.sm.w, plain.Full.sm.w)
	}
	for run := 1; run <= 2; run++ {
		r, err := CrossValidateLearned(b, 4, 7, LearnedLambda)
		if err != nil {
			t.Fatal(err)
		}
		if !same(r) {
			t.Fatalf("run %d through the memo differs from the fit without it", run)
		}
	}
	if memo.keep != 5 || memo.hits != 5 {
		t.Fatalf("memo kept %d fits and recalled %d; want 5 and 5 (4 folds and the full fit)", memo.keep, memo.hits)
	}
	for _, c := range []struct {
		name   string
		k      int
		seed   uint64
		lambda float64
		bench  uint64
		hits   int
	}{{"λ", 4, 7, 2 * LearnedLambda, 2, 0}, {"seed", 4, 8, LearnedLambda, 2, 1}, {"bench", 4, 7, LearnedLambda, 3, 0}} {
		hits := memo.hits
		if _, err := CrossValidateLearned(toyBench(30, c.bench), c.k, c.seed, c.lambda); err != nil {
			t.Fatal(err)
		}
		if memo.hits-hits != c.hits {
			t.Errorf("another %s recalled %d fits kept before, want %d", c.name, memo.hits-hits, c.hits)
		}
	}
}
