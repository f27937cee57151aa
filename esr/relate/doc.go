// Package relate holds the relation sources that label co-keyed atom pairs
// for ⊕: the rule scorer, oracle (gold) relations and the render-matched
// control's same-state source, plus the noise wrappers of the paper's §4.2
// (relation-label noise and atom dropout), seeded so every arm sees the same
// corruption.
//
// Learned is the kit's learned pair scorer: a small supervised model,
// trained on a benchmark's gold relations (relations.jsonl), that labels an
// ordered co-keyed atom pair (a earlier, b later) with one of the five
// relation classes and implements esr.Relator, so the fine ledger can use it
// in place of the rule scorer.
//
// The paper's learned scorer (Tables 3, 7 and 10; REFINES recovery +0.147
// over GraphRAG+abstain, +0.234 over the rule-scorer ledger) is a BERT pair
// classifier (bert-base-uncased fine-tuned on a 500-pair audit set with
// 5-fold stratified CV, paper App. "Reproducibility details"). This package
// does NOT reproduce that model. It is a transparent substitute: multinomial
// logistic regression (softmax regression, Bishop 2006 §4.3.4) with an L2
// penalty on hand-built features (features.go), among them the rule scorer's
// own decision one-hot encoded, fitted by L-BFGS (Nocedal & Wright 2006
// §7.2; gonum's optimize.LBFGS) on
// the mean negative log-likelihood with its analytic gradient. Every
// coefficient can be read (Learned.Weights).
//
// Evaluation is k-fold cross-validation split by stream (CrossValidate), so
// no stream contributes pairs to both the training and the test side of a
// fold; CVResult.OutOfFold is a Relator that answers each gold pair with the
// prediction of the fold model that never saw its stream.
package relate

import (
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr"
)

// Names of the relation sources, as the CLI takes them.
const (
	RuleName      = "rule"
	OracleName    = "oracle"
	sameStateName = "same-state"
)

// ByName returns the relation source with the given name. The oracle needs
// the bench's gold relations (nil is allowed: it then uses its fallback).
func ByName(name string, gold map[string]map[esr.AtomPair]esr.Relation) (esr.Relator, error) {
	switch strings.ToLower(name) {
	case RuleName:
		return Rule{}, nil
	case OracleName:
		return Oracle{Gold: gold}, nil
	case sameStateName:
		return SameState{}, nil
	}
	return nil, fmt.Errorf("unknown relation source %q (want rule, oracle or same-state)", name)
}
