package sim_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// TestCalibratedReaders: the shipped panel has one profile per paper
// family, each reachable as sim:fit-FAMILY and listed by the catalog with
// its fit error; a calibration file's profile loads as sim:@FILE#NAME, with
// overrides, and a bad file or name is an error naming it.
func TestCalibratedReaders(t *testing.T) {
	c := sim.Calibrated()
	if len(c.Families) != 5 {
		t.Fatalf("%d calibrated families", len(c.Families))
	}
	panel := sim.CalibratedPanel()
	for i, f := range c.Families {
		if want := sim.FitName(f.Family); f.Profile.Name != want {
			t.Errorf("family %s: profile %q, want %q", f.Family, f.Profile.Name, want)
		}
		if panel[i].Spec() != (reader.Spec{Kind: reader.KindSim, Name: f.Profile.Name}) {
			t.Errorf("panel reader %d is %s", i, panel[i].Spec())
		}
		r, err := reader.Parse("sim:"+f.Profile.Name+"@seed=3", llm.Setup{}, sim.Readers)
		if err != nil {
			t.Fatal(err)
		}
		if r.(*sim.Sim).Profile() != f.Profile {
			t.Errorf("sim:%s parses to another profile", f.Profile.Name)
		}
	}
	listed := 0
	for _, info := range reader.Catalog(llm.Setup{}, sim.Readers) {
		if info.Kind == "sim-calibrated" {
			listed++
			if !info.Simulated || !strings.Contains(info.Summary, "RMSE") {
				t.Errorf("catalog entry %+v", info)
			}
		}
	}
	if listed != 5 {
		t.Errorf("catalog lists %d calibrated readers", listed)
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "fits.json")
	js, err := c.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, js, 0o644); err != nil {
		t.Fatal(err)
	}
	name := c.Families[1].Profile.Name
	r, err := sim.Parse("@" + path + "#" + name + "@status=0.25@seed=2")
	if err != nil {
		t.Fatal(err)
	}
	if r.Profile().StatusSkill != 0.25 || r.Seed() != 2 || r.Profile().DateSkill != c.Families[1].Profile.DateSkill {
		t.Errorf("loaded %+v seed %d", r.Profile(), r.Seed())
	}
	if _, err := sim.Parse("@" + path + "#fit-nobody"); err == nil || !strings.Contains(err.Error(), "has no profile") {
		t.Errorf("unknown profile in a file: %v", err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"kind":"something-else","families":[]}`), 0o644)
	if _, err := sim.Parse("@" + bad + "#x"); err == nil || !strings.Contains(err.Error(), `field "kind"`) {
		t.Errorf("bad file: %v", err)
	}
}
