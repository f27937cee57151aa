package memory

// Display is what one memory is called: the kit's class name, the name the
// paper's tables give it, the paper's abbreviation and the paper's longer
// description. Every place that prints a paper name takes it from here
// (displayOf), so one memory has one set of names.
//
// Two memories are easy to mix up, so neither is displayed as plain
// "Graphiti": coarse-retain is what the paper calls "Graphiti" (the
// coarse-d, retain-closed-edges class of its Tables 2–12, an idealised
// store whose invalidation always works), displayed "coarse-retain
// (idealised Graphiti)"; graphiti is the kit's model of Graphiti as
// deployed (its edge resolution with upstream issue #1865 and its context
// string, §4.3 / Appendix D's deployed memories), displayed "graphiti
// (deployed-system model, …)". Every deployed class says "deployed-system
// model" the same way.
type classDisplay struct {
	Class Class  // the kit's name, as the CLI and outcome rows spell it
	Paper string // the paper's name in table headers and term labels
	Short string // the paper's abbreviation ("" if it has none)
	Long  string // the paper's description of the class
}

// classDisplays lists the display names of every built-in class: the paper's
// nine in the order of Names, then DeployedNames.
var classDisplays = []classDisplay{
	{DirectContext, "DIRECT CONTEXT", "", "DIRECT CONTEXT"},
	{RAGTopK, "RAG-TOP-K", "", "RAG-TOP-K"},
	{LatestOnly, "LATEST-ONLY", "", "LATEST-ONLY"},
	{GraphRAGLite, "GRAPHRAG-LITE", "", "GRAPHRAG-LITE"},
	{GraphRAGAbstain, "GraphRAG+abstain", "GRA", "GraphRAG+abstain"},
	{CoarseDiscard, "coarse-d (discard)", "", "coarse-d (discard)"},
	{CoarseRetain, "coarse-retain (idealised Graphiti)", "", "coarse-retain (idealised Graphiti-like store: coarse-d, retains closed edges)"},
	{FineLedger, "RevisionLedger", "RL", "RevisionLedger"},
	{RenderOnly, "render-matched control", "", "render-matched control"},
	{Graphiti, "graphiti (deployed-system model, full history)", "", "graphiti (deployed-system model of Graphiti, full history)"},
	{GraphitiCurrent, "graphiti-current (deployed-system model, current only)", "", "graphiti-current (deployed-system model of Graphiti, current only)"},
	{Mem0V3, "mem0-v3 (deployed-system model, add-only)", "", "mem0-v3 (deployed-system model of Mem0 v3, add-only)"},
	{Mem0Update, "mem0-update (deployed-system model, ADD/UPDATE/DELETE)", "", "mem0-update (deployed-system model of Mem0, ADD/UPDATE/DELETE)"},
}

// displayOf returns the display names of class c; a class outside
// classDisplays (registered, exec:, with parameters) is displayed under its
// kit name.
func displayOf(c Class) classDisplay {
	for _, d := range classDisplays {
		if d.Class == c {
			return d
		}
	}
	return classDisplay{Class: c, Paper: string(c), Long: string(c)}
}

// Paper is the paper's name of class c (displayOf(c).Paper).
func (c Class) Paper() string { return displayOf(c).Paper }

// Abbrev is the paper's abbreviation of c, or its paper name if it has none.
func (c Class) Abbrev() string {
	if d := displayOf(c); d.Short != "" {
		return d.Short
	}
	return c.Paper()
}
