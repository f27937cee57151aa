package nbhelp_test

import (
	"fmt"

	"github.com/esrkit/esrkit/nbhelp"
)

// TableHTML right-aligns numbers and shades answers marked right (✓) or
// wrong (✗); outside a notebook the Show* functions display nothing, so the
// HTML is what a test or a report page sees.
func ExampleTableHTML() {
	fmt.Println(nbhelp.TableHTML([]string{"reader", "answer", "n"}, [][]string{{"cautious", "30 s ✓", "3"}}))
	// Output:
	// <table class="nbhelp"><thead><tr><th>reader</th><th>answer</th><th>n</th></tr></thead><tbody><tr><td>cautious</td><td style="background:#d9f0d3">30 s ✓</td><td style="text-align:right">3</td></tr></tbody></table>
}
