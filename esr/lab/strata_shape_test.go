package lab_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/synth"
)

// TestCleanPresetIsBundled: the clean preset is the configuration
// data/synthetic is generated from (synth's TestBundledRegenerates holds
// the bytes).
func TestCleanPresetIsBundled(t *testing.T) {
	c, err := lab.GenPreset(lab.PresetClean)
	if err != nil || !reflect.DeepEqual(c, lab.DefaultGenConfig()) {
		t.Errorf("clean preset %+v (%v), want DefaultGenConfig", c, err)
	}
	if _, err := lab.GenPreset("tidy"); err == nil {
		t.Error("unknown preset accepted")
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

// TestShapeOfBundled: the bundled clean bench is far from the paper's
// composition where the issue said it is (atoms per event, keys per stream,
// monotonic share, text length), measured the same way.
func TestShapeOfBundled(t *testing.T) {
	b, err := bench.Load("../../data/synthetic")
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
