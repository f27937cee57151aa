package sim

// ResetRenderMemo empties the parsed-render memo, and RenderMemoLen is its
// size: for the tests of package reader_test.
func ResetRenderMemo() {
	renderMemo.Lock()
	renderMemo.texts, renderMemo.vals = nil, nil
	renderMemo.Unlock()
}

func RenderMemoLen() int {
	renderMemo.Lock()
	defer renderMemo.Unlock()
	return len(renderMemo.texts)
}

// Capability names and the bench hash, for the tests of package sim_test.
const (
	KeyStatus    = simKeyStatus
	ClutterScale = simClutterScale
	LengthCost   = simLengthCost
	RowsCost     = simRowsCost
	FlatCost     = simFlatCost
	DistractCost = simDistractCost
	ProseCost    = simProseCost
	NestCost     = simNestCost
	ParaCost     = simParaCost
)

var BenchHash = benchHash

// The calibration's targets and refit steps, for the tests of package sim_test.
var (
	CalibrationTargets = calibrationTargets
	PanelTargets       = panelTargets
	SummarizeFit       = summarizeFit
	Refit              = refitFamilies
)
