package experiment

// Paper holds the paper's published numbers that tables print beside ours
// (spec §9; arXiv 2607.16019). Keys name the table cell.
var Paper = map[string]float64{
	// §4.1 headline, reverted-revert, DeepSeek-V3 judge, n = 439.
	"rr/RevisionLedger − GraphRAG+abstain": 0.182,
	"rr/Graphiti − GraphRAG+abstain":       0.266,
	"rr/RevisionLedger − Graphiti":         -0.084,
	// Table 2 (DeepSeek-V3).
	"t2/render":             0.159,
	"t2/fine-d mechanism":   0.025,
	"t2/coarse-d mechanism": 0.087,
	// Table 3: typed mechanism residual (fine-ledger − render-only) by stratum.
	"t3/reverted_revert":       0.025,
	"t3/monotonic":             -0.003,
	"t3/refines":               0.009,
	"t3/cross_source_conflict": -0.008,
	// Table 5 accuracies (RL, GraphRAG+abstain, Graphiti) by stratum.
	"t5/reverted_revert/fine-ledger":            0.408,
	"t5/reverted_revert/graphrag-abstain":       0.226,
	"t5/reverted_revert/coarse-retain":          0.492,
	"t5/monotonic/fine-ledger":                  0.343,
	"t5/monotonic/graphrag-abstain":             0.279,
	"t5/monotonic/coarse-retain":                0.461,
	"t5/cross_source_conflict/fine-ledger":      0.039,
	"t5/cross_source_conflict/graphrag-abstain": 0.099,
	"t5/cross_source_conflict/coarse-retain":    0.022,
	"t5/refines/fine-ledger":                    0.262,
	"t5/refines/graphrag-abstain":               0.348,
	"t5/refines/coarse-retain":                  0.484,
	// Table 11 / §4.4 monotonic split: RL − GraphRAG+abstain.
	"t11/with-deprecated":    0.073,
	"t11/pure/RL − GRA":      0.049,
	"t11/pure/render":        0.027,
	"t11/pure/fine residual": 0.022,
	// Figure 3 provenance accuracy (n = 4,895) and the deployed reversal.
	"f3/coarse-discard":            0.243,
	"f3/graphrag-abstain":          0.439,
	"f3/coarse-retain":             0.604,
	"f3/fine-ledger":               0.715,
	"f3/fine − discard":            0.472,
	"f3/retain − discard":          0.361,
	"f3/fine − retain":             0.111,
	"f3/deployed/fine-ledger":      0.311,
	"f3/deployed/coarse-retain":    0.546,
	"f3/deployed/graphrag-abstain": 0.610,
	"f3/deployed/fine − coarse":    -0.236,
	// §4.3 relation-type query: fine − coarse-retain (n.s.).
	"type/fine − retain": -0.015,
}

// PaperCell formats the paper's number for key, or "—" when the paper has
// none.
func PaperCell(key string, signed bool) string {
	v, ok := Paper[key]
	if !ok {
		return "—"
	}
	if signed {
		return fmtSigned(v)
	}
	return fmtProp(v)
}
