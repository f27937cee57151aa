// Package relate holds the relation sources that label co-keyed atom pairs
// for ⊕: the rule scorer, oracle (gold) relations and the render-matched
// control's same-state source, plus the noise wrappers of the paper's §4.2
// (relation-label noise and atom dropout), seeded so every arm sees the same
// corruption.
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
	SameStateName = "same-state"
)

// ByName returns the relation source with the given name. The oracle needs
// the bench's gold relations (nil is allowed: it then uses its fallback).
func ByName(name string, gold map[string]map[esr.AtomPair]esr.Relation) (esr.Relator, error) {
	switch strings.ToLower(name) {
	case RuleName:
		return Rule{}, nil
	case OracleName:
		return Oracle{Gold: gold}, nil
	case SameStateName:
		return SameState{}, nil
	}
	return nil, fmt.Errorf("unknown relation source %q (want rule, oracle or same-state)", name)
}
