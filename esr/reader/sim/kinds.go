package sim

import "strings"

// Every file esr calibrate writes opens with its kind: the JSON ones with
// a "kind" first key (Calibration, Sensitivity, GridFile, ValidationFile),
// the model card with ModelCardTag. A file that does not is never one of
// them, so --out replaces none but its own outputs (a Jupyter notebook
// opens with {"cells": …}, as a validation file once did).

const (
	// sensitivityKind tags a Sensitivity (esr calibrate --grid sensitivity).
	sensitivityKind = "esrkit-sim-sensitivity/1"
	// GridKind tags a GridFile (--grid identifiability or noise).
	GridKind = "esrkit-sim-grid/1"
	// ValidationKind tags a ValidationFile (--validate).
	ValidationKind = "esrkit-sim-validation/1"
)

// GridFile is the fits of a grid (FitGrid) as esr calibrate --grid writes
// them.
type GridFile struct {
	Kind string       `json:"kind"` // GridKind
	Fits []FitSummary `json:"fits"`
}

// IsOutputKind reports whether kind tags a JSON file esr calibrate writes,
// in any version (an older file is still the command's own to replace).
func IsOutputKind(kind string) bool {
	name, _, ok := strings.Cut(kind, "/")
	if !ok {
		return false
	}
	for _, k := range []string{calibrationKind, sensitivityKind, GridKind, ValidationKind} {
		if own, _, _ := strings.Cut(k, "/"); name == own {
			return true
		}
	}
	return false
}
