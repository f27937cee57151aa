package sim

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"

	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/regfile"
)

// Calibrated simulated readers: one sim profile per paper family, fitted
// jointly to the paper's published per-family numbers (Tables 16 and 17,
// in their auxiliary regime) and Table 2's pooled terms (primary regime)
// on the bundled synthetic bench by sim.Calibrate (`esr calibrate`).
// They are SIMULATIONS calibrated to published numbers, not the LLMs: every
// table they feed says so, and the fit error per target is kept with them.

// CalibrationTarget is one fitted number: the paper's value and the fitted
// profile's expected value on the bench it was fitted on.
type CalibrationTarget struct {
	Name  string  `json:"name"`
	Paper float64 `json:"paper"`
	Fit   float64 `json:"fit"`
}

// Error is Fit − Paper.
func (t CalibrationTarget) Error() float64 { return t.Fit - t.Paper }

// FittedFamily is the profile fitted to one paper family.
type FittedFamily struct {
	Family  string              `json:"family"`
	Profile Profile             `json:"profile"`
	Targets []CalibrationTarget `json:"targets"`
	// RMSE is the root mean squared error over the targets.
	RMSE float64 `json:"rmse"`
}

// Calibration is a set of fitted profiles with what they were fitted on:
// the file `esr calibrate` writes.
type Calibration struct {
	Kind  string `json:"kind"`
	Bench string `json:"bench"`
	// BenchHash identifies the bench's files (bench.Bench.Hash).
	BenchHash string `json:"bench_hash"`
	Reading   string `json:"table17_reading"`
	// AuxNoise is the relation-label noise that stands for the paper's
	// auxiliary high-noise split in Tables 16 and 17's targets.
	AuxNoise float64        `json:"aux_relation_noise"`
	Items    map[string]int `json:"items"`
	Method   string         `json:"method"`
	// Parameters and Targets count what was fitted to what.
	Parameters int `json:"parameters"`
	Targets    int `json:"targets"`
	// Dropped names the target groups left out of the fit ("t2": Table 2's
	// pooled terms), for the identifiability lesson; empty for the default.
	Dropped []string `json:"dropped,omitempty"`
	// Panel are the targets of the whole panel: Table 2's pooled terms
	// (their fit is reported even when dropped).
	Panel    []CalibrationTarget `json:"panel_targets"`
	Families []FittedFamily      `json:"families"`
	// SingularValues are those of the weighted targets' Jacobian in the
	// fitted parameters (logit/log space) at the fit, largest first; Rank
	// counts those above rankTolerance × the largest.
	SingularValues []float64 `json:"singular_values"`
	Rank           int       `json:"rank"`
	// Stage1 is the frozen stage-1 fit: each family's curve-shaped skills
	// fitted to the evidence registry (FitStage1), the registry points
	// beside the model.
	Stage1 []Stage1Family `json:"stage1"`
	// Identification is how each stage-2 parameter is identified at the
	// fit: each target's share of it, and the prior's, with the prior
	// weight the fit used.
	Identification []ParamShare `json:"identification"`
}

// rankTolerance is the relative size under which a singular value of the
// calibration's Jacobian counts as zero (a direction no target moves).
const rankTolerance = 1e-3

// calibrationKind marks a calibration file; version 3 is the two-stage
// fit (curve-shaped skills fitted to the evidence registry, the rest to
// the paper) of the reader model that reads raw text by key and sees
// conflicts. Version 1 files were fitted to Tables 16–17 alone with an
// order skill that read any sorted list, version 2 ones with shared costs
// scaled per family and every event line a row of the asked key: refit
// them.
const calibrationKind = "esrkit-sim-calibration/3"

// FitName is the profile name of the reader fitted to a paper family.
func FitName(family string) string { return reader.FitPrefix + strings.ToLower(family) }

