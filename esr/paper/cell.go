package paper

import (
	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/internal/report"
)

// Table is one of the paper's tables (or a column or block of one) that the
// registry holds numbers from.
type Table string

// The tables the registry holds. A sub-table (T2MiniMax, T11Pure,
// F3Deployed, TypeRefines) prints as its parent's name, a slash and its own.
const (
	T1              Table = "t1"          // Table 1: the main set's composition
	T2              Table = "t2"          // Table 2: the render-matched decomposition (DeepSeek-V3 judge)
	T2MiniMax       Table = "t2/minimax"  // Table 2's MiniMax-M2.5 judge column
	RR              Table = "rr"          // §4.1 reverted-revert headline
	tab3            Table = "t3"          // Table 3: mechanism residual by stratum
	tab4            Table = "t4"          // Table 4: the relation audit
	tab5            Table = "t5"          // Table 5: accuracy by stratum
	tab7            Table = "t7"          // Table 7: refines recovery by scorer
	tab9            Table = "t9"          // Table 9: cross-source conflict by prompt
	tab11           Table = "t11"         // Table 11: the monotonic split
	T11Pure         Table = "t11/pure"    // Table 11's pure-monotonic half
	tab17           Table = "t17"         // Table 17: Δ by render format
	F3              Table = "f3"          // Figure 3: provenance accuracy
	F3Deployed      Table = "f3/deployed" // Figure 3 under the deployed render
	tabRelationType Table = "type"        // §4.3 relation-type query
	TypeRefines     Table = "type/refines"
	TempLAMA        Table = "templama" // Appendix D on TempLAMA
	tabFano         Table = "fano"     // Appendix A: the scorer's information floor
	tabAppF         Table = "appF"     // Appendix F: extraction coverage
	tabHuman        Table = "human"    // Appendix F: human validation of the labels
	Aux             Table = "aux"      // App. G: the auxiliary high-noise split
	tabShape        Table = "shape"    // App. F: extractor output shape
)

// Term names a cell within its table. It is eval's PaperTerm, so a
// comparison carries its registry term (eval.Comparison.Key) as a value.
type Term = eval.PaperTerm

// Bound says which number of a cell a Key names: its point estimate, or
// the lower or upper end of its published 95% interval.
type Bound uint8

// The bounds of a cell.
const (
	pointBound Bound = iota
	lowerBound
	upperBound
)

// Key names one published number: the table, the term within it, and
// which bound (the point estimate unless Lo or Hi).
type Key struct {
	Table Table
	Term  Term
	Bound Bound
}

// Key is the key of term in t.
func (t Table) Key(term Term) Key { return Key{Table: t, Term: term} }

// String is the printed form "TABLE/TERM", with "-lo" or "-hi" for a bound:
// how an error or a note names the key.
func (k Key) String() string {
	s := string(k.Table) + "/" + string(k.Term)
	switch k.Bound {
	case lowerBound:
		s += "-lo"
	case upperBound:
		s += "-hi"
	}
	return s
}

// Lo is the key of the lower bound of k's published 95% interval.
func (k Key) Lo() Key { k.Bound = lowerBound; return k }

// Hi is the key of the upper bound of k's published 95% interval.
func (k Key) Hi() Key { k.Bound = upperBound; return k }

// T3Cell is Table 3's mechanism residual on stratum p.
func T3Cell(p esr.Phenomenon) Key { return tab3.Key(Term(p)) }

// T5Cell is Table 5's accuracy of memory m on stratum p.
func T5Cell(p esr.Phenomenon, m memory.Spec) Key {
	return tab5.Key(Term(string(p) + "/" + m.String()))
}

// ClassCell is class m's accuracy in table t (F3, F3Deployed, TempLAMA,
// TypeRefines).
func ClassCell(t Table, m memory.Spec) Key { return t.Key(Term(m.String())) }

// T17Cell is Table 17's Δ for family under ledger format (memory's format
// names: "verbose", "minimal", "json", "compact").
func T17Cell(family, format string) Key { return tab17.Key(Term(family + "/" + format)) }

// Stratum terms of Table 1 and the auxiliary split.
var stratumTerms = map[esr.Phenomenon]Term{esr.RevertedRevert: "RR", esr.CrossSourceConflict: "CSC", esr.Refinement: "refines", esr.Monotonic: "monotonic"}

// StratumCount is the number of questions on stratum p in table t (T1 or
// Aux).
func StratumCount(t Table, p esr.Phenomenon) Key { return t.Key(stratumTerms[p]) }

// Terms of Figure 3 and the relation-type query that lab's comparisons
// carry (eval.Term.Key).
const (
	FineDiscard   Term = "fine-discard"
	RetainDiscard Term = "retain-discard"
	FineRetain    Term = "fine-retain"
	FineCoarse    Term = "fine-coarse"
	FineResidual  Term = "fine-residual"
)

