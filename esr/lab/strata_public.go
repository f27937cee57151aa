package lab

import (
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/dyknow"
	"github.com/esrkit/esrkit/internal/synth"
)

// The plumbing of the kit lives under internal/; these names are its small
// public entry points, so that notebooks and users import only the public
// packages (esr, bench, memory, relate, reader, judge, experiment, theory,
// stats, nbhelp).

// GenConfig configures the synthetic benchmark generator (`esr gen`).
type GenConfig = synth.Config

// DefaultGenConfig is the generator's clean preset (PresetClean): small,
// noise-free and easy to read, for teaching examples. The bundled
// data/synthetic is bundledGenConfig.
func DefaultGenConfig() GenConfig { return synth.DefaultConfig() }

// Generate makes a synthetic benchmark in memory (deterministic for a seed).
func Generate(cfg GenConfig) (*bench.Bench, error) { return synth.Generate(cfg) }

// DyKnowOutcome is one of DyKnow's released LLM RAG answers with its label.
type DyKnowOutcome = dyknow.Outcome

// LoadDyKnowOutcomes reads the real LLM outcomes bundled with the DyKnow
// conversion (data/dyknow/rag_outcomes.jsonl).
func LoadDyKnowOutcomes(dir string) ([]DyKnowOutcome, error) { return dyknow.LoadOutcomes(dir) }
