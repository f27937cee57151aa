package lab

import (
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/synth"
)

// The benchmark generator lives under internal/synth; these names are its
// public entry points, so that notebooks and users import only public
// packages.

// GenConfig configures the synthetic benchmark generator (`esr gen`).
type GenConfig = synth.Config

// DefaultGenConfig is the generator's clean preset (PresetClean): small,
// noise-free and easy to read, for teaching examples. The bundled
// data/synthetic is bundledGenConfig.
func DefaultGenConfig() GenConfig { return synth.DefaultConfig() }

// Generate makes a synthetic benchmark in memory (deterministic for a seed).
func Generate(cfg GenConfig) (*bench.Bench, error) { return synth.Generate(cfg) }
