package sim

import (
	_ "embed"
	"encoding/json"
)

// The identifiability results of the shipped calibration, computed once
// (each grid refits the panel several times, minutes apart from a notebook
// cell's budget) and shipped beside it; TestShippedGrids checks that they
// belong to the shipped calibration. Regenerate, after the calibration,
// with
//
//	esr calibrate --bench data/synthetic --grid sensitivity --out esr/reader/sim/calibration-sensitivity.json
//	esr calibrate --bench data/synthetic --grid identifiability --out esr/reader/sim/calibration-identifiability.json
//	esr calibrate --bench data/synthetic --grid noise --out esr/reader/sim/calibration-noise.json

//go:embed calibration-sensitivity.json
var sensitivityJSON []byte

//go:embed calibration-identifiability.json
var identifiabilityJSON []byte

//go:embed calibration-noise.json
var noiseGridJSON []byte

// ShippedSensitivity is the Jacobian of the shipped calibration
// (CalibrationSensitivity on data/synthetic).
func ShippedSensitivity() *Sensitivity {
	var s Sensitivity
	mustDecode(sensitivityJSON, "calibration-sensitivity.json", &s, &s.Kind, sensitivityKind)
	return &s
}

// ShippedIdentifiability are the fits of IdentifiabilityGrid on
// data/synthetic.
func ShippedIdentifiability() []FitSummary {
	var g GridFile
	mustDecode(identifiabilityJSON, "calibration-identifiability.json", &g, &g.Kind, GridKind)
	return g.Fits
}

// ShippedNoiseGrid are the fits of NoiseGrid on data/synthetic.
func ShippedNoiseGrid() []FitSummary {
	var g GridFile
	mustDecode(noiseGridJSON, "calibration-noise.json", &g, &g.Kind, GridKind)
	return g.Fits
}

// mustDecode decodes a shipped file into v, whose kind field (kind) must
// read want.
func mustDecode(data []byte, name string, v any, kind *string, want string) {
	if err := json.Unmarshal(data, v); err != nil {
		panic("robust: " + name + ": " + err.Error())
	}
	if *kind != want {
		panic("robust: " + name + ": kind " + *kind + ", want " + want)
	}
}

// The default panel's validation cells (Validate over the render-confound,
// strata, noise and provenance suites with the default readers on
// data/synthetic), computed once (minutes of evaluation) and shipped for
// the model card. Regenerate, after the calibration, with
//
//	esr calibrate --bench data/synthetic --validate --out esr/reader/sim/validation-default.json
//
//go:embed validation-default.json
var validationDefaultJSON []byte

// ShippedValidation is the default panel's validation: its cells and the
// misses explained.
func ShippedValidation() *ValidationFile {
	var v ValidationFile
	mustDecode(validationDefaultJSON, "validation-default.json", &v, &v.Kind, ValidationKind)
	return &v
}
