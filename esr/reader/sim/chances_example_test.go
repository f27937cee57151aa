package sim_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/reader/sim"
)

// A profile's chances depend on the render's layout, not on the memory
// behind it: the same reader on a short grouped table and on a long flat
// list of dated rows with other keys around them. Clutter lowers both the
// chance that it uses a status cell and the chance that a date sort of the
// key's rows succeeds.
func ExampleProfile_Chances() {
	p := sim.Profile{Name: "example", StatusSkill: 0.9, DateSkill: 0.9,
		ClutterScale: 1, LengthCost: 0.5, FlatCost: 1, DistractorCost: 0.25}
	renders := []struct {
		name string
		f    sim.RenderFeatures
	}{
		{"grouped table", sim.RenderFeatures{Order: sim.OrderNewestFirst, Dates: sim.DatesColumn, Grouping: sim.GroupedBlock, Rows: 3, Tokens: 200, RowStatus: true}},
		{"flat list", sim.RenderFeatures{Order: sim.OrderUnordered, Dates: sim.DatesColumn, Grouping: sim.GroupedFlat, Rows: 3, Distractors: 15, Tokens: 2000, RowStatus: true}},
	}
	for _, r := range renders {
		c := p.Chances(r.f)
		fmt.Printf("%-13s clutter %.2f, P(status used) %.3f, P(sort of 3 rows) %.3f\n", r.name, c.Clutter, c.Row, c.Sort(3))
	}
	// Output:
	// grouped table clutter 0.13, P(status used) 0.888, P(sort of 3 rows) 0.888
	// flat list     clutter 2.79, P(status used) 0.803, P(sort of 3 rows) 0.355
}

// Capabilities is the table of what each capability of a simulated reader
// models, under the name specs and Get/Set use and the Profile field it
// sets.
func ExampleCapabilities() {
	for _, c := range sim.Capabilities[:4] {
		fmt.Printf("%-10s %s\n", c.Name, c.Field)
	}
	fmt.Println(len(sim.Capabilities), "capabilities")
	// Output:
	// status     StatusSkill
	// key-status KeyStatusSkill
	// date       DateSkill
	// date-decay DateDecayPerRow
	// 22 capabilities
}
