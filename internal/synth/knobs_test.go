package synth_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/internal/synth"
)

// smallPaper has the paper preset's composition knobs (lab.GenPreset
// "paper") on a small mix, with noise-free extraction so gold can be
// checked against the atoms.
func smallPaper() synth.Config {
	c := synth.DefaultConfig()
	c.Streams = map[string]map[esr.Phenomenon]int{}
	for _, src := range synth.Sources {
		c.Streams[src] = map[esr.Phenomenon]int{}
		for _, p := range esr.Phenomena {
			c.Streams[src][p] = 8
		}
	}
	c.LengthWeights = []float64{0.355, 0.23, 0.184, 0.115, 0.091}
	c.AtomsPerEvent, c.AtomsOver, c.KeysPerStream, c.EventTokens = 2.6, synth.AtomsOverWithAtoms, 3.95, 56
	return c
}

// TestPaperKnobsKeepGold: with the paper's composition knobs (noise-free
// extraction) gold still follows from the atoms: the fine ledger under gold
// relations answers every QA; distractor keys get atoms and no question;
// no event states a key twice; every stream has at least as many keys as
// questioned ones, and some have more.
func TestPaperKnobsKeepGold(t *testing.T) {
	b, err := synth.Generate(smallPaper())
	if err != nil {
		t.Fatal(err)
	}
	for _, qt := range esr.QueryTypes {
		c := accuracy(t, b, "fine-ledger", relate.Oracle{Gold: b.Relations}, qt)["all"]
		if c[1] == 0 || c[0] != c[1] {
			t.Errorf("%s: fine-ledger/oracle %d/%d", qt, c[0], c[1])
		}
	}
	asked := map[string]map[esr.Key]bool{}
	for _, q := range b.QAs {
		if asked[q.StreamID] == nil {
			asked[q.StreamID] = map[esr.Key]bool{}
		}
		asked[q.StreamID][esr.Key{Entity: q.Entity, Attribute: q.Attribute}] = true
	}
	more := 0
	for _, s := range b.Streams {
		keys := map[esr.Key]bool{}
		perEvent := map[string]map[esr.Key]bool{}
		for _, a := range b.Atoms[s.ID] {
			k := a.Key()
			if perEvent[a.EventID] == nil {
				perEvent[a.EventID] = map[esr.Key]bool{}
			}
			if perEvent[a.EventID][k] {
				t.Errorf("%s %s: two atoms of %v", s.ID, a.EventID, k)
			}
			perEvent[a.EventID][k] = true
			keys[k] = true
		}
		for k := range asked[s.ID] {
			if !keys[k] {
				t.Errorf("%s: questioned key %v has no atom", s.ID, k)
			}
		}
		if len(keys) > len(asked[s.ID]) {
			more++
		}
	}
	if more < len(b.Streams)/2 {
		t.Errorf("only %d of %d streams have unquestioned (distractor) keys", more, len(b.Streams))
	}
}

// TestPaperKnobsDeterministic: the same seed and knobs give the same bytes;
// another seed other streams.
func TestPaperKnobsDeterministic(t *testing.T) {
	cfg := smallPaper()
	cfg.EventRecall, cfg.CoKeyRecall = 0.86, 0.96
	d1, d2, d3 := t.TempDir(), t.TempDir(), t.TempDir()
	for _, d := range []string{d1, d2} {
		if _, err := synth.Write(d, cfg); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"streams.jsonl", "atoms.jsonl", "qa.jsonl", "relations.jsonl", "MANIFEST.json"} {
		a, _ := os.ReadFile(filepath.Join(d1, name))
		b, _ := os.ReadFile(filepath.Join(d2, name))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs with the same seed (or is empty)", name)
		}
	}
	m, _ := os.ReadFile(filepath.Join(d1, "MANIFEST.json"))
	for _, field := range []string{`"atoms_per_event": 2.6`, `"keys_per_stream": 3.95`, `"length_weights"`, `"streams"`, `"event_tokens"`} {
		if !bytes.Contains(m, []byte(field)) {
			t.Errorf("MANIFEST.json does not record %s", field)
		}
	}
	cfg.Seed++
	if _, err := synth.Write(d3, cfg); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(d1, "streams.jsonl"))
	c, _ := os.ReadFile(filepath.Join(d3, "streams.jsonl"))
	if bytes.Equal(a, c) {
		t.Error("a different seed gave the same streams")
	}
}

