package runlog

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
)

// Options set Compare.
type Options struct {
	// Stats are the bootstrap's options (zero fields: eval.DefaultStats).
	Stats eval.StatOptions
	// Scorers, when set, are the scorers compared; each must be in both
	// logs. Otherwise both logs must hold the same scorers.
	Scorers []string
	// ModelA and ModelB, when set, keep one model of each log (a promptfoo
	// run of two providers compares them: the same file as A and B).
	ModelA, ModelB string
	// Partial compares the samples both logs hold and lists the others
	// (Comparison.OnlyA, OnlyB) instead of refusing logs whose sample sets
	// differ.
	Partial bool
}

// Side summarises one log of a comparison.
type Side struct {
	Path    string   `json:"path"`
	Format  Format   `json:"format"`
	Models  []string `json:"models"`
	Scorers []string `json:"scorers"`
	Samples int      `json:"samples"`
}

// Diff is one scorer's difference B − A over one model pair in one scope:
// the eval.Comparison eval.ComparePairs returns, its term's A being log
// B's model (so AccA is B's mean score, N10 the pairs B scores higher).
type Diff struct {
	Scorer string `json:"scorer"`
	ModelA string `json:"model_a"`
	ModelB string `json:"model_b"`
	// Task is the task the scope keeps ("" for every task).
	Task string `json:"task,omitempty"`
	eval.Comparison
}

// Flip is one (sample, epoch) whose score differs between the logs: for a
// binary scorer a pair right in one log only, for a graded one any change.
type Flip struct {
	Scorer    string             `json:"scorer"`
	ModelA    string             `json:"model_a"`
	ModelB    string             `json:"model_b"`
	Sample    string             `json:"sample"`
	Epoch     int                `json:"epoch,omitempty"`
	Group     string             `json:"group"`
	Task      string             `json:"task,omitempty"`
	Input     string             `json:"input,omitempty"`
	Target    string             `json:"target,omitempty"`
	AnswerA   string             `json:"answer_a"`
	AnswerB   string             `json:"answer_b"`
	ScoreA    float64            `json:"score_a"`
	ScoreB    float64            `json:"score_b"`
	ExplainA  string             `json:"explanation_a,omitempty"`
	ExplainB  string             `json:"explanation_b,omitempty"`
	Direction eval.FlipDirection `json:"direction"`
	Graded    bool               `json:"graded,omitempty"`
}

// Unpaired is a (scorer, sample, epoch) one log holds and the other does
// not (Options.Partial).
type Unpaired struct {
	Scorer string `json:"scorer"`
	Model  string `json:"model"`
	Sample string `json:"sample"`
	Epoch  int    `json:"epoch,omitempty"`
}

// Comparison is Compare's result.
type Comparison struct {
	A     Side       `json:"a"`
	B     Side       `json:"b"`
	Diffs []Diff     `json:"diffs"`
	Flips []Flip     `json:"flips"`
	OnlyA []Unpaired `json:"only_a,omitempty"`
	OnlyB []Unpaired `json:"only_b,omitempty"`
	// Notes say what was left out or assumed; Interval describes the
	// intervals and tests.
	Notes    []string `json:"notes,omitempty"`
	Interval string   `json:"interval"`
}

