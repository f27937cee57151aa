package cimemo_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	ci := stats.BootstrapCI{N: 1595, Estimate: 0.1567398119122257, Lo: -1e-17, Hi: 0.1347962382445141,
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

// entryFile is the one entry file of the memo under root.
func entryFile(t *testing.T, root string) string {
	t.Helper()
	dir := filepath.Join(root, codefp.Tag())
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("memo folder holds %d files, want 1", len(ents))
	}
	return filepath.Join(dir, ents[0].Name())
}

// sealed is an entry file for key holding value with a checksum that
// matches: what a corruption that also fixed the checksum (or a bug that
// kept a bad value) leaves, so that only the value checks can catch it.
func sealed(key [32]byte, value string) []byte {
	k := hex.EncodeToString(key[:])
	h := sha256.Sum256([]byte(k + "\n" + value))
	return []byte(`{"key":"` + k + `","sha256":"` + hex.EncodeToString(h[:]) + `","value":` + value + "}\n")
}

// A kept interval that was changed (one digit of a bound), emptied (null,
// {}) or made impossible (Lo > Hi, a level of 1, no resamples) is a miss,
// not recalled; keeping the interval again replaces it.
func TestRecallMissesACorruptInterval(t *testing.T) {
	root := t.TempDir()
	m := cimemo.Open(root)
	key := [32]byte{7}
	ci := stats.BootstrapCI{N: 1595, Estimate: 0.25, Lo: 0.1347962382445141, Hi: 0.3125, B: 10000, Seed: 1, Level: 0.95}
	m.Keep(key, ci)
	path := entryFile(t, root)
	good, _ := os.ReadFile(path)
	if got, ok := m.Recall(key); !ok || got != ci {
		t.Fatalf("Recall = %+v, %v; want %+v", got, ok, ci)
	}
	valid, _ := json.Marshal(ci)
	lohi := strings.Replace(strings.Replace(string(valid), "0.1347962382445141", "LO", 1), "0.3125", "0.1347962382445141", 1)
	lohi = strings.Replace(lohi, "LO", "0.3125", 1)
	for name, data := range map[string][]byte{
		"one digit of Lo":      bytes.Replace(good, []byte("0.1347962382445141"), []byte("0.1347962382445142"), 1),
		"value null":           bytes.Replace(good, valid, []byte("null"), 1),
		"value {}":             bytes.Replace(good, valid, []byte("{}"), 1),
		"entry null":           []byte("null\n"),
		"entry {}":             []byte("{}\n"),
		"no checksum":          bytes.Replace(good, []byte(`"sha256"`), []byte(`"sha"`), 1),
		"null, sealed":         sealed(key, "null"),
		"{}, sealed":           sealed(key, "{}"),
		"Lo > Hi, sealed":      sealed(key, lohi),
		"level 1, sealed":      sealed(key, strings.Replace(string(valid), `"Level":0.95`, `"Level":1`, 1)),
		"no resamples, sealed": sealed(key, strings.Replace(string(valid), `"B":10000`, `"B":0`, 1)),
		"an unknown field":     sealed(key, strings.Replace(string(valid), `{`, `{"X":1,`, 1)),
	} {
		if bytes.Equal(data, good) {
			t.Errorf("%s: the corruption changed nothing", name)
			continue
		}
		os.WriteFile(path, data, 0o644)
		if got, ok := m.Recall(key); ok {
			t.Errorf("%s: recalled %+v", name, got)
		}
		m.Keep(key, ci)
		if got, ok := m.Recall(key); !ok || got != ci {
			t.Errorf("%s: kept again, Recall = %+v, %v", name, got, ok)
		}
	}
	// The sealed helper writes what Keep writes.
	if !bytes.Equal(sealed(key, string(valid)), good) {
		t.Errorf("sealed(valid) = %s, Keep wrote %s", sealed(key, string(valid)), good)
	}
}

// Kept weights that were changed, emptied or nulled are a miss, and are
// replaced when kept again.
func TestRecallFloatsMissesCorruptWeights(t *testing.T) {
	root := t.TempDir()
	m := cimemo.Open(root)
	key := [32]byte{8}
	w := []float64{0.5, -1.25, 3}
	m.KeepFloats(key, w)
	path := entryFile(t, root)
	good, _ := os.ReadFile(path)
	for name, data := range map[string][]byte{
		"one digit":      bytes.Replace(good, []byte("-1.25"), []byte("-1.35"), 1),
		"value null":     bytes.Replace(good, []byte("[0.5,-1.25,3]"), []byte("null"), 1),
		"null, sealed":   sealed(key, "null"),
		"empty, sealed":  sealed(key, "[]"),
		"object, sealed": sealed(key, "{}"),
	} {
		if bytes.Equal(data, good) {
			t.Errorf("%s: the corruption changed nothing", name)
			continue
		}
		os.WriteFile(path, data, 0o644)
		if got, ok := m.RecallFloats(key); ok {
			t.Errorf("%s: recalled %v", name, got)
		}
		m.KeepFloats(key, w)
		if got, ok := m.RecallFloats(key); !ok || !slices.Equal(got, w) {
			t.Errorf("%s: kept again, RecallFloats = %v, %v", name, got, ok)
		}
	}
}

// Counts come back as kept; counts that were changed, emptied, made
// negative or fractional are a miss, and are replaced when kept again.
func TestKeepRecallCounts(t *testing.T) {
	root := t.TempDir()
	m := cimemo.Open(root)
	key := [32]byte{9}
	c := []int{990, 412, 17, 0, 198, 101, 0, 3}
	m.KeepCounts(key, c)
	if got, ok := m.RecallCounts(key); !ok || !slices.Equal(got, c) {
		t.Fatalf("RecallCounts = %v, %v; want %v", got, ok, c)
	}
	path := entryFile(t, root)
	good, _ := os.ReadFile(path)
	for name, data := range map[string][]byte{
		"one digit":          bytes.Replace(good, []byte("412"), []byte("413"), 1),
		"null, sealed":       sealed(key, "null"),
		"empty, sealed":      sealed(key, "[]"),
		"negative, sealed":   sealed(key, "[990,-1]"),
		"fractional, sealed": sealed(key, "[990,1.5]"),
		"object, sealed":     sealed(key, "{}"),
	} {
		if bytes.Equal(data, good) {
			t.Errorf("%s: the corruption changed nothing", name)
			continue
		}
		os.WriteFile(path, data, 0o644)
		if got, ok := m.RecallCounts(key); ok {
			t.Errorf("%s: recalled %v", name, got)
		}
		m.KeepCounts(key, c)
		if got, ok := m.RecallCounts(key); !ok || !slices.Equal(got, c) {
			t.Errorf("%s: kept again, RecallCounts = %v, %v", name, got, ok)
		}
	}
	// Weights are not counts.
	m.KeepFloats(key, []float64{0.5})
	if got, ok := m.RecallCounts(key); ok {
		t.Errorf("recalled weights as counts: %v", got)
	}
}
