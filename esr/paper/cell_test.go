package paper

import (
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/memory"
)

// Every registry key prints as "TABLE/TERM" (with "-lo"/"-hi" for a
// bound), and ParseKey reads that printed form back to the same key, so
// prose that names a number by its printed key finds it.
func TestKeysPrintAndParseBack(t *testing.T) {
	seen := map[string]bool{}
	for k := range numbers {
		s := k.String()
		if seen[s] {
			t.Errorf("two keys print as %q", s)
		}
		seen[s] = true
		got, ok := ParseKey(s)
		if !ok || got != k {
			t.Errorf("ParseKey(%q) = %#v, %v; want %#v", s, got, ok, k)
		}
	}
	if _, ok := ParseKey("nosuchtable/x"); ok {
		t.Error("ParseKey accepted an unknown table")
	}
}

// The constructors name the registry's cells: each one used outside the
// package is held.
func TestNamedCellsAreHeld(t *testing.T) {
	keys := []Key{T1QAs, T1GitHub, T1Wiki, T1MultiRepo, T1DyKnow, T2Render, T2FineMechanism, T2CoarseMechanism,
		T4N, T4RuleAcc, T4RuleMacroF1, T4RuleAlphaFC, T4RuleAlphaSM, T4RuleRefineRecall, T4DeepSeekAcc, T4DeepSeekMacroF1, T4DeepSeekRefineRecall,
		T7Rule, T7Learned, T9Standard, T9Strict, T11WithDeprecated, T11Pure.Key(FineResidual), F3N, TypeN, TypeFineRetain,
		TempLAMARetainDiscard, TempLAMADyKnowN, FanoH, FanoI, FanoFloor, AppFEventRecall, AppFCoKeyRecall, HumanKappa, HumanN,
		ShapeAtomsPerEvent, ShapeKeysPerStream.Lo(), ShapeKeysPerStream.Hi(), F3Deployed.Key(FineCoarse),
		T17Cell("Qwen3-8B", "verbose"), ClassCell(TypeRefines, memory.SpecOf(memory.FineLedger))}
	for _, p := range esr.Phenomena {
		keys = append(keys, T3Cell(p), T5Cell(p, memory.SpecOf(memory.FineLedger)), StratumCount(T1, p), StratumCount(Aux, p))
	}
	for _, c := range RetentionClasses {
		keys = append(keys, ClassCell(F3, c), ClassCell(TempLAMA, c))
	}
	for _, k := range keys {
		if _, ok := Lookup(k); !ok {
			t.Errorf("%s is not in the registry", k)
		}
	}
}
