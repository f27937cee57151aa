package nbhelp

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// The default readers were fitted to the paper's Table 2 pooled terms and
// Tables 16–17 per family. A sentence that sets one of those numbers beside
// ours must say "fitted" in that sentence, and must not call the closeness
// agreement or validation. The detector below shares no rule with the
// sentences' generators: it knows only the fitted values (from the shipped
// calibration) and reads text.

// fittedValue is a paper number the shipped calibration was fitted to;
// a family's target (Tables 16–17) counts only in a sentence that names
// the family (its LLM or its profile), so that another table's equal
// number is not taken for it.
type fittedValue struct {
	v     float64
	names []string // any of them in the sentence; none for the panel's
}

// fittedPaperValues are the paper's numbers the shipped calibration was
// fitted to: the panel's (Table 2) and every family's targets.
func fittedPaperValues() []fittedValue {
	c := sim.Calibrated()
	var vs []fittedValue
	for _, tg := range c.Panel {
		vs = append(vs, fittedValue{v: tg.Paper})
	}
	for _, f := range c.Families {
		for _, tg := range f.Targets {
			vs = append(vs, fittedValue{v: tg.Paper, names: []string{strings.ToLower(f.Family), strings.ToLower(f.Profile.Name)}})
		}
	}
	return vs
}

// names reports whether low (a lower-cased sentence) names one of fv's
// families, or fv needs none.
func (fv fittedValue) named(low string) bool {
	if len(fv.names) == 0 {
		return true
	}
	for _, n := range fv.names {
		if strings.Contains(low, n) {
			return true
		}
	}
	return false
}

var (
	fittedNumberRE = regexp.MustCompile(`[+\-−]?\d+\.\d+`)
	sentenceEnd    = regexp.MustCompile(`([.!?])\s+([A-Z*\[(])`)
	agreementRE    = regexp.MustCompile(`(?i)\bagree|validat`)
	oursMarkerRE   = regexp.MustCompile(`(?i)\bours\b|\bour\b|\bfit\b|fit-|\bfitted\b`)
)

