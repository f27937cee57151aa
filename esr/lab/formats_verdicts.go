package lab

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// Table17Verdict compares, per calibrated family with a Table 17 row, which
// render format gives the largest Δ RL − GRA in ours and in the paper, and
// how far the formats spread in each. Each family is named as the
// simulated reader it is (readerWords); on the bench the panel was fitted
// on (benchName), Table 17's per-family cells are its targets and the
// sentence says so first.
func Table17Verdict(cs []eval.Comparison, benchName string) string {
	fams := map[reader.Family]map[string]float64{}
	for _, c := range cs {
		if !c.Of(termRLGRA) || c.Family == reader.Pooled {
			continue
		}
		if fams[c.Family] == nil {
			fams[c.Family] = map[string]float64{}
		}
		fams[c.Family][c.Variant.Format] = c.Delta
	}
	reading := paper.Table17Readings[paper.Table17Reading]
	names := slices.SortedFunc(maps.Keys(fams), reader.Family.Compare)
	var parts []string
	for _, f := range names {
		var fam string
		for _, pf := range paper.Families {
			if f == (reader.Family{Kind: reader.KindSim, Name: sim.FitName(pf)}) {
				fam = pf
			}
		}
		if fam == "" {
			continue
		}
		oursBest, paperBest := "", ""
		oMin, oMax, pMin, pMax := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for i, format := range reading {
			o, ok := fams[f][format]
			if !ok {
				continue
			}
			p := paper.Table17Columns[fam][i]
			if oursBest == "" || o > fams[f][oursBest] {
				oursBest = format
			}
			if paperBest == "" || p > paper.Table17Columns[fam][indexOf(reading[:], paperBest)] {
				paperBest = format
			}
			oMin, oMax, pMin, pMax = math.Min(oMin, o), math.Max(oMax, o), math.Min(pMin, p), math.Max(pMax, p)
		}
		if oursBest == "" {
			continue
		}
		largest := "largest " + oursBest
		if oMax-oMin < 0.0005 {
			largest = "no format ahead"
		}
		parts = append(parts, fmt.Sprintf("%s: formats spread by %.3f in ours (%s) and %.3f in the paper (largest %s)", readerWords(f), oMax-oMin, largest, pMax-pMin, paperBest))
	}
	if len(parts) == 0 {
		return ""
	}
	lead := "Per simulated reader (the paper's column reading " + paper.Table17Reading + "): "
	if fittedPanel(comparisonFamilies(cs), benchName) {
		lead = "Per simulated reader, each fitted to its family's Table 17 cells (the paper's column reading " + paper.Table17Reading + ", so this table is in sample): "
	}
	return lead + strings.Join(parts, "; ") + ". Where the model spreads far less than the paper, it reads every layout that shows the same rows alike, which the paper's LLMs do not: a miss of the fit, not a finding about the LLMs."
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return 0
}