// TestCompositionKnobsValidate: out-of-range knobs are refused with the
// knob's name.
func TestCompositionKnobsValidate(t *testing.T) {
	for name, mod := range map[string]func(*synth.Config){
		"length weights":  func(c *synth.Config) { c.LengthWeights = []float64{1, 2} },
		"atoms per event": func(c *synth.Config) { c.AtomsPerEvent = -1 },
		"atoms-over":      func(c *synth.Config) { c.AtomsOver = "tokens" },
		"keys per stream": func(c *synth.Config) { c.KeysPerStream = 99 },
		"event tokens":    func(c *synth.Config) { c.EventTokens = -5 },
		"rare oversample": func(c *synth.Config) { c.RareOversample = 11 },
		"register":        func(c *synth.Config) { c.Register = &synth.Register{} },
		"streams":         func(c *synth.Config) { c.Streams = map[string]map[esr.Phenomenon]int{"reddit": {esr.Monotonic: 3}} },
	} {
		c := smallPaper()
		mod(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error %v", name, err)
		}
	}
}

// TestRareOversampleMultipliesRareStreams: RareOversample K writes K times
// each rare stratum's streams and the monotonic streams once, and says so
// in the manifest; the first streams of each stratum are the same streams
// as without it.
func TestRareOversampleMultipliesRareStreams(t *testing.T) {
	base := smallPaper()
	over := base
	over.RareOversample = 3
	b1, err := synth.Generate(base)
	if err != nil {
		t.Fatal(err)
	}
	b3, err := synth.Generate(over)
	if err != nil {
		t.Fatal(err)
	}
	streamsBy := func(b *bench.Bench) map[esr.Phenomenon]map[string]bool {
		m := map[esr.Phenomenon]map[string]bool{}
		for _, q := range b.QAs {
			if q.Type() != esr.Snapshot || q.Phenomenon == esr.Monotonic {
				continue
			}
			if m[q.Phenomenon] == nil {
				m[q.Phenomenon] = map[string]bool{}
			}
			m[q.Phenomenon][q.StreamID] = true
		}
		return m
	}
	s1, s3 := streamsBy(b1), streamsBy(b3)
	for _, p := range []esr.Phenomenon{esr.RevertedRevert, esr.CrossSourceConflict, esr.Refinement} {
		if len(s1[p]) != 24 || len(s3[p]) != 3*len(s1[p]) {
			t.Errorf("%s: %d streams, ×3: %d; want 24 and 72", p, len(s1[p]), len(s3[p]))
		}
	}
	if d := len(b3.Streams) - len(b1.Streams); d != 2*3*24 {
		t.Errorf("×3 added %d streams, want %d (the rare strata's only)", d, 2*3*24)
	}
	dir := t.TempDir()
	m, err := synth.Write(dir, over)
	if err != nil {
		t.Fatal(err)
	}
	back, err := synth.ReadManifest(dir)
	if err != nil || back == nil || back.Config.RareOversample != 3 || m.Config.RareOversample != 3 {
		t.Errorf("manifest's rare_oversample: read %+v (%v)", back, err)
	}
	if got, err := synth.ReadManifest(t.TempDir()); got != nil || err != nil {
		t.Errorf("a folder without a manifest: %+v, %v", got, err)
	}
}

// TestParseKnobs: the CLI's knob syntax reads back what FormatStreams
// writes.
func TestParseKnobs(t *testing.T) {
	c := smallPaper()
	c.Streams["wiki"][esr.Monotonic] = 247
	m, err := synth.ParseStreams(synth.FormatStreams(c.Streams))
	if err != nil || !reflect.DeepEqual(m, c.Streams) {
		t.Errorf("streams round trip: %v %v", m, err)
	}
	if _, err := synth.ParseStreams("github/monotonic"); err == nil {
		t.Error("streams without a count accepted")
	}
	r, err := synth.ParseRegister("prose=1,quote=0.5")
	if err != nil || *r != (synth.Register{Prose: 1, Quote: 0.5}) {
		t.Errorf("register %+v %v", r, err)
	}
	if _, err := synth.ParseRegister("poetry=1"); err == nil {
		t.Error("unknown register accepted")
	}
	if w, err := synth.ParseWeights("1, 2,3"); err != nil || len(w) != 3 || w[1] != 2 {
		t.Errorf("weights %v %v", w, err)
	}
}