// JSON is the calibration as indented JSON.
func (c *Calibration) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// ParseCalibration reads a calibration file's content; name is for errors.
// The file holds one object; each profile names every skill that its JSON
// always writes (a skill left out is an error, not a 0), and no two
// profiles share a name.
func ParseCalibration(data []byte, name string) (*Calibration, error) {
	var c Calibration
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: offset %d: more data after the calibration object", name, dec.InputOffset())
	}
	var raw struct {
		Families []struct {
			Profile map[string]json.RawMessage `json:"profile"`
		} `json:"families"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	for i, f := range raw.Families {
		for _, k := range requiredProfileFields {
			if _, ok := f.Profile[k]; !ok {
				return nil, fmt.Errorf("%s: field \"families[%d].profile.%s\": missing", name, i, k)
			}
		}
	}
	names := map[string]int{}
	for i, f := range c.Families {
		if j, dup := names[f.Profile.Name]; dup {
			return nil, fmt.Errorf("%s: field \"families[%d].profile.name\": %q is also the name of families[%d]", name, i, f.Profile.Name, j)
		}
		names[f.Profile.Name] = i
	}
	if c.Kind != calibrationKind {
		switch c.Kind {
		case "esrkit-sim-calibration/1":
			return nil, fmt.Errorf("%s: field \"kind\": %q was written by an older esrkit (skills over class layouts, fitted to Tables 16–17 alone); refit it with `esr calibrate`", name, c.Kind)
		case "esrkit-sim-calibration/2":
			return nil, fmt.Errorf("%s: field \"kind\": %q was written by an older esrkit (one fit to the paper, costs shared and scaled per family, every event line a row of the asked key); refit it with `esr calibrate`", name, c.Kind)
		}
		return nil, fmt.Errorf("%s: field \"kind\": %q is not %q", name, c.Kind, calibrationKind)
	}
	if len(c.Families) == 0 {
		return nil, fmt.Errorf("%s: field \"families\": no fitted family", name)
	}
	for i, f := range c.Families {
		if f.Profile.Name == "" {
			return nil, fmt.Errorf("%s: field \"families[%d].profile.name\": empty", name, i)
		}
		if err := f.Profile.Validate(); err != nil {
			return nil, fmt.Errorf("%s: field \"families[%d].profile\": %w", name, i, err)
		}
		if math.IsNaN(f.RMSE) {
			return nil, fmt.Errorf("%s: field \"families[%d].rmse\": NaN", name, i)
		}
	}
	return &c, nil
}

// requiredProfileFields are Profile's JSON keys that are always written
// (no omitempty): a calibration file must give each.
var requiredProfileFields = func() []string {
	var out []string
	t := reflect.TypeFor[Profile]()
	for i := range t.NumField() {
		tag := t.Field(i).Tag.Get("json")
		if key, opts, _ := strings.Cut(tag, ","); key != "" && key != "-" && !strings.Contains(opts, "omitempty") {
			out = append(out, key)
		}
	}
	return out
}()

// maxCalibrationBytes bounds a calibration file (the shipped one is a few
// KB); it must be a regular file: a FIFO or a device is an error, not a
// read that waits or never ends.
const maxCalibrationBytes = 16 << 20

// LoadCalibration reads a calibration file (at most 16 MiB).
func LoadCalibration(path string) (*Calibration, error) {
	data, err := regfile.ReadFile(path, maxCalibrationBytes)
	if errors.Is(err, regfile.ErrTooLarge) {
		return nil, fmt.Errorf("%w: not a calibration file", err)
	}
	if err != nil {
		return nil, err
	}
	return ParseCalibration(data, path)
}

// Family returns the fitted family whose profile is called name.
func (c *Calibration) Family(name string) (FittedFamily, bool) {
	for _, f := range c.Families {
		if f.Profile.Name == name {
			return f, true
		}
	}
	return FittedFamily{}, false
}

// calibratedJSON is the calibration shipped with the kit: the five paper
// families fitted on data/synthetic (regenerate with `esr calibrate --bench
// data/synthetic --targets paper --out esr/reader/sim/calibrated.json`;
// experiment's TestShippedCalibration checks it against the bench).
//
//go:embed calibrated.json
var calibratedJSON []byte

// Calibrated is the calibration shipped with the kit.
func Calibrated() *Calibration {
	c, err := ParseCalibration(calibratedJSON, "esr/reader/sim/calibrated.json")
	if err != nil {
		panic("reader: shipped calibration: " + err.Error())
	}
	return c
}

// CalibratedProfiles are the shipped calibrated profiles, in the paper's
// family order.
func CalibratedProfiles() []Profile {
	c := Calibrated()
	out := make([]Profile, len(c.Families))
	for i, f := range c.Families {
		out[i] = f.Profile
	}
	return out
}

// CalibratedPanel is one sim reader per shipped calibrated profile (draw
// seed 0): the notebooks' default readers.
func CalibratedPanel() []reader.Reader {
	ps := CalibratedProfiles()
	out := make([]reader.Reader, len(ps))
	for i, p := range ps {
		r, err := New(p, 0)
		if err != nil {
			panic("reader: shipped calibration: " + err.Error())
		}
		out[i] = r
	}
	return out
}

// loadFileProfile resolves "@FILE#NAME": the profile NAME of the
// calibration file FILE.
func loadFileProfile(ref string) (Profile, error) {
	path, name, ok := strings.Cut(strings.TrimPrefix(ref, "@"), "#")
	if !ok || path == "" || name == "" {
		return Profile{}, fmt.Errorf("sim profile %q: want @FILE#NAME", ref)
	}
	c, err := LoadCalibration(path)
	if err != nil {
		return Profile{}, fmt.Errorf("sim profile %q: %w", ref, err)
	}
	f, ok := c.Family(name)
	if !ok {
		names := make([]string, len(c.Families))
		for i, f := range c.Families {
			names[i] = f.Profile.Name
		}
		return Profile{}, fmt.Errorf("sim profile %q: %s has no profile %q (it has %s)", ref, path, name, strings.Join(names, ", "))
	}
	return f.Profile, nil
}
