package nbhelp_test

import (
	"fmt"

	"github.com/esrkit/esrkit/nbhelp"
)

// MarkdownText keeps data text literal inside Markdown: a question that
// holds markup shows as its characters instead of turning into emphasis, a
// tag or a line break.
func ExampleMarkdownText() {
	q := "Is *retry_limit* <b>3</b> or\n5?"
	fmt.Println("**" + nbhelp.MarkdownText(q) + "**")
	fmt.Println(nbhelp.MarkdownText("30 s") == "30 s")
	// Output:
	// **Is \*retry\_limit\* &lt;b&gt;3&lt;/b&gt; or 5?**
	// true
}
