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

// Counts are what an Accuracy is computed from: the readable rows (N), the
// correct and the abstaining among them, and the unreadable rows left out.
type Counts struct {
	N, Correct, Abstained, Unreadable int
}

// Valid reports whether c could have been counted from rows: no count
// negative, no more correct or abstaining rows than readable ones.
func (c Counts) Valid() bool {
	return c.N >= 0 && c.Correct >= 0 && c.Abstained >= 0 && c.Unreadable >= 0 && c.Correct <= c.N && c.Abstained <= c.N
}

// AccuracyOfCounts is the Accuracy of group's rows of memory m counted in
// c: Acc = Correct/N with its Wilson score interval at level (default
// DefaultStats.Level) and AbstainRate = Abstained/N; with N = 0, NaN for
// all four. AccuracyBy computes every Accuracy through it, so counts kept
// from rows give the Accuracy the rows give.
func AccuracyOfCounts(group string, m memory.Spec, c Counts, level float64) Accuracy {
	if level <= 0 || level >= 1 {
		level = DefaultStats.Level
	}
	a := Accuracy{Group: group, Memory: m, N: c.N, Correct: c.Correct, Unreadable: c.Unreadable}
	if c.N == 0 {
		a.Acc, a.Lo, a.Hi, a.AbstainRate = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		return a
	}
	a.Acc = float64(c.Correct) / float64(c.N)
	a.Lo, a.Hi = stats.WilsonInterval(c.Correct, c.N, level)
	a.AbstainRate = float64(c.Abstained) / float64(c.N)
	return a
}

// Add counts row o: an unreadable row apart, any other as readable, and
// as correct and abstaining as it is.
func (c *Counts) Add(o *Outcome) {
	if o.Unreadable {
		c.Unreadable++
		return
	}
	c.N++
	if o.Correct {
		c.Correct++
	}
	if o.Abstained {
		c.Abstained++
	}
}

// AccuracyBy groups rows kept by f by (group(row), memory) and returns one
// Accuracy per group, sorted by group then by the order of memories.
func AccuracyBy(rows []Outcome, memories []memory.Spec, group func(*Outcome) string, f Filter, level float64) []Accuracy {
	type gk struct {
		g string
		m memory.Spec
	}
	agg := map[gk]*Counts{}
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
		if agg[k] == nil {
			agg[k] = &Counts{}
		}
		agg[k].Add(o)
	}
	rank := map[memory.Spec]int{}
	for i, m := range memories {
		rank[m] = i
	}
	out := make([]Accuracy, 0, len(agg))
	for k, c := range agg {
		out = append(out, AccuracyOfCounts(k.g, k.m, *c, level))
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Group != out[j].Group {
			return out[i].Group < out[j].Group
		}
		return rank[out[i].Memory] < rank[out[j].Memory]
	})
	return out
}
