package nbhelp

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/internal/site"
)

// exerciseRunsEnv turns on TestExercisesRunAsAStudentDoes: it executes
// every lab-path notebook once per exercise (about 15 minutes on two
// cores), so it is not part of make test; run it with
//
//	ESRKIT_EXERCISE_RUNS=1 go test ./nbhelp -run TestExercisesRunAsAStudentDoes -v -timeout 60m
//
// after make setup and esr prepare (the notebooks read the row cache).
const exerciseRunsEnv = "ESRKIT_EXERCISE_RUNS"

// exerciseRun is one exercise done as a student does it: the edits the
// exercise names, the cells to rerun after them (each named by a piece of
// its source after the edits), and what the rerun cells must show for the
// folded answer to hold, read from the new page (after) and, where the
// answer compares, the page before the edit.
type exerciseRun struct {
	edits []exerciseEdit
	// editsFor, when set, computes the edits (an exercise that steps
	// until it finds something: the test goes straight to it).
	editsFor func() ([]exerciseEdit, error)
	rerun    []string
	check    func(before, after *exercisePage) error
}

type exerciseEdit struct {
	Old string `json:"old"`
	New string `json:"new"`
}

// exercisePage is a notebook's executed copy: its cells' text (page) and
// each code cell's raw HTML output, for marks the text loses.
type exercisePage struct {
	*page
	html map[string]string // code cell source → its HTML outputs, joined
}

// rawHTML is the HTML output of the code cell whose source holds every src.
func (p *exercisePage) rawHTML(src ...string) string {
	for s, h := range p.html {
		all := true
		for _, x := range src {
			all = all && strings.Contains(s, x)
		}
		if all {
			return h
		}
	}
	p.missing("no code cell with HTML output containing %q", src)
	return ""
}

var (
	mechStepRE = regexp.MustCompile(`Mechanism step \(render-only → fine-ledger\): [^()]*\(([^)]*)\)`)
	describeRE = func(label string) *regexp.Regexp {
		return regexp.MustCompile(regexp.QuoteMeta(label) + ` is ([-+\d.]+) \[([-+\d.]+), ([-+\d.]+)\]`)
	}
	markRE   = regexp.MustCompile(`(?s)<mark[^>]*>(.*?)</mark>`)
	columnRE = regexp.MustCompile(`(?s)<b>([^<]*)</b>(?:<br><small>[^<]*</small>)?<pre class="esr-render"[^>]*>(.*?)</pre>`)
)

// renderStepFlips counts the verdicts that turn right and wrong at the
// render step in a cell's Flips output.
func renderStepFlips(text string) (right, wrong int) {
	return strings.Count(text, "turns right from graphrag-abstain to render-only"), strings.Count(text, "turns wrong from graphrag-abstain to render-only")
}

// mechanismOnlyTurnsRight checks the arithmetic's mechanism step: verdicts
// change, and only from wrong to right.
func mechanismOnlyTurnsRight(p *exercisePage, text string) error {
	m := p.match(mechStepRE, text)
	if len(m) < 2 {
		return fmt.Errorf("no mechanism step on the page")
	}
	if !strings.Contains(m[1], "turns right") || strings.Contains(m[1], "turns wrong") {
		return fmt.Errorf("mechanism step: %q", m[0])
	}
	return nil
}

