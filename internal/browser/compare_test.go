package browser

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/site"
)

// hostileRunComparison compares two hand-made runs whose qids, answers,
// golds and reasons hold markup that records where it ran; the flips'
// renders (rebuilt from a benchmark in esr compare) are set by hand, with
// markup too.
func hostileRunComparison(t *testing.T) *eval.RunComparison {
	t.Helper()
	ma, _ := memory.ParseSpec("graphiti@paraphrase=0@dup=0")
	mb, _ := memory.ParseSpec("graphiti@paraphrase=1@dup=0")
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
		ans, label := `60 s<img src=x onerror="`+pwn("answer")+`">`, judge.LabelOutdated
		if right {
			ans, label = "30 s", judge.LabelCorrect
		}
		return eval.Outcome{QID: x.qid + `<script>` + pwn("qid") + `</script>`, Source: "synthetic", Phenomenon: x.strat, QueryType: esr.Snapshot,
			Memory: m, Reader: reader.Spec{Kind: reader.KindScripted, Name: x.reader}, Family: reader.Family{Kind: reader.KindScripted, Name: x.reader},
			Answer: ans, Gold: "30 s<svg onload=\"" + pwn("gold") + "\"></svg>", Correct: right, Label: label,
			Reason: `because <img src=x onerror="` + pwn("reason") + `">`}
	}
	var ra, rb []eval.Outcome
	for _, x := range qs {
		ra, rb = append(ra, row(ma, x, x.a)), append(rb, row(mb, x, x.b))
	}
	rc, err := eval.CompareRuns(context.Background(), eval.StoredRunOf("a.jsonl", ra), eval.StoredRunOf("b.jsonl", rb),
		eval.RunCompareOptions{Stats: eval.StatOptions{B: 200, Seed: 1, Level: 0.95}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range rc.Flips {
		rc.Flips[i].Question = `How long is the retry?<script>` + pwn("question") + `</script><img src=x onerror="` + pwn("question-img") + `">`
		rc.Flips[i].RenderA = "key | value | status\nretry | 30 s | LIVE"
		rc.Flips[i].RenderB = "key | value | status\nretry | 30 s<img src=x onerror=\"" + pwn("render") + "\"> | DEAD<script>" + pwn("render-script") + "</script>"
	}
	return rc
}

// The comparison page of esr compare --html in Chromium, as written and as
// esr report copies it (site.SanitizeComparePage): the filters show
// exactly the rows of the chosen stratum, direction and family, a flip
// opens onto its two renders side by side with B's change marked, and the
// markup in the runs' text shows as its characters and never runs.
func TestComparePageFiltersAndShowsHostileTextLiterally(t *testing.T) {
	RequireChromium(t)
	rc := hostileRunComparison(t)
	own := site.ComparePage(rc)
	copied, removed, err := site.SanitizeComparePage(own)
	if err != nil || removed != nil {
		t.Fatalf("esr report's copy: removed %v, err %v", removed, err)
	}
	for _, c := range []struct {
		name string
		page []byte
	}{{"as esr compare writes it", own}, {"as esr report copies it", copied}} {
		t.Run(c.name, func(t *testing.T) { comparePageWorks(t, rc, c.page) })
	}
}

func comparePageWorks(t *testing.T, rc *eval.RunComparison, page []byte) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := filepath.Join(t.TempDir(), "compare.html")
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}
	b := NewT(t, ctx)
	u, err := FileURL(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Navigate(u); err != nil {
		t.Fatal(err)
	}
	visible := func(table string) []string {
		t.Helper()
		got, err := Eval[[]string](b, `[...document.querySelectorAll("#`+table+` tbody tr:not(.renders)")].filter(r => !r.hidden && r.offsetParent !== null).map(r => (r.dataset.stratum||"") + "|" + (r.dataset.family||"") + "|" + (r.dataset.direction||""))`)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	count := func(keep func(f eval.Flip) bool) int {
		n := 0
		for _, f := range rc.Flips {
			if keep(f) {
				n++
			}
		}
		return n
	}
	if got := visible("flips"); len(got) != len(rc.Flips) || len(got) < 3 {
		t.Fatalf("with no filter %d of %d flips show: %v", len(got), len(rc.Flips), got)
	}
	if got := visible("diffs"); len(got) != len(rc.Diffs) {
		t.Fatalf("with no filter %d of %d differences show", len(got), len(rc.Diffs))
	}

	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(b.SetSelect("#f-direction", "lost"))
	got := visible("flips")
	if want := count(func(f eval.Flip) bool { return f.Direction == eval.Lost }); len(got) != want || want == 0 {
		t.Errorf("direction lost: %d flips show, want %d: %v", len(got), want, got)
	}
	for _, r := range got {
		if !strings.HasSuffix(r, "|lost") {
			t.Errorf("direction lost shows %s", r)
		}
	}
	must(b.SetSelect("#f-stratum", string(esr.Monotonic)))
	got = visible("flips")
	if want := count(func(f eval.Flip) bool { return f.Direction == eval.Lost && f.Stratum == esr.Monotonic }); len(got) != want || want == 0 {
		t.Errorf("lost on monotonic: %d flips show, want %d: %v", len(got), want, got)
	}
	for _, r := range visible("diffs") {
		if !strings.HasPrefix(r, string(esr.Monotonic)+"|") {
			t.Errorf("stratum monotonic shows the difference %s", r)
		}
	}
	must(b.SetSelect("#f-direction", ""))
	must(b.SetSelect("#f-family", "scripted:status-reader"))
	got = visible("flips")
	if want := count(func(f eval.Flip) bool {
		return f.Stratum == esr.Monotonic && f.Family == (reader.Family{Kind: reader.KindScripted, Name: "status-reader"})
	}); len(got) != want || want == 0 {
		t.Errorf("status-reader on monotonic: %d flips show, want %d: %v", len(got), want, got)
	}
	shown, err := b.Text("#flips-shown")
	must(err)
	if !strings.Contains(shown, "of "+strconv.Itoa(len(rc.Flips))) {
		t.Errorf("the count reads %q", shown)
	}

	// Open the one flip left: its renders, side by side, B's change marked.
	must(b.Click(`#flips tr.flip:not([hidden]) button.toggle`, 10*time.Second))
	renders, err := Eval[[]string](b, `[...document.querySelectorAll("#flips tr.renders:not([hidden]) pre.esr-render")].map(p => p.innerText)`)
	must(err)
	if len(renders) != 2 || !strings.Contains(renders[0], "LIVE") || !strings.Contains(renders[1], `<img src=x onerror="window.pwned`) {
		t.Errorf("the opened flip's renders: %q", renders)
	}
	marks, err := Eval[int](b, `document.querySelectorAll("#flips tr.renders:not([hidden]) mark").length`)
	must(err)
	if marks == 0 {
		t.Error("B's change is not marked")
	}

	if got := pwned(t, b); len(got) > 0 {
		t.Errorf("the runs' text ran as script: %v", got)
	}
	imgs, err := Eval[int](b, `document.querySelectorAll("img, svg").length`)
	must(err)
	if imgs != 0 {
		t.Errorf("the runs' text became %d img/svg elements", imgs)
	}
	text, err := Eval[string](b, `document.body.innerText`)
	must(err)
	for _, want := range []string{`<script>window.pwned`, `60 s<img src=x onerror="window.pwned`, `because <img src=x`, `How long is the retry?<script>window.pwned`} {
		if !strings.Contains(text, want) {
			t.Errorf("the page does not show %q literally:\n%s", want, tail(text, 1500))
		}
	}
}
