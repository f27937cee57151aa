package paper

import (
	"fmt"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/internal/report"
)

// Every registry key prints as "TABLE/TERM" (with "-lo"/"-hi" for a
// bound), one printed form per key: how an error names it.
func TestKeysPrintDistinctly(t *testing.T) {
	seen := map[string]bool{}
	for k := range numbers {
		s := k.String()
		if seen[s] {
			t.Errorf("two keys print as %q", s)
		}
		seen[s] = true
	}
}

// A key the registry does not hold fails loudly: Number (and the printing
// methods on Key) panic naming it, where a table would have printed "—".
func TestUnknownKeyPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"Number": func() { Number(T2.Key("no-such-term")) },
		"Signed": func() { T2.Key("no-such-term").Signed() },
		"Prop":   func() { F3.Key("no-such-class").Prop() },
		"Count":  func() { T1.Key("no-such-count").Count() },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "no-such") {
					t.Errorf("%s of an unknown key: recovered %v, want a panic naming the key", name, r)
				}
			}()
			f()
		}()
	}
}

// The printing methods quote the registry's numbers as prose does.
func TestKeyPrintsItsNumber(t *testing.T) {
	if got, want := T2Render.Signed(), report.Signed(numbers[T2Render]); got != want || !strings.HasPrefix(got, "+") {
		t.Errorf("T2Render.Signed() = %q, want %q", got, want)
	}
	if got := HumanKappa.Prop(); got != fmt.Sprintf("%.3f", numbers[HumanKappa]) {
		t.Errorf("HumanKappa.Prop() = %q", got)
	}
	if got := T1QAs.Count(); !strings.Contains(got, ",") {
		t.Errorf("T1QAs.Count() = %q, want thousands separated", got)
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