// exerciseRuns are the lab path's exercises that edit their page.
var exerciseRuns = map[string]exerciseRun{
	"00-quickstart#1": {
		edits: []exerciseEdit{{"stratum := esr.RevertedRevert", "stratum := esr.CrossSourceConflict"}},
		rerun: []string{"lab.PickRenderFlip(nbhelp.Ctx, b, stratum"},
		check: func(_, a *exercisePage) error {
			out := a.cell("lab.PickRenderFlip(nbhelp.Ctx, b, stratum")
			right, wrong := renderStepFlips(out)
			if !strings.Contains(out, "(gold: ABSTAIN)") || wrong == 0 || right > 0 || !strings.Contains(out, "status: unresolved") {
				return fmt.Errorf("render step: %d turn right, %d wrong; gold ABSTAIN %v; unresolved shown %v", right, wrong,
					strings.Contains(out, "(gold: ABSTAIN)"), strings.Contains(out, "status: unresolved"))
			}
			return mechanismOnlyTurnsRight(a, out)
		}},
	"41-render-confound#1": {
		edits: []exerciseEdit{{"var stratum = esr.RevertedRevert", "var stratum = esr.CrossSourceConflict"}},
		rerun: []string{"var stratum", "nbhelp.ShowRenders(w)", "w.Arithmetic()"},
		check: func(_, a *exercisePage) error {
			q, steps := a.cell("ShowRenders(w)", "lab.PickWorked(b, stratum"), a.cell("w.Arithmetic()")
			right, wrong := renderStepFlips(steps)
			if !strings.Contains(q, "(gold: ABSTAIN)") || !strings.Contains(q, "status: unresolved") || wrong != 1 || right != 0 {
				return fmt.Errorf("render step: %d turn right, %d wrong (the answer: one, and it falls)", right, wrong)
			}
			return mechanismOnlyTurnsRight(a, steps)
		}},
	"41-render-confound#2": {
		edits: []exerciseEdit{{"terms := eval.RenderMatched", "terms := eval.Headline"}},
		rerun: []string{"terms := eval.Headline"},
		check: func(_, a *exercisePage) error {
			t := a.tableFrom("terms := eval.Headline", "Pair vs question-clustered")
			r := t.column("width ratio")
			if len(r) < 3 {
				return fmt.Errorf("%d width ratios for the headline", len(r))
			}
			for i, x := range r[:3] {
				if !(x > 1) {
					return fmt.Errorf("%s: width ratio %v: it does not widen", t.rows[i][0], x)
				}
			}
			return nil
		}},
	"41-render-confound#3": {
		edits: []exerciseEdit{{"sim.ScriptedCapabilities{SortsByTime: true, UsesStatus: false, OnConflict: sim.ConflictAbstain}",
			"sim.ScriptedCapabilities{SortsByTime: false, UsesStatus: false, OnConflict: sim.ConflictFirst}"}},
		rerun: []string{`NewScriptedWith("mine"`},
		check: func(_, a *exercisePage) error {
			t := a.tableFrom(`NewScriptedWith("mine"`, "Table 2")
			_, rlo, _ := term(t, "render")
			md, mlo, mhi := term(t, "fine-d mechanism")
			if !(rlo > 0) || md != 0 || mlo != 0 || mhi != 0 {
				return fmt.Errorf("first-row reader without dates: render lower bound %+.3f, mechanism %+.3f [%+.3f, %+.3f]", rlo, md, mlo, mhi)
			}
			return nil
		}},
	"41-render-confound#4": {
		edits: []exerciseEdit{{"withoutT2 := false", "withoutT2 := true"}},
		rerun: []string{"withoutT2 := true"},
		check: func(b, a *exercisePage) error {
			t := a.tableFrom("withoutT2 := true", "Does the fitted split move across starts")
			var render []float64
			for _, r := range t.rows {
				if !strings.Contains(r[0], "without Table 2") {
					return fmt.Errorf("a fit with Table 2 is left: %q", r[0])
				}
				render = append(render, a.number(at(t, r, "render"), t.title))
				if c := a.number(at(t, r, "coarse-d mechanism"), t.title); !(c < 0) {
					return fmt.Errorf("%s: coarse-d %+.3f, not negative", r[0], c)
				}
			}
			if lo, hi := span(render); len(render) == 0 || hi-lo > 0.03 {
				return fmt.Errorf("render spans %+.3f to %+.3f without Table 2", lo, hi)
			}
			return nil
		}},
	"40-explorer#1": {
		edits: []exerciseEdit{{`Reader:    nbhelp.Must(sim.ProfileNamed("fit-llama-3.1-8b")),`, `Reader:    nbhelp.Must(sim.ProfileNamed("date-sorter")),`}},
		rerun: []string{"var settings", "ex.View(nbhelp.Ctx, settings)"},
		check: func(b, a *exercisePage) error {
			r0 := b.match(describeRE("render (render-only − graphrag-abstain)"), b.cell("ex.View(nbhelp.Ctx, settings)"))
			r := a.match(describeRE("render (render-only − graphrag-abstain)"), a.cell("ex.View(nbhelp.Ctx, settings)"))
			// A mechanism term with too few discordant pairs has no
			// interval at all: none that excludes 0, as the answer says.
			m := a.match(regexp.MustCompile(`fine-d mechanism \(fine-ledger − render-only\) is ([-+\d.]+)(?: \[([-+\d.]+), ([-+\d.]+)\])?`), a.cell("ex.View(nbhelp.Ctx, settings)"))
			if len(r0) < 4 || len(r) < 4 || len(m) < 4 {
				return fmt.Errorf("no render or mechanism term on the page")
			}
			d0, d, lo, hi := a.number(r0[1], "render"), a.number(r[1], "render"), a.number(r[2], "lo"), a.number(r[3], "hi")
			md, mlo, mhi := a.number(m[1], "mechanism"), 0.0, 0.0
			if m[2] != "" {
				mlo, mhi = a.number(m[2], "lo"), a.number(m[3], "hi")
			}
			if lo > 0 || hi < 0 || math.Abs(d) >= math.Abs(d0) || mlo > 0 || mhi < 0 || math.Abs(md) >= math.Abs(d0) {
				return fmt.Errorf("date-sorter: render %+.3f [%+.3f, %+.3f] (was %+.3f), mechanism %+.3f [%+.3f, %+.3f]", d, lo, hi, d0, md, mlo, mhi)
			}
			return nil
		}},
	"40-explorer#2": {
		edits: []exerciseEdit{{"NoiseP:    0,", "NoiseP:    0.3,"}},
		rerun: []string{"var settings", "ex.View(nbhelp.Ctx, settings)"},
		check: func(b, a *exercisePage) error {
			get := func(p *exercisePage, label string) string {
				m := p.match(describeRE(label), p.cell("ex.View(nbhelp.Ctx, settings)"))
				if len(m) < 4 {
					return ""
				}
				return strings.Join(m[1:], " ")
			}
			r0, r1 := get(b, "render (render-only − graphrag-abstain)"), get(a, "render (render-only − graphrag-abstain)")
			m0, m1 := get(b, "fine-d mechanism (fine-ledger − render-only)"), get(a, "fine-d mechanism (fine-ledger − render-only)")
			if r0 == "" || r0 != r1 || m0 == m1 {
				return fmt.Errorf("render %q → %q, mechanism %q → %q", r0, r1, m0, m1)
			}
			return nil
		}},
	"40-explorer#3": {
		editsFor: func() ([]exerciseEdit, error) {
			i, err := firstMechanismFlip()
			return []exerciseEdit{{"i := nbhelp.Must(ex.FirstRenderFlip(nbhelp.Ctx, settings, nbhelp.ScriptedReaders()...))", fmt.Sprintf("i := %d", i)}}, err
		},
		rerun: []string{"ex.Drill(nbhelp.Ctx, settings, qids[i]"},
		check: func(_, a *exercisePage) error {
			h := a.rawHTML("ex.Drill(nbhelp.Ctx, settings, qids[i]")
			status := map[string]bool{"LIVE": true, "DEPRECATED": true, "REFINED": true, "UNRELATED": true, "neutral": true, "ok": true, "unresolved": true}
			marked := 0
			for _, col := range columnRE.FindAllStringSubmatch(h, -1) {
				if html.UnescapeString(col[1]) != memory.FineLedger {
					continue
				}
				for _, m := range markRE.FindAllStringSubmatch(col[2], -1) {
					w := strings.TrimSpace(html.UnescapeString(m[1]))
					if w == "" {
						continue
					}
					if !status[w] {
						return fmt.Errorf("fine-ledger's column marks %q, not a status word", w)
					}
					marked++
				}
			}
			if marked == 0 {
				return fmt.Errorf("fine-ledger's column marks nothing")
			}
			return nil
		}},
	"40-explorer#4": {
		// The date × status diagram's cell, not the folded conflict × status one below it.
		edits: []exerciseEdit{{"\tgrid, settings.Reader, eval.InteractiveStats", "\tgrid, sim.Profile{Name: \"phase\", FirstRowBias: 0.5, AbstainOnConflict: 0.5}, eval.InteractiveStats"}},
		rerun: []string{"sim.Date, sim.Status"},
		check: func(_, a *exercisePage) error {
			t := a.tableFrom("sim.Date, sim.Status", "Phase diagram: render and mechanism terms")
			dominant := 0
			for _, r := range t.rows {
				x := a.number(at(t, r, "date"), t.title)
				if x == 1 && a.number(at(t, r, "render Δ"), t.title) != 0 {
					return fmt.Errorf("render term %s at date 1", at(t, r, "render Δ"))
				}
				if at(t, r, "dominant") == "render" {
					if x == 1 {
						return fmt.Errorf("render dominates at date 1")
					}
					dominant++
				}
			}
			if dominant == 0 {
				return fmt.Errorf("the render term dominates nowhere")
			}
			return nil
		}},
	"43-provenance#1": {
		edits: []exerciseEdit{{"stratum := esr.RevertedRevert", "stratum := esr.Refinement"}},
		rerun: []string{"lab.PickWorked(b, stratum, esr.Provenance)"},
		check: func(_, a *exercisePage) error {
			out := a.cell("lab.PickWorked(b, stratum, esr.Provenance)")
			right := func(m string) (int, int) {
				g := a.match(regexp.MustCompile(`(\d+)/(\d+) on `+regexp.QuoteMeta(m)+`\b`), out)
				if len(g) < 3 {
					return -1, -1
				}
				return int(a.number(g[1], m)), int(a.number(g[2], m))
			}
			d, n := right(memory.CoarseDiscard)
			r, _ := right(memory.CoarseRetain)
			f, _ := right(memory.FineLedger)
			if n <= 0 || d != 0 || r != n || f > r {
				return fmt.Errorf("right on coarse-discard %d, coarse-retain %d, fine-ledger %d of %d", d, r, f, n)
			}
			return nil
		}},
	"45-deployed#1": {
		edits: []exerciseEdit{{"lab.EvaluateParaphraseCurve(nbhelp.Ctx, nbhelp.Bench(\"synthetic\"), lab.ParaphraseSeries,",
			"lab.EvaluateParaphraseCurve(nbhelp.Ctx, nbhelp.Bench(\"synthetic\"), append(lab.ParaphraseSeries, memory.MustParseSpec(\"graphiti@dup=0.5\")),"}},
		rerun: []string{"graphiti@dup=0.5"},
		check: func(_, a *exercisePage) error {
			t := a.tableFrom("graphiti@dup=0.5", "over the paraphrase rate")
			rows := map[string][]float64{}
			for _, r := range t.rows {
				if at(t, r, "read by") != "oracle read-out" {
					continue
				}
				var vs []float64
				for _, c := range t.header {
					if strings.HasPrefix(c, "paraphrase=") {
						vs = append(vs, a.number(at(t, r, c), t.title))
					}
				}
				rows[r[0]] = vs
			}
			g, g0, h := rows["graphiti"], rows["graphiti@dup=0"], rows["graphiti@dup=0.5"]
			if len(h) == 0 || len(g) != len(h) || len(g0) != len(h) || h[0] != g[0] {
				return fmt.Errorf("curves: graphiti %v, dup=0 %v, dup=0.5 %v", g, g0, h)
			}
			for i := range h {
				lo, hi := math.Min(g[i], g0[i]), math.Max(g[i], g0[i])
				if h[i] < lo-1e-9 || h[i] > hi+1e-9 {
					return fmt.Errorf("rate %d: dup=0.5 %.3f outside [%.3f, %.3f]", i, h[i], lo, hi)
				}
			}
			return nil
		}},
	"45-deployed#2": {
		edits: []exerciseEdit{{"t, sentences := nbhelp.Must2(lab.AssumptionsTable(",
			"cls = append(cls, memory.MustParseSpec(\"mem0-v3@dedup-k=0\"))\nt, sentences := nbhelp.Must2(lab.AssumptionsTable("}},
		rerun: []string{"mem0-v3@dedup-k=0"},
		check: func(_, a *exercisePage) error {
			out := a.cell("mem0-v3@dedup-k=0")
			score := func(class string) (oracle, readers, graOracle, graReaders float64) {
				m := a.match(regexp.MustCompile(regexp.QuoteMeta(class)+` \([^)]*\) scores ([\d.]+) by its oracle read-out and ([\d.]+) by the default readers \(graphrag-abstain: ([\d.]+) and ([\d.]+)\)`), out)
				if len(m) < 5 {
					return math.NaN(), math.NaN(), math.NaN(), math.NaN()
				}
				return a.number(m[1], class), a.number(m[2], class), a.number(m[3], class), a.number(m[4], class)
			}
			o0, r0, gro, grr := score("mem0-v3@dedup-k=0")
			r1 := readersOf(a, out, "mem0-v3")
			if !(r0 > r1) || math.Abs(r0-grr) > 0.1 || o0 != gro {
				return fmt.Errorf("dedup-k=0: readers %.3f (mem0-v3 %.3f, d-blind %.3f), oracle %.3f (d-blind %.3f)", r0, r1, grr, o0, gro)
			}
			return nil
		}},
	"E-checks#1": {
		edits: []exerciseEdit{{"alpha := 0.05", "alpha := 0.01"}},
		rerun: []string{"alpha := 0.01"},
		check: func(b, a *exercisePage) error {
			rejects := func(p *exercisePage, src, fam string) int {
				m := p.match(regexp.MustCompile(fam+`\*\*: [^\n]*rejects (\d+) of`), p.cell(src))
				if len(m) < 2 {
					return -1
				}
				return int(p.number(m[1], fam))
			}
			l0, m0 := rejects(b, "alpha := 0.05", "Llama"), rejects(b, "alpha := 0.05", "Mistral")
			l1, m1 := rejects(a, "alpha := 0.01", "Llama"), rejects(a, "alpha := 0.01", "Mistral")
			if l1 != l0 || l1 != 1 || m0 != 3 || m1 != 2 {
				return fmt.Errorf("Llama %d → %d, Mistral %d → %d rejections", l0, l1, m0, m1)
			}
			return nil
		}},
}

