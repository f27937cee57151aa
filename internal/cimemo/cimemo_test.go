package cimemo_test

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/esrkit/esrkit/internal/cimemo"
	"github.com/esrkit/esrkit/internal/codefp"
	"github.com/esrkit/esrkit/stats"
)

func TestKeepRecall(t *testing.T) {
	root := t.TempDir()
	// Another code version's folder, and a file that is not one.
	os.MkdirAll(filepath.Join(root, "0badc0de"), 0o755)
	os.WriteFile(filepath.Join(root, "notes.txt"), []byte("x"), 0o644)
	m := cimemo.Open(root)
	if _, err := os.Stat(filepath.Join(root, "0badc0de")); !os.IsNotExist(err) {
		t.Error("another code version's folder was kept")
	}
	if _, err := os.Stat(filepath.Join(root, "notes.txt")); err != nil {
		t.Error("a file that is not a code folder was removed")
	}

	k1, k2 := [32]byte{1}, [32]byte{2}
	if _, ok := m.Recall(k1); ok {
		t.Fatal("recalled from an empty memo")
	}
	// Bounds that JSON must carry exactly (shortest round-trip formatting).
	ci := stats.BootstrapCI{N: 1595, Estimate: 0.1567398119122257, Lo: 0.1347962382445141, Hi: -1e-17,
		B: 10000, Seed: 1, Level: 0.95, Clusters: 319}
	m.Keep(k1, ci)
	got, ok := m.Recall(k1)
	if !ok || got != ci {
		t.Fatalf("Recall = %+v, %v; want %+v", got, ok, ci)
	}
	if _, ok := m.Recall(k2); ok {
		t.Fatal("recalled a key never kept")
	}
	// Reopened (another cell's process): still there.
	if got, ok := cimemo.Open(root).Recall(k1); !ok || got != ci {
		t.Fatal("a reopened memo lost the entry")
	}
	// An entry moved under another key's name, or damaged, is a miss.
	dir := filepath.Join(root, codefp.Tag())
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("memo folder holds %d files, want 1", len(ents))
	}
	b, _ := os.ReadFile(filepath.Join(dir, ents[0].Name()))
	other := filepath.Join(dir, "02"+ents[0].Name()[2:])
	os.WriteFile(other, b, 0o644)
	if _, ok := m.Recall(k2); ok {
		t.Fatal("recalled an entry filed under another key")
	}
	os.WriteFile(filepath.Join(dir, ents[0].Name()), b[:len(b)/2], 0o644)
	if _, ok := m.Recall(k1); ok {
		t.Fatal("recalled a damaged entry")
	}
}

// Weights come back bit for bit; a vector JSON cannot carry (NaN) is not
// kept, so it is computed again rather than recalled wrong.
func TestKeepRecallFloats(t *testing.T) {
	m := cimemo.Open(t.TempDir())
	k1, k2 := [32]byte{1}, [32]byte{2}
	w := []float64{0.1567398119122257, -1e-17, math.Copysign(0, -1), 5e-324, math.MaxFloat64, -3}
	m.KeepFloats(k1, w)
	got, ok := m.RecallFloats(k1)
	if !ok || len(got) != len(w) {
		t.Fatalf("RecallFloats = %v, %v", got, ok)
	}
	for i := range w {
		if math.Float64bits(got[i]) != math.Float64bits(w[i]) {
			t.Errorf("value %d: %v (bits %x), want %v (bits %x)", i, got[i], math.Float64bits(got[i]), w[i], math.Float64bits(w[i]))
		}
	}
	m.KeepFloats(k2, []float64{1, math.NaN()})
	if _, ok := m.RecallFloats(k2); ok {
		t.Error("recalled a vector holding NaN")
	}
	// An interval entry is not a vector of numbers.
	if _, ok := m.Recall(k1); ok {
		t.Error("recalled a vector as an interval")
	}
}
