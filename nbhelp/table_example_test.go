package nbhelp_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/nbhelp"
)

// Cells are text, never markup: a value holding a tag is escaped, and a
// wrong answer (✗) is shaded apart from a right one.
func ExampleTableHTML_escaped() {
	fmt.Println(nbhelp.TableHTML([]string{"memory", "answer"}, [][]eval.Cell{{eval.TextCell("coarse-retain"), eval.VerdictCell("<60 s>", false)}}))
	// Output:
	// <table class="nbhelp"><thead><tr><th>memory</th><th>answer</th></tr></thead><tbody><tr><td>coarse-retain</td><td style="background:#f4cccc">&lt;60 s&gt; ✗</td></tr></tbody></table>
}
