package report

import "testing"

// the helper that makes data text literal in Markdown.
func TestMarkdownText(t *testing.T) {
	for in, want := range map[string]string{
		"30 s":                      "30 s", // ordinary text is unchanged, byte for byte
		"issue #8723 (v1.2-beta)":   "issue #8723 (v1.2-beta)",
		"<script>alert(1)</script>": "&lt;script&gt;alert(1)&lt;/script&gt;",
		`<img src=x onerror="f()">`: `&lt;img src=x onerror="f()"&gt;`,
		"[x](javascript:alert(1))":  `\[x\](javascript:alert(1))`,
		"$10 and $20":               `\$10 and \$20`,
		"a *b* _c_ `d` ~e~ | \\":    "a \\*b\\* \\_c\\_ \\`d\\` \\~e\\~ \\| \\\\",
		"line\n# heading\r\n- item": "line # heading  - item",
		"AT&T &amp;":                "AT&amp;T &amp;amp;",
	} {
		if got := MarkdownText(in); got != want {
			t.Errorf("MarkdownText(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"<0.0001":                   "<0.0001",
		"a < b, reverted_revert ~x": "a < b, reverted_revert ~x",
		"<script>":                  "&lt;script>",
		"</b><!-- x --><?php":       "&lt;/b>&lt;!-- x -->&lt;?php",
		"&lt; &#60; & b":            "&amp;lt; &amp;#60; & b",
	} {
		if got := MarkdownSafe(in); got != want {
			t.Errorf("MarkdownSafe(%q) = %q, want %q", in, got, want)
		}
	}
}
