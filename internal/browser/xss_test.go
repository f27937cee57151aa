package browser

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/site"
)

// pwn is a payload that, when it runs, adds tag to window.pwned.
func pwn(tag string) string {
	return `window.pwned=(window.pwned||[]).concat('` + tag + `')`
}

// hostileBench writes the Figure 1 stream with markup in its question, its
// values (so the gold answer and every reader's answer) and its events'
// text, each payload tagged with where it came from.
func hostileBench(t *testing.T) string {
	t.Helper()
	value := `30 s<img src=x onerror="` + pwn("answer") + `">`
	s, atoms := bench.Build("figure1", bench.TimeoutKey, []bench.Event{
		{ID: "e1", Date: "2024-01-01", Actor: "m", Value: value, Text: `set <script>` + pwn("event-md") + `</script>`},
		{ID: "e2", Date: "2024-02-01", Actor: "m", Value: "60 s", Text: `update <img src=x onerror="` + pwn("event-html") + `">`},
		{ID: "e3", Date: "2024-03-01", Actor: "m", Value: value, Text: "revert"},
	})
	qa := bench.Figure1QA()
	qa.Question = `What is in force? <script>` + pwn("question") + `</script><svg onload="` + pwn("question-svg") + `"></svg> [x](javascript:` + pwn("question-link") + `) $1 and $2`
	qa.GoldAnswer = value
	dir := filepath.Join(t.TempDir(), "hostile")
	if err := bench.New([]*esr.Stream{s}, map[string][]esr.Atom{s.ID: atoms}, []esr.QA{qa}).Save(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// xssCells are the notebook's cells after the set-up: the first shows the
// bench's text as the repository's notebooks do (41's and 43's question
// line, 00's Flips), escaped; the second is a cell that forgets to escape
// (event text into Markdown and HTML), which only the report's sanitising
// pass can stop.
func xssCells(benchDir string) []string {
	return []string{`import (
	"context"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/nbhelp"
)`, `%%
b := nbhelp.Must(bench.Load(` + strconv.Quote(benchDir) + `))
qa := b.QAs[0]
nbhelp.Markdown("**" + nbhelp.MarkdownText(qa.Question) + "** (gold: " + nbhelp.MarkdownText(qa.GoldAnswer) + ")")
s := b.Streams[0]
nbhelp.Markdown(nbhelp.Must(lab.Flips(context.Background(), s, b.Atoms[s.ID], qa, []reader.Reader{reader.Oracle{}}, memory.Options{})))`,
		`%%
b := nbhelp.Must(bench.Load(` + strconv.Quote(benchDir) + `))
s := b.Streams[0]
nbhelp.Markdown("event: " + s.Events[0].Text)
nbhelp.HTML(s.Events[1].Text)`}
}

// runJupyter runs /usr/bin/jupyter with args in dir, with the environment
// the notebook runner gives notebooks (PATH with gonb and go, ESRKIT_ROOT,
// ESRKIT_NONINTERACTIVE).
func runJupyter(t *testing.T, ctx context.Context, dir string, args ...string) {
	t.Helper()
	path, err := goPath()
	if err != nil {
		t.Fatal(err)
	}
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, DefaultJupyter, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+path, "ESRKIT_ROOT="+root, "ESRKIT_NONINTERACTIVE=1", "PYDEVD_DISABLE_FILE_VALIDATION=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("jupyter %s: %v\n%s", strings.Join(args, " "), err, tail(string(out), 3000))
	}
}

// pwned is what the page's payloads recorded (none: no script ran).
func pwned(t *testing.T, b *Browser) []string {
	t.Helper()
	// Give error handlers of broken images and MathJax time to run.
	time.Sleep(time.Second)
	got, err := Eval[[]string](b, `window.pwned || []`)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// bench text holding markup reached notebook Markdown
// outputs unescaped and nbconvert copied it into report/*.html, where it
// ran. This builds a report page as `make report` does (a GoNB notebook
// executed headless over a hostile bench, nbconvert to HTML, then esr
// report's sanitising pass) and loads it in Chromium: no payload runs, and
// the escaped text shows as text. The page as nbconvert wrote it, before
// the sanitising pass, is loaded too: there the forgetful cell's payloads
// run (the check sees script when it runs) and the escaped cells' do not
// (the first wall holds on its own).
func TestReportFromHostileBench(t *testing.T) {
	RequireChromium(t)
	RequireJupyter(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	benchDir := hostileBench(t)
	work := t.TempDir()
	writeNotebook(t, filepath.Join(work, "hostile.ipynb"), append([]string{widgetSetupCell}, xssCells(benchDir)...)...)
	runJupyter(t, ctx, work, "nbconvert", "--to", "notebook", "--execute", "--ExecutePreprocessor.timeout=600",
		"--output-dir", filepath.Join(work, "executed"), "--output", "hostile", "hostile.ipynb")
	raw, report := filepath.Join(work, "raw"), filepath.Join(work, "report")
	for _, d := range []string{raw, report} {
		runJupyter(t, ctx, work, "nbconvert", "--to", "html", "--log-level", "WARN", "--output-dir", d, filepath.Join(work, "executed", "hostile.ipynb"))
	}
	cleaned, err := site.SanitizePages(report) // what esr report runs over report/
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the sanitising pass removed %v", cleaned)

	b := NewT(t, ctx)
	open := func(path string) {
		t.Helper()
		u, err := FileURL(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Navigate(u); err != nil {
			t.Fatal(err)
		}
	}
	open(filepath.Join(raw, "hostile.html"))
	before := pwned(t, b)
	for _, tag := range []string{"event-md", "event-html"} {
		if !slices.Contains(before, tag) {
			t.Errorf("without the sanitising pass the unescaped cell's %q did not run (ran: %v): the check cannot see script run", tag, before)
		}
	}
	for _, tag := range before {
		if !strings.HasPrefix(tag, "event") {
			t.Errorf("the escaped cells' payload %q ran: the first wall (nbhelp.MarkdownText, Flips) failed", tag)
		}
	}

	open(filepath.Join(report, "hostile.html"))
	if got := pwned(t, b); len(got) > 0 {
		t.Errorf("script ran in the report page: %v", got)
	}
	text, err := Eval[string](b, `document.body.innerText`)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<script>window.pwned", "[x](javascript:", "$1 and $2", `30 s<img src=x onerror="window.pwned`} {
		if !strings.Contains(text, want) {
			t.Errorf("the escaped text does not show %q literally; the page reads:\n%s", want, tail(text, 2000))
		}
	}
}

// The sanitising pass against the classic ways markup runs script, and
// against markup that x/net/html reads otherwise than Chromium, in the
// browser: each payload, in a page shaped as nbconvert writes one, runs
// before the pass (those the HTML parser reads as text aside: the browser
// must agree they do not run) and none runs after it. The select family
// has a page of its own: there the standard's parser finds nothing to
// remove, which is how it came through byte for byte.
func TestSanitizedPagesRunNoScript(t *testing.T) {
	RequireChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	classic := map[string]string{
		"script":   `<script>` + pwn("script") + `</script>`,
		"img":      `<img src=x onerror="` + pwn("img") + `">`,
		"svg":      `<svg onload="` + pwn("svg") + `"><circle r="1"/></svg>`,
		"details":  `<details open ontoggle="` + pwn("details") + `">d</details>`,
		"iframe":   `<iframe srcdoc="<script>parent.pwned=(parent.pwned||[]).concat('iframe')</script>"></iframe>`,
		"breakout": `</p></div></div></body><script>` + pwn("breakout") + `</script>`,
		"video":    `<video><source onerror="` + pwn("video") + `"></video>`,
		"mglyph":   `<math><mtext><table><mglyph><style><img src=x onerror="` + pwn("mglyph") + `"></style></mglyph></table></mtext></math>`,
		"cdata":    `<svg><![CDATA[><img src=x onerror="` + pwn("cdata") + `">]]></svg>`,
		"noscript": `<noscript><p title="</noscript><img src=x alt=noscript onerror=window.pwned=(window.pwned||[]).concat(this.alt)>"></noscript>`,
		// A second body tag adds its handlers to the page's own body.
		"body": `</p></div><body onload="` + pwn("body") + `">`,
	}
	// Chromium's customizable select keeps what the standard's older select
	// rules (x/net/html's) drop without a trace.
	selects := map[string]string{
		"select-img":    `<select><img src=x onerror="` + pwn("select-img") + `"></select>`,
		"select-svg":    `<select><svg onload="` + pwn("select-svg") + `"></svg></select>`,
		"select-iframe": `<select><iframe srcdoc="<script>parent.pwned=(parent.pwned||[]).concat('select-iframe')</script>"></iframe></select>`,
		"select-button": `<select><button><img src=x onerror="` + pwn("select-button") + `"></button></select>`,
		"select-option": `<select><option><img src=x onerror="` + pwn("select-option") + `"></option></select>`,
		"select-style":  `<select><style>i{}</style><img src=x onerror="` + pwn("select-style") + `"></select>`,
		"table-select":  `<table><select><img src=x onerror="` + pwn("table-select") + `"></select></table>`,
	}
	textOnly := map[string]bool{"mglyph": true, "cdata": true} // parsed as text by the standard's parser
	b := NewT(t, ctx)
	dir := t.TempDir()
	load := func(path string) []string {
		u, _ := FileURL(path)
		if err := b.Navigate(u); err != nil {
			t.Fatal(err)
		}
		return pwned(t, b)
	}
	for group, payloads := range map[string]map[string]string{"classic": classic, "select": selects} {
		var body strings.Builder
		for _, name := range slices.Sorted(maps.Keys(payloads)) {
			body.WriteString(`<div class="jp-OutputArea-output" data-mime-type="text/html">` + payloads[name] + "</div>\n")
		}
		page := `<!DOCTYPE html><html><head><meta charset="utf-8"><title>p</title></head><body class="jp-Notebook">` + body.String() + `</body></html>`
		raw, clean := filepath.Join(dir, group+"-raw.html"), filepath.Join(dir, group+"-clean.html")
		os.WriteFile(raw, []byte(page), 0o644)
		out, removed, err := site.Sanitize([]byte(page))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(clean, out, 0o644)
		t.Logf("%s: removed %v", group, removed)
		before := load(raw)
		for name := range payloads {
			if ran := slices.Contains(before, name); ran == textOnly[name] {
				t.Errorf("%s payload %s: ran %v without the pass (all ran: %v)", group, name, ran, before)
			}
		}
		if after := load(clean); len(after) > 0 {
			t.Errorf("%s: after the sanitising pass script ran: %v", group, after)
		}
	}
}
