package lab_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/goldenimg"
)

// refinesInput is a fixed REFINES audit of two scorers: recall over all
// pairs and per refinement kind (a group without gold pairs is left out
// of the plot).
func refinesInput() [][]lab.RefinesScore {
	score := func(scorer, group string, gold, hits int) lab.RefinesScore {
		s := lab.RefinesScore{Scorer: scorer, Group: group, Pairs: 3 * gold, Gold: gold, Hits: hits, Predicted: hits}
		if gold > 0 {
			s.Recall = float64(hits) / float64(gold)
		}
		return s
	}
	return [][]lab.RefinesScore{
		{score("rule", lab.AllPairs, 40, 6), score("rule", "narrowing", 25, 6), score("rule", "unit change", 15, 0), score("rule", lab.NoRefinement, 0, 0)},
		{score("learned", lab.AllPairs, 40, 29), score("learned", "narrowing", 25, 21), score("learned", "unit change", 15, 8), score("learned", lab.NoRefinement, 0, 0)},
	}
}

func TestRefinesRecallPlotGolden(t *testing.T) {
	a := refinesInput()
	goldenimg.Check(t, lab.RefinesRecallPlot(a), "refines-recall-plot")
	a[1][2].Recall += 0.02
	goldenimg.CheckDiffers(t, lab.RefinesRecallPlot(a), "refines-recall-plot")
}
