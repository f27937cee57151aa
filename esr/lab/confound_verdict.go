package lab

import (
	"fmt"
	"math"
	"strings"

	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader/sim"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/reader"
)

// Verdicts compare our findings with the paper's: not "the same sign", but
// which term dominates and whether each interval excludes 0, with the ratio
// of magnitudes and, where the kit knows it, the cause of a difference.
// Every word is computed from the comparisons and the registry.

// dominant names the term with the largest |Δ| among cs, with whether its
// interval excludes 0.
func dominant(cs []eval.Comparison) (eval.Comparison, bool) {
	if len(cs) == 0 {
		return eval.Comparison{}, false
	}
	best := cs[0]
	for _, c := range cs[1:] {
		if math.Abs(c.Delta) > math.Abs(best.Delta) {
			best = c
		}
	}
	return best, true
}

// dominanceVersusPaper says which of the pooled terms dominates in ours
// and in the paper (the registry's cells of table under each term's Key),
// whether each excludes 0, and whether the two agree; cause, when not
// empty, is appended as the reason for a difference. fitted says the
// readers were fitted to table's terms: the sentence then says so first,
// and a match is the fit's target met, not a finding.
func dominanceVersusPaper(cs []eval.Comparison, terms []eval.Term, table paper.Table, cause string, fitted bool) string {
	ours := pooledTerms(cs, terms...)
	big, ok := dominant(ours)
	if !ok {
		return ""
	}
	var pTerm eval.Term
	pBig, pVal, pKey := "", 0.0, paper.Key{}
	for _, c := range ours {
		k := table.Key(c.Key)
		if v, ok := paper.Lookup(k); ok && c.Key != "" && (pBig == "" || math.Abs(v) > math.Abs(pVal)) {
			pBig, pVal, pKey, pTerm = c.Label, v, k, c.Term
		}
	}
	if big.TooFew {
		return fmt.Sprintf("In ours there are %s to say which term dominates (the largest, %s, is %s).", big.TooFewReason(), big.Label, fmtSigned(big.Delta))
	}
	s := fmt.Sprintf("In ours the %s term dominates (%s %s, %s)", big.Label, fmtSigned(big.Delta), big.CI(), paper.FindingOf(big))
	if fitted {
		name := string(table)
		if table == paper.T2 {
			name = "Table 2"
		}
		s = fmt.Sprintf("With readers fitted to the paper's %s terms, in ours the %s term dominates (%s %s, %s)", name, big.Label, fmtSigned(big.Delta), big.CI(), paper.FindingOf(big))
	}
	if pBig == "" {
		return s + "; the paper reports none of these terms."
	}
	pf := "no interval printed"
	if lo, hi, ok := paper.Interval(pKey); ok {
		pf = paper.Finding(pVal, lo, hi)
	}
	s += fmt.Sprintf("; in the paper the %s term does (%s, %s)", pBig, fmtSigned(pVal), pf)
	if big.Of(pTerm) && (pVal > 0) == (big.Delta > 0) {
		if fitted {
			return s + ": the same term carries the gain, as the fit was built to make it."
		}
		return s + ": the same term carries the gain."
	}
	s += ": a different term carries the gain"
	if fitted {
		s += ", although the readers were fitted to the paper's terms"
	}
	if cause != "" {
		s += ". " + cause
	} else {
		s += "."
	}
	return s
}

// pooledOrOnly is the pooled comparison of term t, or the only family's.
func pooledOrOnly(cs []eval.Comparison, t eval.Term) (eval.Comparison, bool) {
	if c, ok := eval.FindTerm(cs, t, reader.Pooled); ok {
		return c, true
	}
	var only []eval.Comparison
	for _, c := range cs {
		if c.Of(t) {
			only = append(only, c)
		}
	}
	if len(only) == 1 {
		return only[0], true
	}
	return eval.Comparison{}, false
}

// skillMix is the mean of the reader families' skills that decide whether a
// reverted revert's gain looks like render or like mechanism: reading the
// status column (mechanism), and reading a newest-first history or sorting
// dates (what makes the ledger's layout, with or without status, readable).
// Scripted readers count 0 or 1; LLM and oracle families are not known and
// are left out (N counts the families known).
type skillMix struct {
	Status, Order, Date, FirstRow float64
	N                             int
}

// skillsOf averages the skills of the families named (as outcome rows
// carry them).
func skillsOf(families []reader.Family) skillMix {
	var m skillMix
	for _, f := range families {
		switch f.Kind {
		case reader.KindSim:
			r, err := sim.Parse(f.Name)
			if err != nil {
				continue
			}
			p := r.Profile()
			m.Status += p.StatusSkill
			m.Order += p.OrderSkill
			m.Date += p.DateSkill
			m.FirstRow += p.FirstRowBias
		case reader.KindScripted:
			r, err := sim.NewScripted(f.Name)
			if err != nil {
				continue
			}
			caps := r.Capabilities()
			m.Status += b2f(caps.UsesStatus)
			m.Date += b2f(caps.SortsByTime)
			m.FirstRow += b2f(caps.OnConflict == sim.ConflictFirst)
		default:
			continue
		}
		m.N++
	}
	if m.N > 0 {
		n := float64(m.N)
		m.Status, m.Order, m.Date, m.FirstRow = m.Status/n, m.Order/n, m.Date/n, m.FirstRow/n
	}
	return m
}

