package lab_test

import (
	"errors"
	"fmt"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr/eval"
)

// A suite's Result holds the one build of each of its tables; Table
// returns it by its id, or says why the suite could not build it.
func ExampleResult_Table() {
	res := &lab.Result{Name: "demo"}
	res.Add(lab.Table2Decomposition, &eval.Table{ID: lab.Table2Decomposition, Title: "Table 2", Columns: []string{"term"}}, nil)
	res.Add(lab.Table3MechanismByStratum, nil, errors.New("no monotonic rows"))
	t, err := res.Table(lab.Table2Decomposition)
	fmt.Println(t.Title, err)
	_, err = res.Table(lab.Table3MechanismByStratum)
	fmt.Println(err)
	_, err = res.Table(lab.Table9CSCChain)
	fmt.Println(err)
	// Output:
	// Table 2 <nil>
	// suite demo did not build table3-mechanism-by-stratum: no monotonic rows
	// suite demo has no table "table9-csc-chain" (tables: table2-render-decomposition)
}
