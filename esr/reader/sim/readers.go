package sim

import (
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr/reader"
)

// Readers makes the scripted and sim readers a spec names: pass it to
// reader.Parse, reader.ParseList, reader.New and reader.Catalog (reader
// cannot import this package, which builds on it).
var Readers reader.Simulations = simulations{}

type simulations struct{}

func (simulations) Reader(spec reader.Spec) (reader.Reader, error) {
	switch spec.Kind {
	case reader.KindScripted:
		if spec.Name == "" {
			return nil, fmt.Errorf("reader scripted needs a profile: scripted:PROFILE (%s)", profileNames())
		}
		return NewScripted(spec.Name)
	case reader.KindSim:
		if spec.Name == "" {
			return nil, fmt.Errorf("reader sim needs a profile: sim:PROFILE[@seed=S][@CAP=V] (%s)", simProfileNames())
		}
		return Parse(spec.Name)
	}
	return nil, fmt.Errorf("reader %s is not simulated", spec)
}

func (simulations) All(kind reader.Kind) ([]reader.Reader, error) {
	var out []reader.Reader
	switch kind {
	case reader.KindScripted:
		for _, p := range profiles {
			r, err := NewScripted(p.Name)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	case reader.KindSim:
		for _, p := range simProfiles {
			r, err := New(p, 0)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	default:
		return nil, fmt.Errorf("reader %s is not simulated", kind)
	}
	return out, nil
}

func profileNames() string {
	names := make([]string, len(profiles))
	for i, p := range profiles {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// calibratedInfo describes a calibrated sim reader: its profile and how
// well it fits the paper's numbers it was fitted to.
type calibratedInfo struct {
	Profile Profile             `json:"profile"`
	Family  string              `json:"family"`
	RMSE    float64             `json:"rmse"`
	Targets []CalibrationTarget `json:"targets"`
	Bench   string              `json:"bench"`
	Reading string              `json:"table17_reading"`
}

func (simulations) Catalog() []reader.Info {
	var out []reader.Info
	for _, p := range profiles {
		out = append(out, reader.Info{Name: reader.Spec{Kind: reader.KindScripted, Name: p.Name}, Kind: "scripted", Simulated: true,
			Summary: "simulation: " + p.Summary, Capabilities: p.Capabilities})
	}
	for _, p := range simProfiles {
		out = append(out, reader.Info{Name: reader.Spec{Kind: reader.KindSim, Name: p.Name}, Kind: "sim", Simulated: true,
			Summary: "stochastic simulation (capabilities drawn per question, seeded): " + p.Summary, Capabilities: p})
	}
	cal := Calibrated()
	for _, f := range cal.Families {
		out = append(out, reader.Info{Name: reader.Spec{Kind: reader.KindSim, Name: f.Profile.Name}, Kind: "sim-calibrated", Simulated: true,
			Summary:      fmt.Sprintf("stochastic simulation, the reader model over render features, fitted to the paper's %s numbers (Tables 16–17) and the panel's Table 2 on %s; fit RMSE %.3f over %d targets", f.Family, cal.Bench, f.RMSE, len(f.Targets)),
			Capabilities: calibratedInfo{Profile: f.Profile, Family: f.Family, RMSE: f.RMSE, Targets: f.Targets, Bench: cal.Bench, Reading: cal.Reading}})
	}
	return out
}