// decompositionCause names what makes our decomposition differ from the
// paper's, from what the kit knows: the readers' skills (a status-reading
// panel credits the mechanism; a panel that reads order or sorts dates
// reads the dated d-blind control and render-only alike) and the bench.
func decompositionCause(families []reader.Family, benchName string) string {
	m := skillsOf(families)
	if m.N == 0 {
		return "The readers' skills are not known to the kit (LLM families), so it cannot name the cause; the benchmark (" + benchName + ") differs from the paper's ESR-Bench."
	}
	var parts []string
	if m.Status >= 0.5 {
		parts = append(parts, fmt.Sprintf("these readers mostly read the status column (mean status skill %.2f over %d families), so the ledger's status cells, the mechanism, settle reverted reverts that the neutral control leaves in conflict", m.Status, m.N))
	} else {
		parts = append(parts, fmt.Sprintf("these readers mostly ignore the status column (mean status skill %.2f over %d families)", m.Status, m.N))
	}
	read := math.Max(m.Order, m.FirstRow)
	switch {
	case m.Date >= 0.5:
		parts = append(parts, fmt.Sprintf("they sort visible dates (mean date skill %.2f), which the kit's dated d-blind control also shows, so the layout alone gains them little", m.Date))
	case read < 0.5:
		parts = append(parts, fmt.Sprintf("they seldom read the ledger's newest-first order (mean order skill %.2f, first-row %.2f), which is what a render term needs", m.Order, m.FirstRow))
	default:
		parts = append(parts, fmt.Sprintf("they read the ledger's newest-first order (mean order skill %.2f, first-row %.2f), which the shuffled d-blind control lacks", m.Order, m.FirstRow))
	}
	return "Cause, from the readers' skills: " + strings.Join(parts, "; ") + ". The benchmark (" + benchName + ") also differs from the paper's ESR-Bench."
}

// RenderOrMechanism answers notebook 41's question from a decomposition
// (renderMatchedTerms's rows): which term carries the reverted-revert gain
// pooled over the families, whether each excludes 0, how many families
// agree, and how that compares with the paper's Table 2, with the cause
// the kit can name (decompositionCause) when they differ.
func RenderOrMechanism(cs []eval.Comparison, rows []eval.Outcome, benchName string) string {
	r, ok1 := pooledOrOnly(cs, eval.TermRender)
	m, ok2 := pooledOrOnly(cs, eval.TermFineMechanism)
	if !ok1 || !ok2 {
		return ""
	}
	larger, other := "mechanism", "render"
	if math.Abs(r.Delta) >= math.Abs(m.Delta) {
		larger, other = "render", "mechanism"
	}
	if r.TooFew || m.TooFew {
		return fmt.Sprintf("Pooled over the families, the render term is %s and the fine-d mechanism term %s over %d pairs: %s to say which carries the gain.",
			fmtSigned(r.Delta), fmtSigned(m.Delta), r.N, eval.FirstTooFew(r, m))
	}
	s := fmt.Sprintf("Pooled over the families, the render term is %s %s (%s) and the fine-d mechanism term %s %s (%s): the %s term is the larger.",
		fmtSigned(r.Delta), r.CI(), paper.FindingOf(r), fmtSigned(m.Delta), m.CI(), paper.FindingOf(m), larger)
	fams := eval.Distinct(rows, func(o *eval.Outcome) reader.Family { return o.Family })
	nLarger := 0
	var counted int
	for _, f := range fams {
		fr, ok1 := eval.FindTerm(cs, eval.TermRender, f)
		fm, ok2 := eval.FindTerm(cs, eval.TermFineMechanism, f)
		if !ok1 || !ok2 {
			continue
		}
		counted++
		if (math.Abs(fr.Delta) >= math.Abs(fm.Delta)) == (larger == "render") {
			nLarger++
		}
	}
	switch {
	case counted > 1 && nLarger == counted:
		s += fmt.Sprintf(" In every family (%d of %d) the %s term is the larger too.", nLarger, counted, larger)
	case counted > 1:
		s += fmt.Sprintf(" In %d of %d families the %s term is the larger too; in the others the %s term is.", nLarger, counted, larger, other)
	}
	fitted := fittedPanel(fams, benchName)
	s += " " + dominanceVersusPaper(cs, []eval.Term{eval.TermRender, eval.TermFineMechanism}, paper.T2, decompositionCause(fams, benchName), fitted)
	if fitted {
		s += " " + fittedNote(benchName)
	}
	return s
}

// fittedNote says that the calibrated panel was fitted to the paper's
// Table 2 terms on benchName, so that closeness to them is by construction,
// and where the tables not fitted are checked. Only Table 2's pooled terms
// ("t2") are calibration targets among the tables the sections compare.
func fittedNote(benchName string) string {
	return fmt.Sprintf("These readers were fitted to the paper's Table 2 terms on %s (the calibration's targets), so closeness to the paper's Table 2 here is by construction, not a finding; the [model card](../docs/reader-model.md) checks them on the tables not fitted.", benchName)
}
