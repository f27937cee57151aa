package eval

import (
	"math"
	"slices"
	"sort"

	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/stats"
)

// Accuracy is the share of correct answers in a group of rows, with its
// Wilson score interval and abstention rate. Rows a simulated reader could
// not read (Unreadable) are counted apart and left out of the rest; a group
// with no other row has N = 0 and NaN for Acc, Lo, Hi and AbstainRate
// (PropCell prints NotMeasured).
type Accuracy struct {
	Group       string      `json:"group"`
	Memory      memory.Spec `json:"memory"`
	N           int         `json:"n"`
	Correct     int         `json:"correct"`
	Acc         float64     `json:"acc"`
	Lo          float64     `json:"lo"`
	Hi          float64     `json:"hi"`
	AbstainRate float64     `json:"abstain_rate"`
	Unreadable  int         `json:"unreadable,omitempty"`
}

// AccuracyBy groups rows kept by f by (group(row), memory) and returns one
// Accuracy per group, sorted by group then by the order of memories.
func AccuracyBy(rows []Outcome, memories []memory.Spec, group func(*Outcome) string, f Filter, level float64) []Accuracy {
	if level <= 0 || level >= 1 {
		level = DefaultStats.Level
	}
	type gk struct {
		g string
		m memory.Spec
	}
	agg := map[gk]*Accuracy{}
	abst := map[gk]int{}
	for i := range rows {
		o := &rows[i]
		if (f != nil && !f(o)) || !slices.Contains(memories, o.Memory) {
			continue
		}
		g := ""
		if group != nil {
			g = group(o)
		}
		k := gk{g, o.Memory}
		a := agg[k]
		if a == nil {
			a = &Accuracy{Group: g, Memory: o.Memory}
			agg[k] = a
		}
		if o.Unreadable {
			a.Unreadable++
			continue
		}
		a.N++
		if o.Correct {
			a.Correct++
		}
		if o.Abstained {
			abst[k]++
		}
	}
	rank := map[memory.Spec]int{}
	for i, m := range memories {
		rank[m] = i
	}
	out := make([]Accuracy, 0, len(agg))
	for k, a := range agg {
		if a.N == 0 {
			a.Acc, a.Lo, a.Hi, a.AbstainRate = math.NaN(), math.NaN(), math.NaN(), math.NaN()
			out = append(out, *a)
			continue
		}
		a.Acc = float64(a.Correct) / float64(a.N)
		a.Lo, a.Hi = stats.WilsonInterval(a.Correct, a.N, level)
		a.AbstainRate = float64(abst[k]) / float64(a.N)
		out = append(out, *a)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Group != out[j].Group {
			return out[i].Group < out[j].Group
		}
		return rank[out[i].Memory] < rank[out[j].Memory]
	})
	return out
}
