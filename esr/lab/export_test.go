package lab

// Hooks for the external tests (package lab_test): section-internal names
// the tests check without making them part of the API.
const (
	AllPairs     = allPairs
	NoRefinement = noRefinement
	PaperGroup   = paperGroup
)

var (
	RenderMatchedTerms   = renderMatchedTerms
	Memories             = explorerMemories
	RenderFormats        = renderFormats
	Bench                = facetBench
	DominanceVersusPaper = dominanceVersusPaper
	PhaseMemories        = phaseMemories
	ReaderWords          = readerWords
	DecompositionPlot    = decompositionPlot
	Rows                 = facetRows
	StrictVariants       = strictVariants
	FormatPlot           = formatPlot
	SnapshotCeilingTable = snapshotCeilingTable
	SweepPlot            = sweepPlot
	Table2               = buildTable2
	Table3               = buildTable3
	DecompositionCause   = decompositionCause
	Elsewhere            = uploadedElsewhere
	ExplainGap           = explainGap
	FacetClasses         = facetClasses
	FacetTable           = facetTable
	QueryTypes           = queryTypes
	ScriptedFamilies     = scriptedFamilies
	SimFamilies          = simFamilies
	SkillsOf             = skillsOf
	TierAnswers          = tierAnswers
	WhereTable           = whereTable
	WhoIsRight           = whoIsRight
)

// The composition checks' names and the paper preset, for the shape tests.
const (
	PresetPaper             = presetPaper
	TargetAtomsPerEvent     = targetAtomsPerEvent
	TargetKeysPerStream     = targetKeysPerStream
	TargetMonotonicShare    = targetMonotonicShare
	TargetMonotonicWeighted = targetMonotonicWeighted
	TargetStreamTokens      = targetStreamTokens
)

// The bundled bench's configuration and its stratum mix, for the shape
// tests.
var (
	BundledGenConfig      = bundledGenConfig
	RareOversampleOf      = rareOversampleOf
	MixNote               = mixNote
	BundledRareOversample = bundledRareOversample
)
var FlipReaderWords = flipReaderWords
