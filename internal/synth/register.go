package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// Padding (Config.EventTokens, Config.Register): events shorter than a
// drawn length get text in one of four registers, so that a stream reads
// like the paper's "issue threads, revision histories" (App. D) rather than
// a list of facts. Padding states no value of any key, except that a quoted
// reply quotes an earlier event, stale values included, as replies do; no
// atom comes from padding.

// padSigma is the spread of an event's drawn length: log-normal with median
// Config.EventTokens and σ = 0.8 (a few comments are long logs, most are
// short), capped at 12 times the median; an opening post draws twice the
// median.
const padSigma = 0.8

// estTokens is the generator's token estimate, bytes/4 (a rule of thumb for
// English BPE). The kit's own counter (layout.CountTokens) measures the
// result; the generator does not use it, so the measured length is not the
// generator's own arithmetic.
func estTokens(s string) int { return (len(s) + 3) / 4 }

func (g *streamGen) pad() {
	med := g.cfg.EventTokens
	if med <= 0 {
		return
	}
	reg := DefaultRegister
	if g.cfg.Register != nil {
		reg = *g.cfg.Register
	}
	weights := []float64{reg.Prose, reg.Code, reg.Log, reg.Quote}
	r := g.rx
	for i, ev := range g.events {
		g.padAt, g.padFirst = ev.at, i == 0
		m := float64(med)
		if ev.opening {
			m *= 2
		}
		target := int(math.Min(m*math.Exp(padSigma*r.NormFloat64()), 12*m))
		have := estTokens(ev.text)
		var before, after []string
		quoted := false
		for have < target {
			kind := weighted(r, weights)
			if kind == 3 && (quoted || i == 0) {
				kind = 0 // one quote per event, and only of an earlier one
			}
			var blk string
			switch kind {
			case 0:
				blk = g.proseBlock(r)
			case 1:
				blk = g.codeBlock(r)
			case 2:
				blk = g.logBlock(r, ev)
			default:
				blk = g.quoteBlock(r, i)
				quoted = true
			}
			if kind == 3 && g.src == "github" {
				before = append(before, blk)
			} else {
				after = append(after, blk)
			}
			have += estTokens(blk) + 1
		}
		if len(before)+len(after) == 0 {
			continue
		}
		parts := append(append(before, ev.text), after...)
		ev.text = strings.Join(parts, "\n\n")
	}
}

// padFill fills the padding placeholders: {e} the component (GitHub) or
// {E} the entity, {h} a handle, {n} an issue number, {k} a small number,
// {file} a source path, {fn} a function, {mod} a module, {pkg} the
// repository's package, {ed} an editor, {y} a year, {ts} a time stamp.
func (g *streamGen) padFill(r *rand.Rand, t string) string {
	year := 1950 + r.IntN(70)
	if g.src == "dyknow" && !g.padAt.IsZero() {
		year = g.padAt.Year() - r.IntN(12) // background from before the fact
	}
	pkg := strings.TrimPrefix(g.repo, "esr-synth/")
	if pkg == "" {
		pkg = "tidekit"
	}
	comp := g.comp
	if comp == "" {
		comp = "loader"
	}
	mod := strings.ReplaceAll(comp, " ", "_")
	return strings.NewReplacer(
		"{e}", "the "+comp, "{E}", g.entName, "{h}", handle(r), "{n}", fmt.Sprint(100+r.IntN(9800)),
		"{k}", fmt.Sprint(2+r.IntN(7)), "{file}", pkg+"/"+mod+"/"+pick(r, padFiles),
		"{fn}", pick(r, padFuncs), "{mod}", pkg+"."+mod, "{pkg}", pkg, "{ed}", pick(r, editorNames),
		"{y}", fmt.Sprint(year), "{ts}", fmt.Sprintf("%02d:%02d:%02d", r.IntN(24), r.IntN(60), r.IntN(60)),
	).Replace(t)
}

