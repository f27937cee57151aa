package lab_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/synth"
)

// TestPresets: the clean preset is DefaultGenConfig, the bundled
// configuration is the paper preset with its rare strata ×2, and an unknown
// preset is refused.
func TestPresets(t *testing.T) {
	c, err := lab.GenPreset(lab.PresetClean)
	if err != nil || !reflect.DeepEqual(c, lab.DefaultGenConfig()) {
		t.Errorf("clean preset %+v (%v), want DefaultGenConfig", c, err)
	}
	p, err := lab.GenPreset(lab.PresetPaper)
	if err != nil {
		t.Fatal(err)
	}
	p.RareOversample = lab.BundledRareOversample
	if !reflect.DeepEqual(p, lab.BundledGenConfig()) || lab.BundledRareOversample != 2 {
		t.Errorf("bundled config %+v, want the paper preset ×2", lab.BundledGenConfig())
	}
	if _, err := lab.GenPreset("tidy"); err == nil {
		t.Error("unknown preset accepted")
	}
}

// TestBundledRegenerates: BundledGenConfig regenerates data/synthetic byte
// for byte (data/README.md gives the command).
func TestBundledRegenerates(t *testing.T) {
	if testing.Short() {
		t.Skip("writes the bundled bench")
	}
	dir := t.TempDir()
	if _, err := synth.Write(dir, lab.BundledGenConfig()); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"streams.jsonl", "atoms.jsonl", "qa.jsonl", "relations.jsonl", "MANIFEST.json"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		old, err := os.ReadFile(filepath.Join("..", "..", "data", "synthetic", name))
		if err != nil || !bytes.Equal(got, old) {
			t.Errorf("data/synthetic/%s is stale (%v): regenerate with go run ./cmd/esr gen --like paper --rare-oversample 2 --out data/synthetic", name, err)
		}
	}
}

// TestPaperPresetShape: a bench written with the paper preset, loaded from
// its files as a user loads it and measured by bench.MeasureShape, is within
// 10% of each of the preset's targets (atoms per event, keys per stream,
// event and co-key recall, monotonic share, stream text length, the share
// of questions per Table 12 bin and per source).
func TestPaperPresetShape(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and measures the full paper-preset bench")
	}
	cfg, err := lab.GenPreset(lab.PresetPaper)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := synth.Write(dir, cfg); err != nil {
		t.Fatal(err)
	}
	b, err := bench.Load(dir) // a lossy extraction loads; its uncovered QAs are listed
	if err != nil {
		t.Fatal(err)
	}
	checks := lab.PaperShapeChecks(b)
	if len(checks) != 14 {
		t.Fatalf("%d checks, want 14", len(checks))
	}
	for _, c := range checks {
		t.Logf("%-40s measured %9.3f  target %9.3f  (%4.1f%%)", c.Name, c.Measured, c.Value, 100*c.RelErr)
		if !c.Found || c.RelErr > 0.10 {
			t.Errorf("%s: measured %.3f (found %v), target %.3f: drift %.1f%% > 10%%", c.Name, c.Measured, c.Found, c.Value, 100*c.RelErr)
		}
	}
	tab := lab.ShapeTable(b, "paper").Text()
	for _, want := range []string{"App. F", "Table 12", "2,631 of 2,907", "atoms per event (all events)"} {
		if !strings.Contains(tab, want) {
			t.Errorf("composition table lacks %q:\n%s", want, tab)
		}
	}
}

// TestBundledShape: the bundled bench, loaded from its files and measured
// by bench.MeasureShape, is within 10% of every target of the paper preset
// with its declared oversampling (its MANIFEST says ×2): the monotonic share
// as sampled against the paper's counts ×2, and weighted back against the
// paper's 90.5%; its tables' notes say which mix pooled numbers use.
func TestBundledShape(t *testing.T) {
	b, err := bench.Load("../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	if k := lab.RareOversampleOf(b); k != lab.BundledRareOversample {
		t.Fatalf("data/synthetic declares rare strata ×%d, want ×%d", k, lab.BundledRareOversample)
	}
	checks := lab.PaperShapeChecks(b)
	if len(checks) != 15 {
		t.Fatalf("%d checks, want 15 (the monotonic share as sampled and weighted back)", len(checks))
	}
	for _, c := range checks {
		t.Logf("%-44s measured %9.3f  target %9.3f  (%4.1f%%)", c.Name, c.Measured, c.Value, 100*c.RelErr)
		if !c.Found || c.RelErr > 0.10 {
			t.Errorf("%s: measured %.3f (found %v), target %.3f: drift %.1f%% > 10%%", c.Name, c.Measured, c.Found, c.Value, 100*c.RelErr)
		}
	}
	for _, c := range checks {
		if c.Name == lab.TargetMonotonicWeighted && c.Value != 2631.0/2907 {
			t.Errorf("weighted monotonic share's target %v, want the paper's 2,631 of 2,907", c.Value)
		}
		if c.Name == lab.TargetMonotonicShare && c.Value != 2631.0/(2631+2*276) {
			t.Errorf("as-sampled monotonic share's target %v, want 2,631 of 2,631 + 2·276", c.Value)
		}
	}
	note := lab.MixNote(b)
	for _, want := range []string{"×2", "90.5%", "pooled over strata uses this one"} {
		if !strings.Contains(note, want) {
			t.Errorf("mix note lacks %q: %s", want, note)
		}
	}
	clean, err := lab.Generate(lab.DefaultGenConfig())
	if err != nil {
		t.Fatal(err)
	}
	if lab.MixNote(clean) != "" || lab.RareOversampleOf(clean) != 1 {
		t.Errorf("a bench generated in memory has a mix note %q", lab.MixNote(clean))
	}
}

// TestShapeOfClean: the clean preset is far from the paper's composition
// where the issue said the old bundled bench was (atoms per event, keys per
// stream, monotonic share, text length), measured the same way.
func TestShapeOfClean(t *testing.T) {
	b, err := lab.Generate(lab.DefaultGenConfig())
	if err != nil {
		t.Fatal(err)
	}
	far := map[string]bool{}
	for _, c := range lab.PaperShapeChecks(b) {
		if c.RelErr > 0.10 {
			far[c.Name] = true
		}
	}
	for _, name := range []string{lab.TargetAtomsPerEvent, lab.TargetKeysPerStream, lab.TargetMonotonicShare, lab.TargetStreamTokens} {
		if !far[name] {
			t.Errorf("%s: the clean bench is within 10%% of the paper's", name)
		}
	}
}
