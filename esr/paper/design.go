package paper

import (
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
)

// This file is the paper's design: which memories each of its tables
// compares, and at which levels. The sections and the calibration of the
// default readers read them from here, so no section asks another for them.

// RenderConfoundMemories are the classes §4.1 (Tables 2, 3 and 11) compares.
var RenderConfoundMemories = append(memory.Specs(memory.GraphRAGAbstain, memory.RenderOnly, memory.FineLedger, memory.CoarseRetain), eval.CoarseControl)

// StrataMemories are the classes of the paper's Table 5 (per-stratum
// accuracy), also Tables 12 and 13.
var StrataMemories = memory.Specs(memory.FineLedger, memory.GraphRAGAbstain, memory.CoarseRetain)

// RetentionClasses are Figure 3's classes in the paper's order.
var RetentionClasses = memory.Specs(memory.CoarseDiscard, memory.GraphRAGAbstain, memory.CoarseRetain, memory.FineLedger)

// RetentionStaircase are the memories a provenance question is worked
// through (§4.3): discarding, retaining without types, the typed ledger.
var RetentionStaircase = memory.Specs(memory.CoarseDiscard, memory.CoarseRetain, memory.FineLedger)

// DeployedBaseline is the d-blind baseline the deployed classes are
// decomposed against (the paper's GraphRAG+abstain).
var DeployedBaseline = memory.SpecOf(memory.GraphRAGAbstain)

// DeployedOptions are the memory options the deployed suite builds under
// (the seed of the paraphrase draws is their RenderSeed unless a class name
// sets seed=).
var DeployedOptions = memory.Options{}

// NoiseLevels are the paper's sweep levels p = 0, 0.1, …, 0.5 (§4.2).
var NoiseLevels = []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5}
