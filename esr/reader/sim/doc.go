// Package sim holds the simulated readers and their calibration. Both are
// SIMULATIONS for teaching and tests, never an LLM result:
//
//   - Scripted ("scripted:PROFILE", NewScripted) is a deterministic text
//     reader with named capabilities (ScriptedCapabilities: status column,
//     visible dates, conflict policy, token budget);
//   - Sim ("sim:PROFILE", New, Parse) is the stochastic simulation: the
//     scripted reader's steps with each capability a probability drawn per
//     question (seeded per seed, profile and question; see Capabilities),
//     and the costs of a render's clutter read from its Features.
//
// The calibrated panel (Calibrated, calibrated.json) is fitted in two
// stages: its curve-shaped skills to the evidence registry's published
// per-model measurements through their measurement models (Evidence,
// Measurements, FitStage1), the rest to the paper's numbers (Calibrate);
// the package also holds the fit's identifiability (Identification,
// CalibrationSensitivity, the shipped grids), the envelope suite
// (Envelope), the anchor figures (EvidencePlot), the validation on what
// was not fitted (Validate, ExplainMisses),
// the predictive intervals and the model card (ModelCard,
// docs/reader-model.md). Readers is what reader.Parse and reader.ParseList
// take to make scripted and sim readers.
package sim
