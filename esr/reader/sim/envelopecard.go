package sim

import (
	"fmt"
	"io"
	"strings"
)

// FiguresCommand writes the anchor figures (EvidencePlots) of the shipped
// calibration into figures/.
const FiguresCommand = "go run ./cmd/esr calibrate --figures figures"

// writeEnvelope writes the model card's envelope section: the suite run on
// c's profiles against reg at render length tokens, then the anchor
// figures.
func writeEnvelope(b io.Writer, reg *EvidenceRegistry, c *Calibration, tokens int) {
	w := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	var fams []string
	var ps []Profile
	for _, f := range c.Families {
		fams = append(fams, f.Family)
		ps = append(ps, f.Profile)
	}
	res := Envelope(reg, fams, ps, tokens)
	w("\n## Envelope suite (hand-built renders; short tables at the bench's median render length, %d tokens)\n\n", tokens)
	w("`sim.Envelope`, held by `TestDefaultReadersPassTheEnvelope` for every family: each registry point in the regime it was measured (its measurement model), inside its published interval or within ±%.2f where none is given; plausibility bounds where no point exists; the registry's rankings of the paper's own models. A point the model cannot reach is printed with its residual and the reason, computed from the registry: the family's own curves pull the model apart by more than the tolerance (*%s*); the curve bends more than twofold in its slope per doubling, held within ±%.2f (*%s*); the family's only point of a skill, whose prior carries half of it, held within ±%.2f (*%s*); another model's level stands in (*%s*); measured beyond the envelope (*%s*); or a regime the model has no act for (*%s*). The bounds are fixed in `esr/reader/sim/envelope.go`, never fitted to reach a target.\n\n",
		envelopeTolerance, outcomeBetween, bendTolerance, outcomeBend, 2*envelopeTolerance, outcomeSole, outcomeStandIn, outcomeOutside, outcomeNotModel)
	outcomes := []string{outcomeInside, outcomeBetween, outcomeBend, outcomeSole, outcomeStandIn, outcomeOutside, outcomeNotModel, outcomeFail}
	w("| family | %s |\n|---|%s\n", strings.Join(outcomes, " | "), strings.Repeat("---|", len(outcomes)))
	for _, f := range fams {
		count := map[string]int{}
		for _, ch := range res.Checks {
			if ch.Family == f {
				count[ch.Outcome]++
			}
		}
		var cells []string
		for _, o := range outcomes {
			cells = append(cells, fmt.Sprint(count[o]))
		}
		w("| %s | %s |\n", f, strings.Join(cells, " | "))
	}
	if fails := res.Failures(); len(fails) > 0 {
		w("\n**%d checks fail**:\n\n", len(fails))
		for _, ch := range fails {
			w("- %s, %s: model %.3f against %.3f [%.3f, %.3f]; %s\n", ch.Family, mdCell(ch.Name), ch.Model, ch.Target, ch.Lo, ch.Hi, mdCell(ch.Reason))
		}
	} else {
		w("\nNo check fails.\n")
	}

	w("\n### Plausibility bounds (no registry point speaks to these)\n\n")
	var names []string
	vals := map[string]map[string]EnvelopeCheck{}
	for _, ch := range res.Checks {
		if ch.Kind != "plausibility" {
			continue
		}
		if vals[ch.Name] == nil {
			vals[ch.Name] = map[string]EnvelopeCheck{}
			names = append(names, ch.Name)
		}
		vals[ch.Name][ch.Family] = ch
	}
	w("| check | bound | %s |\n|---|---|%s\n", strings.Join(fams, " | "), strings.Repeat("---|", len(fams)))
	for _, n := range names {
		var cells []string
		bound := ""
		for _, f := range fams {
			ch := vals[n][f]
			bound = ch.Reason
			cell := fmt.Sprintf("%.3f", ch.Model)
			if !ch.Pass() {
				cell += " **FAIL**"
			}
			cells = append(cells, cell)
		}
		w("| %s | %s | %s |\n", mdCell(n), bound, strings.Join(cells, " | "))
	}

	w("\n### The grid (printed, no bound): the same quantities over rows, distractors, length, layout and conflict\n\n")
	w("| quantity | %s |\n|---|%s\n", strings.Join(fams, " | "), strings.Repeat("---|", len(fams)))
	for _, g := range res.Grid {
		var cells []string
		for _, v := range g.Values {
			cells = append(cells, fmt.Sprintf("%.3f", v))
		}
		w("| %s | %s |\n", mdCell(g.Name), strings.Join(cells, " | "))
	}

	w("\n### Rankings of the paper's own models\n\n")
	w("| registry has | points | published gap | model's gap | outcome |\n|---|---|---|---|---|\n")
	for _, ch := range res.Checks {
		if ch.Kind == "ranking" {
			w("| %s | %s | %+.3f | %+.3f | %s |\n", ch.Family, mdCell(ch.Name), ch.Target, ch.Model, ch.Outcome)
		}
	}

	w("\n### Every registry point beside the model\n\n")
	w("Published value and the model's, in the point's frame (for a shape: the series' published anchor moved by the model's logit drop). Ids are `esr/reader/sim/evidence.json`'s.\n\n")
	w("| family | point | published | model | outcome | reason |\n|---|---|---|---|---|---|\n")
	for _, ch := range res.Checks {
		if ch.Kind != "registry" {
			continue
		}
		model := fmt.Sprintf("%.3f", ch.Model)
		if ch.Outcome == outcomeNotModel {
			model = "—"
		}
		reason := ch.Reason
		if ch.Outcome == outcomeInside {
			reason = ""
		}
		w("| %s | %s | %.3f | %s | %s | %s |\n", ch.Family, mdCell(ch.Name), ch.Target, model, ch.Outcome, mdCell(reason))
	}

	w("\n## The anchors as figures\n\n")
	w("Per skill and family, the model's curve (lines) beside the registry's points (glyphs), each series in its own colour; written by `%s` (PNG and SVG), shown in notebook 40.\n\n", FiguresCommand)
	w("| skill | %s |\n|---|%s\n", strings.Join(fams, " | "), strings.Repeat("---|", len(fams)))
	for _, s := range EvidenceFigureSkills {
		var cells []string
		for _, f := range fams {
			n := EvidenceFigureName(s, f)
			cells = append(cells, fmt.Sprintf("[%s](../figures/%s.png)", n, n))
		}
		label := string(s)
		if s == EvidenceConflict {
			label = "short passages and conflicts"
		}
		w("| %s | %s |\n", label, strings.Join(cells, " | "))
	}
	w("\n![The rows skill of Qwen3-8B: PI-LLM's updates-of-one-key curve and the model](../figures/%s.png)\n", EvidenceFigureName(EvidenceRows, "Qwen3-8B"))
}
