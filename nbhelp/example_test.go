package nbhelp_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/nbhelp"
)

// TableHTML styles each cell by its kind: it right-aligns numbers and
// shades answers marked right (✓) or wrong (✗); outside a notebook the
// Show* functions display nothing, so the HTML is what a test or a report
// page sees.
func ExampleTableHTML() {
	t := &eval.Table{Columns: []string{"reader", "answer", "n"}}
	t.AddRow("cautious", eval.VerdictCell("30 s", true), 3)
	fmt.Println(nbhelp.TableHTML(t.Columns, t.Rows))
	// Output:
	// <table class="nbhelp"><thead><tr><th>reader</th><th>answer</th><th>n</th></tr></thead><tbody><tr><td>cautious</td><td style="background:#d9f0d3">30 s ✓</td><td style="text-align:right">3</td></tr></tbody></table>
}