// sentences splits text into sentences: at line ends and at a full stop
// followed by a capital (numbers like 0.159 have no space after the dot).
func sentences(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = sentenceEnd.ReplaceAllString(line, "$1\x00$2")
		for _, s := range strings.Split(line, "\x00") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// paperWindow is how far after the word "paper" a number counts as the
// paper's ("the paper's +0.159", "the paper prints +0.025", "(paper 0.466").
const paperWindow = 40

// fittedBesidePaper reports whether sentence s sets one of the fitted
// paper values beside a number of ours: a number within paperWindow
// characters after "paper" equals a fitted value (within rounding), and
// the sentence marks our side (ours, a fit). Table rows (cells joined by
// " | ") are not sentences.
func fittedBesidePaper(s string, fitted []fittedValue) bool {
	if strings.Contains(s, " | ") || !oursMarkerRE.MatchString(s) {
		return false
	}
	low := strings.ToLower(s)
	for i := strings.Index(low, "paper"); i >= 0; {
		end := min(len(s), i+paperWindow)
		for _, tok := range fittedNumberRE.FindAllString(s[i:end], -1) {
			v, err := strconv.ParseFloat(strings.Replace(tok, "−", "-", 1), 64)
			if err != nil {
				continue
			}
			for _, f := range fitted {
				if math.Abs(v-f.v) < 5e-4 && f.v != 0 && f.named(low) {
					return true
				}
			}
		}
		j := strings.Index(low[i+1:], "paper")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// fittedProblems lists the sentences of text that set a fitted number
// beside the paper without saying "fitted", or call it agreement.
func fittedProblems(text string, fitted []fittedValue) []string {
	var bad []string
	for _, s := range sentences(text) {
		if !fittedBesidePaper(s, fitted) {
			continue
		}
		if !strings.Contains(strings.ToLower(s), "fitted") {
			bad = append(bad, "no \"fitted\": "+s)
		} else if agreementRE.MatchString(strings.ReplaceAll(strings.ToLower(s), "disagree", "")) {
			bad = append(bad, "fitted, yet called agreement or validation: "+s)
		}
	}
	return bad
}

// The detector catches the sentence this rule is about and passes its
// fitted wording.
func TestFittedDetectorReadsSentences(t *testing.T) {
	fitted := []fittedValue{{v: 0.159}, {v: 0.466, names: []string{"llama-3.1-8b"}}}
	bad := "render: ours +0.202 [+0.166, +0.239] is positive; the paper's +0.159 [+0.114, +0.207] is positive — same direction. Next sentence."
	if got := fittedProblems(bad, fitted); len(got) != 1 {
		t.Errorf("a fitted number beside the paper without \"fitted\": %q", got)
	}
	good := "render, fitted to the paper's value (closeness is the fit, not a check): ours +0.202; the paper's +0.159."
	if got := fittedProblems(good, fitted); len(got) != 0 {
		t.Errorf("a sentence that says fitted: %q", got)
	}
	if got := fittedProblems("Fitted to the paper's +0.159, ours +0.2 agrees with it.", fitted); len(got) != 1 {
		t.Errorf("fitted yet called agreement: %q", got)
	}
	if got := fittedProblems("The paper found +0.159 for render.", fitted); len(got) != 0 {
		t.Errorf("the paper's number alone is not beside ours: %q", got)
	}
	// A family's fitted number counts where the family is named.
	if got := fittedProblems("Ours goes to 0.5 where the paper's goes to 0.466.", fitted); len(got) != 0 {
		t.Errorf("another table's equal number taken for a family's target: %q", got)
	}
	if got := fittedProblems("fit-llama-3.1-8b: ours 0.735, the paper's 0.466.", fitted); len(got) != 1 {
		t.Errorf("a family's target beside ours without \"fitted\": %q", got)
	}
}

// No page of 40 or 41 states a fitted number beside the paper without
// "fitted" in the same sentence: their executed outputs when make test has
// written them, and always the library sentences those pages print,
// computed on the bundled synthetic bench.
func TestFittedNumbersBesideThePaperSayFitted(t *testing.T) {
	fitted := fittedPaperValues()
	if dir := executedDir(); dirExists(dir) {
		for _, name := range []string{"40-explorer", "41-render-confound"} {
			p, found, err := loadPage(dir, name)
			if err != nil {
				t.Fatal(err)
			}
			if !found {
				t.Errorf("%s: no executed copy in %s", name, dir)
				continue
			}
			for _, c := range p.cells {
				for _, s := range fittedProblems(c.text, fitted) {
					t.Errorf("%s: %s", name, s)
				}
			}
		}
	}
	if testing.Short() {
		t.Skip("-short: the library sentences need the suite's rows")
	}
	b := Bench("synthetic")
	res := Run(lab.SuiteRenderConfound, b)
	cs := Must(res.Terms(lab.Table2Decomposition))
	texts := append([]string{}, lab.Table2Versus(cs, res.Rows(), b.Name())...)
	texts = append(texts, lab.RenderOrMechanism(cs, res.Rows(), b.Name()), lab.DecompositionSummary(cs, b.Name()),
		lab.CalibrationReading(sim.Calibrated()))
	texts = append(texts, lab.Table3Versus(Must(res.Terms(lab.Table3MechanismByStratum)), res.Rows(), b.Name())...)
	fr := Run(lab.SuiteFormats, b)
	texts = append(texts, lab.Table17Verdict(Must(fr.Terms(lab.Table17RenderFormats)), b.Name()))
	caught := 0
	for _, text := range texts {
		for _, s := range sentences(text) {
			if fittedBesidePaper(s, fitted) {
				caught++
			}
		}
		for _, s := range fittedProblems(text, fitted) {
			t.Errorf("library sentence: %s", s)
		}
	}
	// The detector must see the fitted comparisons it guards, or it
	// checks nothing.
	if caught < 3 {
		t.Errorf("the detector found %d sentences with a fitted number beside the paper; Table 2's three terms alone are 3", caught)
	}
}

func dirExists(d string) bool {
	st, err := os.Stat(d)
	return err == nil && st.IsDir()
}

// simulatedUse marks a code cell that evaluates or shows simulated readers.
var simulatedUse = regexp.MustCompile(`nbhelp\.(Readers|ScriptedReaders|Run|RunWith|ReadersNote)\(|\bsim\.`)

// Every page that uses a simulated reader links the model card, in its own
// Markdown or through nbhelp.ReadersNote, whose note for a simulated panel
// links it.
func TestPagesWithSimulatedReadersLinkTheModelCard(t *testing.T) {
	for _, rs := range [][]reader.Reader{Readers(), ScriptedReaders()} {
		if note := readersNote(rs); !strings.Contains(note, "](../docs/reader-model.md)") {
			t.Errorf("ReadersNote for %v links no model card: %s", rs, note)
		}
	}
	paths, err := filepath.Glob(filepath.Join("..", "notebooks", "*.ipynb"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no notebooks: %v", err)
	}
	for _, p := range paths {
		uses, links := false, false
		for _, c := range readCells(t, p) {
			src := sourceText(c.Source)
			switch c.Type {
			case "code":
				uses = uses || simulatedUse.MatchString(src)
				links = links || strings.Contains(src, "nbhelp.ReadersNote()")
			case "markdown":
				links = links || strings.Contains(src, "](../docs/reader-model.md)")
			}
		}
		if uses && !links {
			t.Errorf("%s uses simulated readers and links no model card (../docs/reader-model.md or nbhelp.ReadersNote())", filepath.Base(p))
		}
	}
}
