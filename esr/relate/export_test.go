package relate

// Test hooks for the external tests (learned_downstream_test.go), which
// need the memory package and so cannot live inside relate.
var (
	ToyBench  = toyBench
	LogScores = logScores
)

// NumFeatures is the learned scorer's feature count.
const NumFeatures = int(numFeatures)

// LearnedName is the learned scorer's name.
const LearnedName = learnedName

// MustWeights returns the learned scorer's feature names.
func MustWeights(m *Learned) []string { f, _ := m.Weights(); return f }