var padFiles = []string{"core.py", "utils.py", "io.py", "_retry.py", "session.py", "builder.py", "cache.py", "__init__.py"}
var padFuncs = []string{"_prepare", "load", "_fetch_chunk", "resolve", "flush", "_open_stream", "iter_batches", "commit"}

// proseBlock writes one to three sentences of the source's prose, each
// used once per stream while unused ones remain; a sentence marked "^"
// answers an earlier comment and is not used in the first event.
func (g *streamGen) proseBlock(r *rand.Rand) string {
	pool := githubProse
	switch g.src {
	case "wiki":
		pool = wikiProse
	case "dyknow":
		pool = dyknowProse
	}
	if g.padUsed == nil {
		g.padUsed = map[string]bool{}
	}
	var fresh, used []string
	for _, t := range pool {
		if strings.HasPrefix(t, "^") {
			if g.padFirst {
				continue
			}
			t = t[1:]
		}
		if g.padUsed[t] {
			used = append(used, t)
		} else {
			fresh = append(fresh, t)
		}
	}
	r.Shuffle(len(fresh), func(i, j int) { fresh[i], fresh[j] = fresh[j], fresh[i] })
	r.Shuffle(len(used), func(i, j int) { used[i], used[j] = used[j], used[i] })
	cands := append(fresh, used...)
	var s []string
	for _, t := range cands[:min(len(cands), 1+r.IntN(3))] {
		g.padUsed[t] = true
		s = append(s, g.padFill(r, t))
	}
	return strings.Join(s, " ")
}

func (g *streamGen) codeBlock(r *rand.Rand) string {
	switch g.src {
	case "wiki":
		return g.padFill(r, pick(r, wikiMarkup))
	case "dyknow":
		return g.proseBlock(r)
	}
	return g.padFill(r, pick(r, githubCode))
}

func (g *streamGen) logBlock(r *rand.Rand, ev *evPlan) string {
	switch g.src {
	case "wiki":
		var lines []string
		for n := 2 + r.IntN(5); n > 0; n-- {
			lines = append(lines, g.padFill(r, fmt.Sprintf("(cur | prev) {ts}, %d %s {y} {ed} (talk | contribs) . . (%s bytes) (%+d)",
				1+r.IntN(28), pick(r, months), commas(20000+r.IntN(90000)), r.IntN(400)-200)))
		}
		return strings.Join(lines, "\n")
	case "dyknow":
		return g.proseBlock(r)
	}
	if r.IntN(2) == 0 {
		var lines []string
		day := ev.at.Format("2006-01-02")
		if ev.at.IsZero() {
			day = "2024-03-12"
		}
		sec := r.IntN(20 * 3600)
		for n := 3 + r.IntN(10); n > 0; n-- {
			sec += r.IntN(90)
			ts := fmt.Sprintf("%s %02d:%02d:%02d,%03d ", day, sec/3600, sec/60%60, sec%60, r.IntN(1000))
			lines = append(lines, g.padFill(r, ts+pick(r, logLines)))
		}
		return "```\n" + strings.Join(lines, "\n") + "\n```"
	}
	var b strings.Builder
	b.WriteString("```\nTraceback (most recent call last):\n")
	for n := 2 + r.IntN(5); n > 0; n-- {
		b.WriteString(g.padFill(r, "  File \"/usr/lib/python3/site-packages/{file}\", line {n}, in {fn}\n    "))
		b.WriteString(pick(r, traceLines))
		b.WriteByte('\n')
	}
	b.WriteString(pick(r, []string{"TimeoutError: operation timed out", "OSError: [Errno 24] Too many open files",
		"KeyError: 'split'", "RuntimeError: the event loop is closed", "ValueError: chunk size mismatch"}))
	b.WriteString("\n```")
	return b.String()
}

