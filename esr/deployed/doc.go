// Package deployed answers the question the paper leaves to deployed
// memories: is a deployed system's gain (the Graphiti and Mem0 models, an
// exec: adapter) its mechanism, its render or its content, under the
// render-matched protocol? It holds the decomposition against
// paper.DeployedBaseline (Evaluate, Decomposition, the
// reverted-revert and drift tables), the modelled systems' assumptions
// (AssumptionsTable, ParamsTable) and the paraphrase curve. The
// deployed classes are SIMULATED models of those systems, not the systems.
package deployed
