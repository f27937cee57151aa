package sim

import (
	"github.com/esrkit/esrkit/esr/eval"
)

// CapabilityTable documents the simulated readers' capabilities: what
// each models and the paper's evidence for it (Capabilities).
func CapabilityTable() *eval.Table {
	t := &eval.Table{ID: "sim-capabilities", Title: "What a simulated (sim:) reader's capabilities model, and the paper's evidence",
		Columns: []string{"capability", "models", "paper evidence"}}
	for _, c := range Capabilities {
		t.AddRow(c.Name, c.Models, c.Evidence)
	}
	t.Notes = []string{"sim:* readers are SIMULATED: stochastic text rules whose capabilities are drawn per question (seeded per seed, family and question), not LLMs"}
	return t
}

// ProfileTable lists the built-in sim profiles with their capabilities.
func ProfileTable() *eval.Table {
	t := &eval.Table{ID: "sim-profiles", Title: "Built-in simulated reader profiles (sim:NAME)",
		Columns: []string{"reader"}}
	for _, c := range Capabilities {
		t.Columns = append(t.Columns, c.Name)
	}
	t.Columns = append(t.Columns, "summary")
	for _, p := range Profiles() {
		row := []any{"sim:" + p.Name}
		for _, c := range Capabilities {
			x, _ := p.Get(c.Name)
			row = append(row, eval.NumberCell("%g", x))
		}
		t.AddRow(append(row, p.Summary)...)
	}
	t.Notes = []string{"SIMULATED readers; budgets of 0 read everything"}
	return t
}