// Compare sets log b beside log a, sample by sample.
//
// Models pair as CompareRuns pairs memories: when each log holds one
// model (after Options.ModelA and ModelB), A's pairs with B's whatever
// their names; otherwise both must hold the same models, each paired with
// itself. Scores pair by (scorer, sample, epoch). Refusals, each naming
// what differs: scorers one log has and the other lacks (unless
// Options.Scorers names shared ones), samples one log has and the other
// lacks (unless Options.Partial), and a sample whose Key differs between
// the logs (another document under one id: another benchmark). A pair with
// no usable score on either side (NaN) is left out and counted.
//
// Every difference is B − A, computed by eval.ComparePairs over the pairs
// sorted by (sample, epoch), clustered by the samples' groups: the digits
// eval.Compare gives for the same pairs as outcome rows (sample id as qid,
// epoch 1). Each scorer gets one difference over all its pairs and, when
// the logs hold several tasks, one per task.
func Compare(a, b *Log, opt Options) (*Comparison, error) {
	opt.Stats = opt.Stats.WithDefaults()
	sa, err := pick(a.Scores, opt.ModelA, "A", a.Path)
	if err != nil {
		return nil, err
	}
	sb, err := pick(b.Scores, opt.ModelB, "B", b.Path)
	if err != nil {
		return nil, err
	}
	c := &Comparison{A: side(a, sa), B: side(b, sb), Interval: intervalNote(opt.Stats)}
	for _, n := range a.Notes {
		c.Notes = append(c.Notes, "A: "+n)
	}
	for _, n := range b.Notes {
		c.Notes = append(c.Notes, "B: "+n)
	}
	pairs, err := pairModels(c.A.Models, c.B.Models)
	if err != nil {
		return nil, err
	}
	scorers, err := pairScorers(c.A.Scorers, c.B.Scorers, opt.Scorers)
	if err != nil {
		return nil, err
	}
	for _, mp := range pairs {
		for _, sc := range scorers {
			if err := c.compareOne(sa, sb, mp, sc, opt); err != nil {
				return nil, err
			}
		}
	}
	if len(c.Diffs) == 0 {
		return nil, fmt.Errorf("no (sample, epoch) has a usable score in both logs")
	}
	if len(c.OnlyA)+len(c.OnlyB) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("%d scores only in A and %d only in B are left out (--partial)", len(c.OnlyA), len(c.OnlyB)))
	}
	return c, nil
}

// intervalNote says which interval and test the differences carry.
func intervalNote(s eval.StatOptions) string {
	ci := fmt.Sprintf("%.0f%% CI: sample-clustered paired percentile bootstrap (resamples samples with all their epochs, or the groups --group names), B = %d", 100*s.Level, s.B)
	if s.Interval == eval.IntervalPair {
		ci = fmt.Sprintf("%.0f%% CI: paired percentile bootstrap over (sample, epoch) pairs as if independent, B = %d", 100*s.Level, s.B)
	}
	return ci + "; p: exact paired sign test (exact McNemar) for a binary scorer, Monte Carlo sign-flip test (" + strconv.Itoa(s.B) + " draws) for a graded one; no interval or verdict over fewer than 10 samples or too few changed pairs for the test to reach the level"
}