// Named cells read outside the registry.
var (
	T1QAs, T1GitHub, T1Wiki, T1MultiRepo, T1DyKnow = T1.Key("QAs"), T1.Key("GitHub"), T1.Key("Wiki"), T1.Key("MultiRepo"), T1.Key("DyKnow")

	T2Render, T2FineMechanism, T2CoarseMechanism = T2.Key(eval.KeyRender), T2.Key(eval.KeyFineMechanism), T2.Key(eval.KeyCoarseMechanism)

	T4N                                                    = tab4.Key("N")
	T4RuleAcc, T4RuleMacroF1, T4RuleAlphaFC, T4RuleAlphaSM = tab4.Key("rule/acc"), tab4.Key("rule/macro-F1"), tab4.Key("rule/alphaFC"), tab4.Key("rule/alphaSM")
	T4RuleRefineRecall                                     = tab4.Key("rule/refine-recall")
	T4DeepSeekAcc, T4DeepSeekMacroF1                       = tab4.Key("deepseek/acc"), tab4.Key("deepseek/macro-F1")
	T4DeepSeekRefineRecall                                 = tab4.Key("deepseek/refine-recall")

	T7Rule, T7Learned = tab7.Key("rule"), tab7.Key("learned")

	T9Standard, T9Strict = tab9.Key("graphrag-abstain/standard"), tab9.Key("graphrag-abstain/strict")

	T11WithDeprecated = tab11.Key("with-deprecated")

	F3N = F3.Key("n")

	TypeN, TypeFineRetain = tabRelationType.Key("n"), tabRelationType.Key(FineRetain)

	TempLAMARetainDiscard, TempLAMADyKnowN = TempLAMA.Key(RetainDiscard), TempLAMA.Key("dyknow-n")

	FanoH, FanoI, FanoFloor = tabFano.Key("H"), tabFano.Key("I"), tabFano.Key("floor")

	AppFEventRecall, AppFCoKeyRecall = tabAppF.Key("event-recall"), tabAppF.Key("cokey-recall")

	HumanKappa, HumanN = tabHuman.Key("kappa"), tabHuman.Key("N")

	ShapeAtomsPerEvent = tabShape.Key("atoms-per-event")
	// ShapeKeysPerStream holds only an interval (Lo, Hi).
	ShapeKeysPerStream = tabShape.Key("keys-per-stream")
)

// Lookup returns the paper's number for k, and whether it has one.
func Lookup(k Key) (float64, bool) {
	v, ok := numbers[k]
	return v, ok
}

// Number returns the paper's number for k. A key the registry does not
// hold is a bug in the caller (a term or a bound the paper does not
// publish): Number panics naming it, rather than print a number it made
// up. Use Lookup for a cell the paper may lack.
func Number(k Key) float64 {
	v, ok := numbers[k]
	if !ok {
		panic("paper: the registry holds no number " + k.String())
	}
	return v
}

// Signed is the paper's number for k printed signed ("+0.159"), as prose
// quotes a difference; it panics for a key the registry does not hold
// (Number).
func (k Key) Signed() string { return report.Signed(Number(k)) }

// Prop is the paper's number for k printed as a proportion ("0.459"), as
// prose quotes an accuracy or a rate; it panics for a key the registry does
// not hold (Number).
func (k Key) Prop() string { return eval.PropCell(Number(k)).Text }

// Count is the paper's number for k printed as a count with thousands
// separators ("2,907"); it panics for a key the registry does not hold
// (Number).
func (k Key) Count() string { return report.Thousands(int(Number(k))) }

// Interval returns the paper's published 95% interval for k, and whether it
// gives one.
func Interval(k Key) (lo, hi float64, ok bool) {
	lo, ok1 := Lookup(k.Lo())
	hi, ok2 := Lookup(k.Hi())
	return lo, hi, ok1 && ok2
}

// WithInterval is the paper's number for k signed, with its published 95%
// interval and whether that interval includes 0 ("+0.025 [-0.005,
// +0.057], its interval includes 0"), or the number alone when the paper
// gives no interval. It panics for a key the registry does not hold
// (Number).
func (k Key) WithInterval() string {
	v := k.Signed()
	lo, hi, ok := Interval(k)
	if !ok {
		return v
	}
	what := "its interval includes 0"
	if lo > 0 || hi < 0 {
		what = "its interval excludes 0"
	}
	return v + " " + report.Interval(lo, hi) + ", " + what
}

// Cell formats the paper's number for k (signed, or as a proportion), or
// "—" when the paper has none.
//
// It is a table cell (a difference or a proportion, or the words "—"); its
// text is what prose quotes.
func Cell(k Key, signed bool) eval.Cell {
	v, ok := Lookup(k)
	if !ok {
		return eval.TextCell("—")
	}
	if signed {
		return eval.SignedCell(v)
	}
	return eval.PropCell(v)
}

// PValues are the paper's Table 20 permutation p-values per family
// (auxiliary high-noise split).
var PValues = Table20