// quoteBlock quotes the first lines of an earlier event, as a reply does
// (GitHub "> …"; Wikipedia talk-page ":"-indented; DyKnow a passage that
// cites an earlier report).
func (g *streamGen) quoteBlock(r *rand.Rand, i int) string {
	src := g.events[r.IntN(i)].text
	lines := strings.Split(src, "\n")
	var keep []string
	want := 2
	if g.src != "github" {
		want = 1
	}
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && !quoteSkip(l) {
			keep = append(keep, l)
		}
		if len(keep) == want {
			break
		}
	}
	if len(keep) == 0 {
		return g.proseBlock(r)
	}
	switch g.src {
	case "wiki":
		return ":: Re: \"" + strings.Join(keep, " ") + "\": " + g.padFill(r, pick(r, talkReplies))
	case "dyknow":
		return "An earlier report read: \"" + strings.Join(keep, " ") + "\""
	}
	return "> " + strings.Join(keep, "\n> ")
}

// quoteSkip reports lines a reply does not quote: quotes, fences, edit
// summaries, headings, markup, revision-history lines.
func quoteSkip(l string) bool {
	for _, p := range []string{">", "```", ":", "Edit summary:", "==", "{{", "[[", "*", "(cur", "<ref", "Talk:"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

var months = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}

var githubProse = []string{
	"I spent some time bisecting this and it seems to start after the refactor of {file}.",
	"Not sure it is the same root cause, but the symptoms look very close to #{n}.",
	"We hit this in our nightly pipeline as well; it does not happen on every run, which makes it hard to pin down.",
	"For context, we process a few thousand files per job, most of them small, a handful of them very large.",
	"I tried wrapping the call in a retry loop on our side, which hides the problem but obviously is not a fix.",
	"The relevant code path is {fn} in {file}, which is only reached when the cache is cold.",
	"Happy to open a PR if someone can confirm the approach; I would rather not touch {e} without a maintainer's blessing.",
	"^Thanks for looking into this, and sorry for the noise in the earlier comment, I had pasted the wrong log.",
	"@{h} is this something you ran into when you wrote the original implementation?",
	"I could not reproduce it in a fresh virtual environment, so it may depend on something in our setup.",
	"The docs do not say much about this, so it would be good to document the expected behaviour either way.",
	"It looks like the error is swallowed somewhere and re-raised later with less context.",
	"We pinned the previous release in production for now, but we would like to move forward eventually.",
	"Minimal reproduction below; it takes a few minutes to trigger on my laptop.",
	"One more data point: running with a single worker makes it go away, at least in the ten runs I tried.",
	"^I think there are two separate problems here and we should probably split the issue.",
	"Could this be related to the change in how {e} handles partial reads?",
	"This is blocking our upgrade, so any pointer on where to look would be much appreciated.",
	"The test suite passes locally, so whatever it is, it is not covered by the existing tests.",
	"Adding the output of {fn} with debug logging enabled, in case it helps.",
	"I am not a maintainer, just another user who hit the same thing last week.",
	"Looking at the blame, this code has not changed in a while, so the trigger is probably elsewhere.",
	"^Sorry for the delay, I was travelling; I will try the suggestion from above tomorrow.",
	"^The workaround from the earlier comment works for us too, but it is not ideal for large jobs.",
}

var githubCode = []string{
	"```python\nimport {pkg}\n\nclient = {pkg}.Client()\nfor batch in client.{fn}(\"data/train-*.parquet\"):\n    process(batch)\n```",
	"```python\nfrom {mod} import {fn}\n\nresult = {fn}(path, workers={k}, verbose=True)\nprint(len(result))\n```",
	"```bash\npip install -e .\npython -m {pkg}.cli run --workers {k} ./examples/job.yaml\n```",
	"```yaml\njob:\n  name: nightly-ingest\n  workers: {k}\n  retries: 3\n  output: s3://bucket/{pkg}/out/\n```",
	"```\n$ pip freeze | grep -i -e {pkg} -e fsspec -e urllib3\n{pkg}==2.{k}.1\nfsspec==2024.{k}.0\nurllib3==1.26.{n}\n```",
	"```diff\n--- a/{file}\n+++ b/{file}\n@@ -{n},7 +{n},9 @@ def {fn}(self, key):\n-    data = self._read(key)\n+    with self._lock:\n+        data = self._read(key)\n     return data\n```",
	"```python\nimport logging\nlogging.basicConfig(level=logging.DEBUG)\nlogging.getLogger(\"{pkg}\").setLevel(logging.DEBUG)\n```",
}

var logLines = []string{
	"DEBUG {mod}: opening stream for shard {k}",
	"INFO {mod}: {fn} finished in {n} ms",
	"WARNING {mod}: retrying request (attempt {k}/5)",
	"DEBUG urllib3.connectionpool: Starting new HTTPS connection (1): cdn.example.org:443",
	"INFO {mod}: cache miss for key shard-{n}",
	"WARNING {mod}: slow read on shard {k}, {n} ms",
	"ERROR {mod}: {fn} failed, scheduling retry",
	"DEBUG {mod}: released lock on {file}",
}

var traceLines = []string{"return self._read(key)", "data = fetch(url, **kwargs)", "yield from self.{fn}(chunk)",
	"raise TimeoutError(msg) from err", "result = future.result()", "self._open_stream(path)"}

var wikiProse = []string{
	"The region was settled in the early medieval period and changed hands several times before {y}.",
	"Agriculture remains important in the lowlands, while the coastal towns depend on fishing and trade.",
	"The climate is temperate, with mild summers and wet winters along the coast.",
	"A railway line connecting the main towns was completed in {y} and electrified decades later.",
	"The national football team has qualified for the regional championship on several occasions.",
	"Its universities include a technical institute founded in {y}.",
	"The country is divided into provinces, each with an elected assembly.",
	"Tourism grew strongly after {y}, especially in the mountain resorts.",
	"Several dialects are spoken in the north, some of them endangered.",
	"The main river rises in the eastern hills and flows west to the sea.",
	"Cuisine is based on grains, dairy and river fish, with regional variations.",
	"The old town was rebuilt after a fire in {y} and is now a protected site.",
}

var wikiMarkup = []string{
	"<ref>{{cite web |url=https://example.org/stats/{n} |title=Annual statistical yearbook |publisher=Statistics office |access-date={y}-0{k}-1{k}}}</ref>",
	"{{Use dmy dates|date=March {y}}}\n{{Infobox country\n| conventional_long_name = {E}\n| image_flag = Flag of {E}.svg\n}}",
	"== History ==\n{{Main|History of {E}}}\n{{See also|List of rulers of {E}}}",
	"[[Category:Countries in the region]]\n[[Category:States and territories established in {y}]]",
	"{{citation needed|date=June {y}}}<ref name=\"census{y}\" />",
	"== References ==\n{{Reflist|30em}}\n\n== External links ==\n* {{Official website|https://example.org/{n}}}",
}

var talkReplies = []string{
	"I agree with {ed}, but we need a better source than a news article. ~~~~",
	"The statistics office publishes this every year; I will look for the latest edition. ~~~~",
	"This has been discussed before, see the archive. ~~~~",
	"Please do not change figures without a citation. ~~~~",
}

var dyknowProse = []string{
	"{E} has been the subject of several profiles in the regional press.",
	"Analysts described the period after {y} as one of consolidation for {E}.",
	"A retrospective published in {y} summarised the main developments concerning {E}.",
	"Coverage of {E} increased markedly in the following years.",
	"Official documents from {y} refer to {E} in passing.",
	"Commentators noted that public information about {E} is sometimes inconsistent between sources.",
	"An encyclopedia entry on {E} was last revised after {y}.",
	"Several databases list {E}, with entries of varying completeness.",
}
