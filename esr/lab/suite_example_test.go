package lab_test

import (
	"errors"
	"fmt"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr/eval"
)

// A suite's Result holds the one build of each of its tables; Table
// returns it by name, or says why the suite could not build it.
func ExampleResult_Table() {
	res := &lab.Result{Name: "demo"}
	res.Add("table2-decomposition", &eval.Table{Name: "table2-decomposition", Title: "Table 2", Columns: []string{"term"}}, nil)
	res.Add("table3-residual", nil, errors.New("no monotonic rows"))
	t, err := res.Table("table2-decomposition")
	fmt.Println(t.Title, err)
	_, err = res.Table("table3-residual")
	fmt.Println(err)
	_, err = res.Table("table9")
	fmt.Println(err)
	// Output:
	// Table 2 <nil>
	// suite demo did not build table3-residual: no monotonic rows
	// suite demo has no table "table9" (tables: table2-decomposition)
}
