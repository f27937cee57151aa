package site

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/runlog"
	xhtml "golang.org/x/net/html"
)

// hostileLogText is what a model or a config may put in a log: markup,
// a Markdown table's pipe, a terminal escape, a bell and a line break.
const hostileLogText = "<script>window.pwned=3</script> | a|b \x1b[31mred\x1b[0m\x07\nnext [x](javascript:alert(1))"

// hostileLogs are the real promptfoo output (esr/runlog/testdata) and a
// copy whose test now passes, whose answer and provider hold hostile text.
func hostileLogs(t *testing.T) *runlog.Comparison {
	t.Helper()
	src := "../../esr/runlog/testdata/promptfoo/output.json"
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	r := v["results"].(map[string]any)["results"].([]any)[0].(map[string]any)
	r["success"] = true
	r["response"].(map[string]any)["output"] = hostileLogText
	r["provider"].(map[string]any)["label"] = "<b>bold</b>|" + hostileLogText
	b, _ := json.Marshal(v)
	changed := filepath.Join(t.TempDir(), "out<script>.json")
	if err := os.WriteFile(changed, b, 0o644); err != nil {
		t.Fatal(err)
	}
	la, err := runlog.Read(src, "", runlog.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lb, err := runlog.Read(changed, "", runlog.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := runlog.Compare(la, lb, runlog.Options{Stats: eval.StatOptions{B: 200, Seed: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Flips) == 0 {
		t.Fatal("no flip")
	}
	return c
}

func TestLogComparePageShowsHostileLogTextAsText(t *testing.T) {
	c := hostileLogs(t)
	page := LogComparePage(c)
	if !IsComparePage(page) {
		t.Fatal("IsComparePage does not recognise the page")
	}
	doc, err := xhtml.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	var text strings.Builder
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		switch n.Type {
		case xhtml.ElementNode:
			counts[n.Data]++
			for _, a := range n.Attr {
				if strings.HasPrefix(a.Key, "on") || strings.Contains(a.Val, "javascript:") && a.Key == "href" {
					t.Errorf("<%s %s=%q>", n.Data, a.Key, a.Val)
				}
			}
		case xhtml.TextNode:
			text.WriteString(n.Data)
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			walk(ch)
		}
	}
	walk(doc)
	if counts["script"] != 1 || counts["a"] != 0 || bytes.Contains(page, []byte("<b>bold")) || bytes.Contains(page, []byte("<script>window")) {
		t.Errorf("want the page's one script, no link and the data's tags escaped: %d scripts, %d links", counts["script"], counts["a"])
	}
	if !strings.Contains(text.String(), "<script>window.pwned=3</script> | a|b") || !strings.Contains(text.String(), "<b>bold</b>|") {
		t.Error("the hostile text is not on the page as text")
	}
	s := string(page)
	for _, want := range []string{`class="flip"`, `data-stratum="pass"`, `data-direction="gained"`, `id="f-label"`, `<tr class="renders" hidden>`} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	// esr report copies a comparison page through SanitizeComparePage: a
	// logs' page loses nothing there.
	clean, removed, err := SanitizeComparePage(page)
	if err != nil || len(removed) != 0 {
		t.Errorf("the sanitizer took out %q (%v)", removed, err)
	}
	if !bytes.Contains(clean, []byte("&lt;script&gt;window.pwned=3&lt;/script&gt;")) {
		t.Error("the sanitized page lost the escaped text")
	}
}
