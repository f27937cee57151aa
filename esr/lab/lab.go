package lab

import (
	"context"
	"sort"

	"gonum.org/v1/plot"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
)

// AllSuites are the experiments of `esr run` and the notebooks, one per
// paper section, in one explicit list.
var AllSuites = []Suite{renderConfoundSuite, provenanceSuite, noiseSuite, strataSuite, checksSuite,
	externalSuite, boundarySuite, formatsSuite, deployedSuite, facetsSuite}

// renderConfoundSuite is the "render-confound" experiment of `esr run` and the notebooks.
var renderConfoundSuite = Suite{Name: SuiteRenderConfound, Doc: "§4.1: headline, Table 2, Table 3, Table 11",
	Evaluate: func(ctx context.Context, s Setup) ([]eval.Outcome, error) {
		return s.Evaluate(ctx, paper.RenderConfoundMemories, []esr.QueryType{esr.Snapshot}, s.Options, eval.Variant{})
	},
	Report: renderConfoundReport}

// provenanceSuite is the "provenance" experiment of `esr run` and the notebooks.
var provenanceSuite = Suite{Name: SuiteProvenance, Doc: "§4.3: Figure 3, the deployed render, the relation-type query",
	Evaluate: provenanceRows, Report: provenanceReport}

// SuiteNames lists AllSuites's names sorted, as a usage line prints them.
func SuiteNames() []string {
	var out []string
	for _, su := range AllSuites {
		out = append(out, string(su.Name))
	}
	sort.Strings(out)
	return out
}

// renderConfoundReport is §4.1: the headline on reverted-revert, Table 2
// (the render-matched decomposition), Table 3 (the residual by stratum) and
// Table 11 (the monotonic split), with the decomposition figure.
func renderConfoundReport(rows []eval.Outcome, s Setup) (*Result, error) {
	res := &Result{Name: string(SuiteRenderConfound), Rows: rows, Figures: map[FigureID]*plot.Plot{}}
	rr := eval.RevertedRevertSnapshot
	head, headTerms, err := headlineTable(rows, rr, s.Stats)
	if err != nil {
		return nil, err
	}
	cs, err := renderMatchedTerms(rows, rr, s.Stats)
	if err != nil {
		return nil, err
	}
	res.Tables = append(res.Tables, head, buildTable2(cs, "reverted-revert (snapshot)", rows), table2ByFamily(cs, "reverted-revert (snapshot)", rows))
	res.Comparisons = map[TableID][]eval.Comparison{HeadlineRevertedRevert: headTerms, Table2Decomposition: cs}
	t3, c3, err := buildTable3(rows, s.Stats)
	res.Add(Table3MechanismByStratum, t3, err)
	if err == nil {
		res.Comparisons[Table3MechanismByStratum] = c3
	}
	t11, err := table11(rows, eval.PureMonotonic(s.Bench), s.Stats)
	res.Add(Table11PureMonotonic, t11, err)
	return res, res.draw(Table2DecompositionFigure)
}

// provenanceRows evaluates the retention classes on provenance and
// relation-type QAs from retained state only, and on provenance QAs with the
// deployed render.
func provenanceRows(ctx context.Context, s Setup) ([]eval.Outcome, error) {
	mems := append([]memory.Spec{}, paper.RetentionClasses...)
	state, err := s.Evaluate(ctx, mems, []esr.QueryType{esr.Provenance, esr.RelationType}, s.Options, eval.StateOnly)
	if err != nil {
		return nil, err
	}
	opt := s.Options
	opt.Deployed = true
	dep, err := s.Evaluate(ctx, mems, []esr.QueryType{esr.Provenance}, opt, eval.DeployedRender)
	if err != nil {
		return nil, err
	}
	return append(state, dep...), nil
}

// provenanceReport is §4.3: Figure 3 from retained state only, the deployed
// render reversal, and the relation-type query.
func provenanceReport(rows []eval.Outcome, s Setup) (*Result, error) {
	res := &Result{Name: string(SuiteProvenance), Rows: rows, Figures: map[FigureID]*plot.Plot{}}
	t3, err := figure3Table(rows, eval.StateOnly, s.Stats)
	if err != nil {
		return nil, err
	}
	res.Tables = append(res.Tables, t3)
	t, err := figure3Table(rows, eval.DeployedRender, s.Stats)
	res.Add(Figure3ProvenanceDeployed, t, err)
	t, err = relationTypeTable(rows, s.Stats)
	res.Add(RelationTypeQuery, t, err)
	return res, res.draw(Figure3ProvenanceFigure, Figure3ProvenanceDeployedFigure)
}
