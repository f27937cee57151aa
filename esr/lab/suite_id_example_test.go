package lab_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/reader"
)

// A suite is named by a typed id; a name a user types is read once
// (ParseSuiteID), and the suite's fields say where it runs.
func ExampleSuiteID() {
	id, err := lab.ParseSuiteID("deployed")
	fmt.Println(id == lab.SuiteDeployed, err)
	su := id.Suite()
	fmt.Println(su.Benches, su.ReferenceAdapter, lab.SuiteStrata.Suite().Benches == nil)
	_, err = lab.ParseSuiteID("deploy")
	fmt.Println(err != nil)
	// Output:
	// true <nil>
	// [synthetic dyknow vdyknow] true true
	// true
}

// SplitFamilies splits a table of comparisons by each row's comparison's
// scope (its reader family), not by the text of a cell.
func ExampleResult_SplitFamilies() {
	t := &eval.Table{ID: lab.HeadlineRevertedRevert, Title: "headline", Columns: []string{"comparison", "family"}}
	var cs []eval.Comparison
	for _, fam := range []reader.Family{reader.Pooled, {Kind: reader.KindSim, Name: "fit-qwen3-8b"}, {Kind: reader.KindSim, Name: "fit-qwen3-14b"}} {
		c := eval.Comparison{Term: eval.TermRender, Scope: eval.Scope{Family: fam}}
		cs = append(cs, c)
		t.AddRow(c.Label, fam.String())
	}
	res := &lab.Result{Name: "demo", Tables: []*eval.Table{t}, Comparisons: map[lab.TableID][]eval.Comparison{lab.HeadlineRevertedRevert: cs}}
	pooled, families, err := res.SplitFamilies(lab.HeadlineRevertedRevert)
	fmt.Println(len(pooled.Rows), len(families.Rows), families.ID, err)
	// Output:
	// 1 2 headline-reverted-revert-by-family <nil>
}