// readersOf is the default readers' score of class at its own line in a
// cell's assumption sentences.
func readersOf(p *exercisePage, out, class string) float64 {
	m := p.match(regexp.MustCompile(`(?:^|[\s,])`+regexp.QuoteMeta(class)+` \([^)]*\) scores [\d.]+ by its oracle read-out and ([\d.]+) by the default readers`), out)
	if len(m) < 2 {
		return math.NaN()
	}
	return p.number(m[1], class)
}

// exercisesReadOnly are the lab path's exercises with no edit, and why:
// their answers are checked on the page as it is
// (TestExerciseAnswersAgreeWithTheirPage).
var exercisesReadOnly = map[string]string{
	"43-provenance#2": "compares the two tables already on the page",
	"45-deployed#3":   "asks for an adapter of the student's own; its answer is what the protocol builds, checked by TestExercises",
	"45-deployed#4":   "finds a row of the table already on the page",
	"E-checks#2":      "reads Table 16 already on the page",
}

// firstMechanismFlip is the index of the first question of the explorer's
// default scope on which a reader's verdict changes between render-only
// and fine-ledger: where a student stepping i stops.
func firstMechanismFlip() (int, error) {
	ex := lab.NewExplorer(Bench("synthetic"))
	s := lab.DefaultSettings()
	qids, err := ex.QIDs(s)
	if err != nil {
		return 0, err
	}
	for i, q := range qids {
		w, err := ex.Drill(Ctx, s, q, ScriptedReaders()...)
		if err != nil {
			return 0, err
		}
		ro, fl := indexOf(memory.Strings(w.Memories), memory.RenderOnly), indexOf(memory.Strings(w.Memories), memory.FineLedger)
		for ri := range w.Readers {
			if w.Answers[ri][ro].Correct != w.Answers[ri][fl].Correct {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("no question of %s flips at the mechanism step", s.Scope())
}

// TestExercisesRunAsAStudentDoes does every exercise of the lab path on a
// copy of its notebook (scripts/nbexercise.py): runs the notebook, makes
// the exercise's edit, reruns the cells the exercise names, prints each
// rerun cell's time (build and run, on this machine), and reads the folded
// answer against the new page. Exercises with no edit are listed with why.
// Slow (every notebook once per exercise): it runs only with
// ESRKIT_EXERCISE_RUNS=1 (exerciseRunsEnv).
func TestExercisesRunAsAStudentDoes(t *testing.T) {
	if os.Getenv(exerciseRunsEnv) != "1" {
		t.Skipf("set %s=1 to run every lab-path exercise on a copy of its notebook (about 15 minutes)", exerciseRunsEnv)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	onPath := map[string]bool{}
	for _, st := range site.LabPath {
		if !st.Extra {
			onPath[st.Notebook] = true
		}
	}
	var total []string
	for _, e := range exercises {
		if !onPath[e.Notebook] {
			continue
		}
		id := fmt.Sprintf("%s#%d", e.Notebook, e.N)
		run, ok := exerciseRuns[id]
		if !ok {
			if why, ok := exercisesReadOnly[id]; ok {
				t.Logf("%s: no edit (%s)", id, why)
			} else {
				t.Errorf("%s: neither an edit to run nor a reason it has none", id)
			}
			continue
		}
		t.Run(id, func(t *testing.T) {
			edits := run.edits
			if run.editsFor != nil {
				if edits, err = run.editsFor(); err != nil {
					t.Fatal(err)
				}
			}
			before, after, times := runExercise(t, root, e.Notebook, edits, run.rerun)
			for _, tm := range times {
				t.Logf("rerun %-60q %6.2f s", tm.Name, tm.Seconds)
				total = append(total, fmt.Sprintf("%-22s %-60q %6.2f s", id, tm.Name, tm.Seconds))
			}
			err := run.check(before, after)
			for _, m := range after.problems {
				t.Errorf("%s: not on the new page: %s", id, m)
			}
			if err != nil {
				t.Errorf("%s: the folded answer %q does not hold on the new page: %v", id, e.Expect, err)
			}
		})
	}
	t.Logf("every rerun cell, in order (build and run, this machine):\n%s", strings.Join(total, "\n"))
}

type rerunTime struct {
	Cell    int     `json:"cell"`
	Name    string  `json:"name"`
	Seconds float64 `json:"seconds"`
}

// runExercise copies notebook NAME into a fresh folder at the top of the
// repository (so the copy's ${GONB_DIR}/.. is the repository, as its first
// cell needs), runs scripts/nbexercise.py on it with the environment
// scripts/run-notebooks.sh gives notebooks, and reads the pages before and
// after the edit and the rerun times. The folder is removed after.
func runExercise(t *testing.T, root, name string, edits []exerciseEdit, rerun []string) (before, after *exercisePage, times []rerunTime) {
	t.Helper()
	dir, err := os.MkdirTemp(root, ".exercise-run-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	src, err := os.ReadFile(filepath.Join(root, "notebooks", name+".ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	nbPath := filepath.Join(dir, name+".ipynb")
	if err := os.WriteFile(nbPath, src, 0o644); err != nil {
		t.Fatal(err)
	}
	spec := map[string]any{"notebook": nbPath, "out": filepath.Join(dir, "after.ipynb"), "before": filepath.Join(dir, "before.ipynb"),
		"times": filepath.Join(dir, "times.json"), "edits": edits, "rerun": rerun}
	raw, _ := json.Marshal(spec)
	specPath := filepath.Join(dir, "spec.json")
	if err := os.WriteFile(specPath, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	gopath, err := exec.Command("go", "env", "GOPATH").Output()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", filepath.Join(root, "scripts", "jupyter-env.sh"), "python3", filepath.Join(root, "scripts", "nbexercise.py"), specPath)
	cmd.Dir = root
	// The notebook's figures go to the run's folder, not over figures/.
	cmd.Env = append(os.Environ(), "ESRKIT_ROOT="+root, "ESRKIT_NONINTERACTIVE=1", "CGO_ENABLED=0", FiguresEnv+"="+filepath.Join(dir, "figures"),
		"PATH="+filepath.Join(strings.TrimSpace(string(gopath)), "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, out)
	}
	load := func(file string) *exercisePage {
		p, found, err := loadPage(dir, strings.TrimSuffix(file, ".ipynb"))
		if err != nil || !found {
			t.Fatalf("%s: %v (found %v)", file, err, found)
		}
		return &exercisePage{page: p, html: rawOutputs(t, filepath.Join(dir, file))}
	}
	raw, err = os.ReadFile(filepath.Join(dir, "times.json"))
	if err != nil || json.Unmarshal(raw, &times) != nil {
		t.Fatalf("rerun times: %v", err)
	}
	return load("before.ipynb"), load("after.ipynb"), times
}

// rawOutputs maps each code cell's source to its HTML outputs, joined.
func rawOutputs(t *testing.T, path string) map[string]string {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Type    string          `json:"cell_type"`
			Source  json.RawMessage `json:"source"`
			Outputs []struct {
				Data map[string]json.RawMessage `json:"data"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(raw, &nb); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		var hs []string
		for _, o := range c.Outputs {
			if d, ok := o.Data["text/html"]; ok {
				hs = append(hs, sourceText(d))
			}
		}
		out[sourceText(c.Source)] = strings.Join(hs, "\n")
	}
	return out
}
