package lab

import "github.com/esrkit/esrkit/esr/eval"

// TableID names a table a suite's Report builds (eval.TableID): the
// builder sets the table's ID from it (the file stem `esr run` writes), and
// notebooks and the CLI look the table up by it (Result.Table), so a table
// has one name in one vocabulary.
type TableID = eval.TableID

// The tables the suites' Reports build.
const (
	HeadlineRevertedRevert    TableID = "headline-reverted-revert"
	Table2Decomposition       TableID = "table2-render-decomposition"
	Table2Families            TableID = "table2-by-family"
	Table3MechanismByStratum  TableID = "table3-mechanism-by-stratum"
	Table11PureMonotonic      TableID = "table11-pure-monotonic"
	Figure3Provenance         TableID = "figure3-provenance"
	Figure3ProvenanceDeployed TableID = "figure3-provenance-deployed"
	RelationTypeQuery         TableID = "relation-type-query"
	Table5Strata              TableID = "table5-strata"
	Table12StreamLength       TableID = "table12-stream-length"
	Table13NoiseSweeps        TableID = "table13-noise-sweeps"
	Table16AbstainCalibration TableID = "table16-abstain-calibration"
	Table19AbstainWording     TableID = "table19-abstain-wording"
	Table20PermutationHolm    TableID = "table20-permutation-holm"
	Table7RefinesRecovery     TableID = "table7-refines-recovery"
	Table9CSCChain            TableID = "table9-csc-chain"
	Table10LearnedScorer      TableID = "table10-learned-scorer"
	Table17RenderFormats      TableID = "table17-render-formats"
	Table17Families           TableID = "table17-by-family"
	FacetsSingleValuedCost    TableID = "facets-single-valued-cost"
	FacetsWhere               TableID = "facets-where"
	// Per benchmark: AppendixDProvenance.On(bench name), and so on.
	AppendixDProvenance   TableID = "appendixD-provenance"
	AppendixDSnapshot     TableID = "appendixD-snapshot" // .On(bench).On(stratum)
	refinesRecallTable    TableID = "refines-recall"
	DeployedDecomposition TableID = "deployed-decomposition"
)

// FigureID names a figure a suite's Report draws: its file stem under
// `esr run` and its key in Result.Figures.
type FigureID string

// The figures the suites' Reports draw.
const (
	Table2DecompositionFigure       FigureID = "table2-decomposition"
	Figure3ProvenanceFigure         FigureID = "figure3-provenance"
	Figure3ProvenanceDeployedFigure FigureID = "figure3-provenance-deployed"
	AppendixDProvenanceFigure       FigureID = "appendixD-provenance"
	Figure5NoiseFigure              FigureID = "figure5-noise"
	Table17RenderFormatsFigure      FigureID = "table17-render-formats"
)
