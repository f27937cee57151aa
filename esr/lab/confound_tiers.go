package lab

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
)

// TierTable is the paper's Figure 2 as a table: each conflict-locality tier
// with its live example and what a d-blind, a coarse and the fine memory
// answer on it (structured read-outs, rule scorer).
func TierTable() *eval.Table {
	t := &eval.Table{ID: "figure2-tiers", Title: "Figure 2: conflict locality determines memory need",
		Columns: append([]string{"tier", "where the conflict lives", "minimal capability", "example", "gold"}, memory.Strings(tierMemories)...)}
	answers := tierAnswers()
	for i, tier := range bench.Tiers() {
		var texts []string
		for _, e := range tier.Stream.Events {
			texts = append(texts, e.ID+": "+e.Text)
		}
		row := []any{tier.Name, tier.Where, tier.Needs, join(texts), tier.Gold}
		for _, a := range answers[i*len(tierMemories) : (i+1)*len(tierMemories)] {
			row = append(row, a.Answer)
		}
		t.AddRow(row...)
	}
	t.Notes = []string{"answers are each memory's structured read-out (the oracle reader) with the rule scorer's relations",
		"tiers are a priority ordering: the highest applicable tier's state subsumes the lower ones through its status field"}
	return t
}

// tierAnswer is one memory's structured read-out on one tier's example.
type tierAnswer struct {
	Tier, Memory string
	Answer, Gold string
	Correct      bool // the exact judge's verdict (judge.Exact)
}

// tierMemories are the memories TierTable and TierPlot compare: the
// d-blind store, coarse invalidation and the fine ledger.
var tierMemories = memory.Specs(memory.GraphRAGAbstain, memory.CoarseRetain, memory.FineLedger)

// tierAnswers is every tierMemories memory's answer on every tier's
// example (bench.Tiers), in tier order: what TierTable lists and TierPlot
// draws.
func tierAnswers() []tierAnswer {
	var out []tierAnswer
	for _, tier := range bench.Tiers() {
		qa := esr.QA{QID: tier.Stream.ID, Question: tier.Question, GoldAnswer: tier.Gold}
		k, _ := qa.Locate(tier.Atoms)
		q := qa.Query(k)
		for _, m := range tierMemories {
			a := memory.MustBuild(m, tier.Stream, tier.Atoms, memory.Options{}).Answer(q)
			out = append(out, tierAnswer{Tier: tier.Name, Memory: m.String(), Answer: a.String(), Gold: tier.Gold,
				Correct: judge.Exact{}.Decide(tier.Gold, nil, a).Correct})
		}
	}
	return out
}

// TierPlot is the paper's Figure 2 as measured: one row per conflict
// tier (L1 at the bottom, L3 at the top: the priority ordering), one
// column per memory, a filled dot where the memory's read-out answers the
// tier's example correctly and a cross where it does not, with the answer
// beside it. It draws tierAnswers.
func TierPlot() *plot.Plot {
	answers := tierAnswers()
	p := plot.New()
	p.Title.Text = "Figure 2: which memory answers each tier's example?"
	p.X.Label.Text = "memory (filled dot: answers the gold; cross: does not)"
	var tiers []string
	col := map[string]int{}
	for i, m := range tierMemories {
		col[m.String()] = i
	}
	var right, wrong plotter.XYs
	var labels plotter.XYLabels
	for _, a := range answers {
		if len(tiers) == 0 || tiers[len(tiers)-1] != a.Tier {
			tiers = append(tiers, a.Tier)
		}
		xy := plotter.XY{X: float64(col[a.Memory]), Y: float64(len(tiers) - 1)}
		if a.Correct {
			right = append(right, xy)
		} else {
			wrong = append(wrong, xy)
		}
		labels.XYs = append(labels.XYs, plotter.XY{X: xy.X + 0.08, Y: xy.Y})
		labels.Labels = append(labels.Labels, a.Answer)
	}
	for _, g := range []struct {
		xys   plotter.XYs
		shape draw.GlyphDrawer
	}{{right, draw.CircleGlyph{}}, {wrong, draw.CrossGlyph{}}} {
		if len(g.xys) == 0 {
			continue
		}
		s, _ := plotter.NewScatter(g.xys)
		s.GlyphStyle = draw.GlyphStyle{Shape: g.shape, Radius: vg.Points(6), Color: color.Black}
		p.Add(s)
	}
	if l, err := plotter.NewLabels(labels); err == nil {
		for i := range l.TextStyle {
			l.TextStyle[i].YAlign = draw.YCenter
		}
		p.Add(l)
	}
	var xt, yt []plot.Tick
	for i, m := range tierMemories {
		xt = append(xt, plot.Tick{Value: float64(i), Label: m.String()})
	}
	for i, t := range tiers {
		yt = append(yt, plot.Tick{Value: float64(i), Label: t})
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.ConstantTicks(xt), plot.ConstantTicks(yt)
	p.X.Min, p.X.Max = -0.4, float64(len(tierMemories))-0.2
	p.Y.Min, p.Y.Max = -0.5, float64(len(tiers))-0.5
	return p
}
