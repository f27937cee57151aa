package debian

import (
	"strings"
	"testing"
)

// Text from the data is escaped where it enters Markdown: a licence name or
// package field cannot break the table or inject HTML.
func TestLicencesMarkdownEscapes(t *testing.T) {
	rows := []LicenceRow{{Package: "evil", Binary: "evil-bin", Version: "1|2",
		Licence: Licence{MachineReadable: true, Main: "GPL-2+ | <script>alert(1)</script>", Debian: "*bold* _it_ [x](y)"}}}
	md := licencesMarkdown(rows)
	last := md[strings.LastIndex(strings.TrimSuffix(md, "\n"), "\n")+1:]
	for _, bad := range []string{"<script>", "| <", "*bold*", "[x](y)"} {
		if strings.Contains(last, bad) {
			t.Errorf("row %q keeps %q unescaped", last, bad)
		}
	}
	// Six cells: the row's unescaped pipes are exactly its separators.
	if n := strings.Count(last, "|") - strings.Count(last, `\|`); n != 7 {
		t.Errorf("row %q has %d cell separators, want 7", last, n)
	}
	if want := `GPL-2+ \| &lt;script&gt;alert(1)&lt;/script&gt;`; !strings.Contains(last, want) {
		t.Errorf("row %q lacks %q", last, want)
	}
}