// pick keeps the scores of model (all when model is "").
func pick(scores []Score, model, tag, path string) ([]Score, error) {
	if model == "" {
		return scores, nil
	}
	var out []Score
	for _, s := range scores {
		if s.Model == model {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s (%s) holds no model %q; its models: %s", tag, path, model, strings.Join(distinct(scores, func(s Score) string { return s.Model }), ", "))
	}
	return out, nil
}

func distinct(scores []Score, key func(Score) string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range scores {
		if k := key(s); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func side(l *Log, scores []Score) Side {
	return Side{Path: l.Path, Format: l.Format,
		Models:  distinct(scores, func(s Score) string { return s.Model }),
		Scorers: distinct(scores, func(s Score) string { return s.Scorer }),
		Samples: len(distinct(scores, func(s Score) string { return s.Sample + "\x00" + strconv.Itoa(s.Epoch) }))}
}

type modelPair struct{ a, b string }

// pairModels is CompareRuns's pairing rule over the logs' models.
func pairModels(a, b []string) ([]modelPair, error) {
	switch {
	case len(a) == 1 && len(b) == 1:
		return []modelPair{{a[0], b[0]}}, nil
	case strings.Join(a, "\x00") == strings.Join(b, "\x00"):
		out := make([]modelPair, len(a))
		for i, m := range a {
			out[i] = modelPair{m, m}
		}
		return out, nil
	}
	return nil, fmt.Errorf("A holds models %s and B %s: compare logs of one model each (--model-a, --model-b pick one), or of the same models", strings.Join(a, ", "), strings.Join(b, ", "))
}

// pairScorers are the scorers compared: want, each in both logs, or the
// logs' scorers, which must be the same.
func pairScorers(a, b, want []string) ([]string, error) {
	in := func(xs []string, x string) bool {
		i := sort.SearchStrings(xs, x)
		return i < len(xs) && xs[i] == x
	}
	if len(want) > 0 {
		for _, w := range want {
			switch {
			case !in(a, w):
				return nil, fmt.Errorf("scorer %q is not in A (its scorers: %s)", w, strings.Join(a, ", "))
			case !in(b, w):
				return nil, fmt.Errorf("scorer %q is not in B (its scorers: %s)", w, strings.Join(b, ", "))
			}
		}
		return want, nil
	}
	var onlyA, onlyB []string
	for _, x := range a {
		if !in(b, x) {
			onlyA = append(onlyA, x)
		}
	}
	for _, x := range b {
		if !in(a, x) {
			onlyB = append(onlyB, x)
		}
	}
	if len(onlyA)+len(onlyB) > 0 {
		return nil, fmt.Errorf("the logs' scorers differ: only A has %s, only B has %s (--scorer names the ones to compare)", listOrNone(onlyA), listOrNone(onlyB))
	}
	return a, nil
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

// sampleKey pairs scores: (sample, epoch).
type sampleKey struct {
	sample string
	epoch  int
}

func (k sampleKey) String() string {
	if k.epoch == 0 {
		return k.sample
	}
	return k.sample + " epoch " + strconv.Itoa(k.epoch)
}

// index maps model m's scores of scorer sc by sample key.
func index(scores []Score, m, sc string) map[sampleKey]*Score {
	out := map[sampleKey]*Score{}
	for i := range scores {
		s := &scores[i]
		if s.Model == m && s.Scorer == sc {
			k := sampleKey{s.Sample, s.Epoch}
			if _, dup := out[k]; !dup {
				out[k] = s
			}
		}
	}
	return out
}

// maxNamed bounds the ids an error lists.
const maxNamed = 8

func named(keys []sampleKey) string {
	sort.Slice(keys, func(i, j int) bool { return less(keys[i], keys[j]) })
	var s []string
	for i, k := range keys {
		if i == maxNamed {
			s = append(s, fmt.Sprintf("and %d more", len(keys)-maxNamed))
			break
		}
		s = append(s, k.String())
	}
	return strings.Join(s, ", ")
}

// less orders sample keys as eval.Compare orders qids: by id, then epoch.
func less(x, y sampleKey) bool {
	if x.sample != y.sample {
		return x.sample < y.sample
	}
	return x.epoch < y.epoch
}

type pair struct {
	key  sampleKey
	a, b *Score
}

func (c *Comparison) compareOne(sa, sb []Score, mp modelPair, sc string, opt Options) error {
	ia, ib := index(sa, mp.a, sc), index(sb, mp.b, sc)
	var onlyA, onlyB []sampleKey
	var ps []pair
	for k, x := range ia {
		y, ok := ib[k]
		if !ok {
			onlyA = append(onlyA, k)
			continue
		}
		if x.Key != "" && y.Key != "" && x.Key != y.Key {
			return fmt.Errorf("sample %s is not the same item in the two logs (A read it at %s, B at %s: another document, input or target under one id): the logs ran different benchmarks", k, x.At, y.At)
		}
		ps = append(ps, pair{k, x, y})
	}
	for k := range ib {
		if _, ok := ia[k]; !ok {
			onlyB = append(onlyB, k)
		}
	}
	if len(onlyA)+len(onlyB) > 0 {
		if !opt.Partial {
			return fmt.Errorf("scorer %s: the logs hold different samples: only A has %s, only B has %s; compare the shared ones with --partial", sc,
				countNamed(onlyA), countNamed(onlyB))
		}
		for _, k := range sortedSampleKeys(onlyA) {
			c.OnlyA = append(c.OnlyA, Unpaired{Scorer: sc, Model: mp.a, Sample: k.sample, Epoch: k.epoch})
		}
		for _, k := range sortedSampleKeys(onlyB) {
			c.OnlyB = append(c.OnlyB, Unpaired{Scorer: sc, Model: mp.b, Sample: k.sample, Epoch: k.epoch})
		}
	}
	sort.Slice(ps, func(i, j int) bool { return less(ps[i].key, ps[j].key) })
	kept := ps[:0]
	unusable := 0
	for _, p := range ps {
		if isNaN(p.a.Value) || isNaN(p.b.Value) {
			unusable++
			continue
		}
		kept = append(kept, p)
	}
	ps = kept
	if unusable > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("scorer %s: %d pairs left out, a side without a usable score", sc, unusable))
	}
	if len(ps) == 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("scorer %s: no pair with a usable score on both sides", sc))
		return nil
	}
	label := sc + ": " + mp.b + " (B) − " + mp.a + " (A)"
	tasks := map[string]bool{}
	for _, p := range ps {
		tasks[p.a.Task] = true
	}
	scopes := []string{""}
	if len(tasks) > 1 {
		scopes = append(scopes, sortedKeys(tasks)...)
	}
	for _, task := range scopes {
		var xa, xb []float64
		var groups []string
		for _, p := range ps {
			if task == "" || p.a.Task == task {
				xb, xa, groups = append(xb, p.b.Value), append(xa, p.a.Value), append(groups, p.a.Group)
			}
		}
		d, err := eval.ComparePairs(eval.Term{Label: label}, xb, xa, groups, opt.Stats)
		if err != nil {
			return fmt.Errorf("scorer %s: %w", sc, err)
		}
		c.Diffs = append(c.Diffs, Diff{Scorer: sc, ModelA: mp.a, ModelB: mp.b, Task: task, Comparison: d})
	}
	graded := c.Diffs[len(c.Diffs)-1].Graded
	for _, p := range ps {
		if p.a.Value == p.b.Value {
			continue
		}
		dir := eval.Gained
		if p.b.Value < p.a.Value {
			dir = eval.Lost
		}
		c.Flips = append(c.Flips, Flip{Scorer: sc, ModelA: mp.a, ModelB: mp.b, Sample: p.key.sample, Epoch: p.key.epoch,
			Group: p.a.Group, Task: p.a.Task, Input: p.a.Input, Target: p.a.Target, AnswerA: p.a.Answer, AnswerB: p.b.Answer,
			ScoreA: p.a.Value, ScoreB: p.b.Value, ExplainA: p.a.Explanation, ExplainB: p.b.Explanation, Direction: dir,
			Graded: graded})
	}
	return nil
}

func sortedSampleKeys(keys []sampleKey) []sampleKey {
	sort.Slice(keys, func(i, j int) bool { return less(keys[i], keys[j]) })
	return keys
}

// countNamed is "none", or the number of keys and the first of them.
func countNamed(keys []sampleKey) string {
	if len(keys) == 0 {
		return "none"
	}
	return fmt.Sprintf("%d (%s)", len(keys), named(keys))
}

// Regressions are the differences over all of a scorer's pairs (every
// task) in which log B is worse than log A beyond margin
// (eval.Comparison.Below: the interval lies below −margin): what
// `esr compare --fail-on-regression` fails on.
func (c *Comparison) Regressions(margin float64) []Diff {
	var out []Diff
	for _, d := range c.Diffs {
		if d.Task == "" && d.Below(margin) {
			out = append(out, d)
		}
	}
	return out
}
