package site

import (
	"bytes"
	"context"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

const (
	hostileScript = `<script>window.pwned=1</script>`
	hostileImg    = `<img src=x onerror="window.pwned=2">`
)

// hostileComparison compares two hand-made runs whose answers, golds,
// reasons and renders hold markup: two strata, two readers, flips both ways.
func hostileComparison(t testing.TB) *eval.RunComparison {
	t.Helper()
	ma, err := memory.ParseSpec("graphiti@paraphrase=0@dup=0")
	if err != nil {
		t.Fatal(err)
	}
	mb, err := memory.ParseSpec("graphiti@paraphrase=1@dup=0")
	if err != nil {
		t.Fatal(err)
	}
	type q struct {
		qid    string
		strat  esr.Phenomenon
		reader string
		a, b   bool
	}
	qs := []q{{"q1", esr.RevertedRevert, "time-sorter", false, true}, {"q2", esr.RevertedRevert, "time-sorter", true, false},
		{"q3", esr.Monotonic, "time-sorter", true, true}, {"q4", esr.Monotonic, "time-sorter", false, true},
		{"q1", esr.RevertedRevert, "status-reader", true, true}, {"q3", esr.Monotonic, "status-reader", true, false}}
	row := func(m memory.Spec, x q, right bool) eval.Outcome {
		ans, label := "60 s "+hostileImg, judge.LabelOutdated
		if right {
			ans, label = "30 s", judge.LabelCorrect
		}
		return eval.Outcome{QID: x.qid + hostileScript, StreamID: "s-" + x.qid, Source: "synthetic", Phenomenon: x.strat, QueryType: esr.Snapshot,
			Memory: m, Reader: reader.Spec{Kind: reader.KindScripted, Name: x.reader}, Family: reader.Family{Kind: reader.KindScripted, Name: x.reader},
			Answer: ans, RawAnswer: ans, Gold: "30 s" + hostileScript, Correct: right, Label: label, Reason: "because " + hostileImg}
	}
	var ra, rb []eval.Outcome
	for _, x := range qs {
		ra, rb = append(ra, row(ma, x, x.a)), append(rb, row(mb, x, x.b))
	}
	rc, err := eval.CompareRuns(context.Background(), eval.StoredRunOf("a"+hostileScript+".jsonl", ra), eval.StoredRunOf("b.jsonl", rb),
		eval.RunCompareOptions{Stats: eval.StatOptions{B: 200, Seed: 1, Level: 0.95}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range rc.Flips {
		rc.Flips[i].RenderA = "key | value\nretry | 30 s | LIVE"
		rc.Flips[i].RenderB = "key | value\nretry | 30 s " + hostileImg + " | DEAD " + hostileScript
	}
	return rc
}

func TestComparePageEscapesEveryDataString(t *testing.T) {
	rc := hostileComparison(t)
	page := ComparePage(rc)
	if !IsComparePage(page) {
		t.Fatal("IsComparePage does not recognise the page")
	}
	doc, err := xhtml.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	var walk func(n *xhtml.Node, inHead bool)
	walk = func(n *xhtml.Node, inHead bool) {
		if n.Type == xhtml.ElementNode {
			counts[n.Data]++
			if n.Data == "script" && !inHead {
				t.Error("a script element outside the head")
			}
			for _, a := range n.Attr {
				if strings.HasPrefix(a.Key, "on") || strings.Contains(a.Val, "javascript:") {
					t.Errorf("<%s %s=%q>: an event handler", n.Data, a.Key, a.Val)
				}
			}
			inHead = inHead || n.Data == "head"
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inHead)
		}
	}
	walk(doc, false)
	if counts["script"] != 1 || counts["img"] != 0 {
		t.Errorf("want the page's one script and no img, got %d scripts and %d imgs", counts["script"], counts["img"])
	}
	for _, want := range []string{"&lt;script&gt;window.pwned=1&lt;/script&gt;", "&lt;img src=x onerror=&#34;window.pwned=2&#34;&gt;", `<mark style="background:#ffe08a">`, `<template id="r0">`, `data-renders="r0"`} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("page lacks %q", want)
		}
	}
	s := string(page)
	if got := strings.Count(s, `<tr class="flip"`); got != len(rc.Flips) || got == 0 {
		t.Errorf("%d flip rows for %d flips", got, len(rc.Flips))
	}
	if strings.Count(s, `<tr class="renders" hidden>`) != len(rc.Flips) {
		t.Errorf("want one hidden renders row per flip")
	}
	for _, want := range []string{`data-direction="gained"`, `data-direction="lost"`, `data-stratum="reverted_revert"`, `data-family="scripted:time-sorter"`,
		`<option value="monotonic">`, `<option value="outdated">`, `id="f-direction"`} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %s", want)
		}
	}
}

func TestComparePageIsDeterministic(t *testing.T) {
	a, b := ComparePage(hostileComparison(t)), ComparePage(hostileComparison(t))
	if !bytes.Equal(a, b) {
		t.Error("two pages of one comparison differ")
	}
}
