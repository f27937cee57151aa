package judge

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/internal/workpool"
	"github.com/esrkit/esrkit/stats"
)

// This file is the judge audit: a judge scores answers planted for each
// question (built elsewhere, by rules that never call this package's
// normaliser; see PlantAnswers), and the audit reports how often
// it accepts each kind of answer and a verdict read off those rates.

// Kind is the kind of a planted answer.
type Kind string

// Planted answer kinds, for gold B and the key's prior value A.
const (
	KindGold          Kind = "gold"           // B as written
	KindParaphrase    Kind = "paraphrase"     // B in other words: an alias, units, number words, a date format
	KindOutdated      Kind = "outdated"       // A
	KindWasNow        Kind = "was-now"        // "was A, now B"
	kindNowPreviously Kind = "now-previously" // "B (previously A)"
	KindHedge         Kind = "hedge"          // "probably B"
	kindAbstain       Kind = "abstain"        // "I don't know"
	KindUnrelated     Kind = "unrelated"      // a value of the same attribute from another key
	KindIncorrect     Kind = "incorrect"      // the literal "INCORRECT"
	kindNegated       Kind = "negated"        // "not B"
)

// Kinds lists the planted kinds in table order.
var Kinds = []Kind{KindGold, KindParaphrase, KindOutdated, KindWasNow, kindNowPreviously, KindHedge,
	kindAbstain, KindUnrelated, KindIncorrect, kindNegated}

// What a faithful judge does with a kind (Expect).
const (
	expectAccept = "accept"
	expectReject = "reject"
	// expectPolicy: judges legitimately differ (both values, hedges).
	expectPolicy = "policy"
)

// Expect says what a faithful judge does with answers of kind k.
func Expect(k Kind) string {
	switch k {
	case KindGold, KindParaphrase:
		return expectAccept
	case KindWasNow, kindNowPreviously, KindHedge:
		return expectPolicy
	}
	return expectReject
}

// wrongKinds are the kinds no judge should accept; staleKinds the answers
// that state the gold beside the value it replaced.
var (
	wrongKinds = []Kind{KindOutdated, kindAbstain, KindUnrelated, KindIncorrect, kindNegated}
	staleKinds = []Kind{KindWasNow, kindNowPreviously}
)

// Planted is one planted answer to a QA.
type Planted struct {
	Kind   Kind       `json:"kind"`
	Answer esr.Answer `json:"answer"`
	// How says which building rule made it (e.g. "unit spelled out").
	How string `json:"how,omitempty"`
}

// Panel is the planted answers to one QA.
type Panel struct {
	QA      *esr.QA   `json:"-"`
	QID     string    `json:"qid"`
	Answers []Planted `json:"answers"`
}

// KindRate is a judge's acceptance of one planted kind: Accepted of N, the
// rate and its Wilson interval.
type KindRate struct {
	Kind     Kind    `json:"kind"`
	Expect   string  `json:"expect"`
	N        int     `json:"n"`
	Accepted int     `json:"accepted"`
	Rate     float64 `json:"rate"`
	Lo       float64 `json:"lo"`
	Hi       float64 `json:"hi"`
}

// AuditResult is one judge's audit.
type AuditResult struct {
	Judge string     `json:"judge"`
	Level float64    `json:"level"`
	Rates []KindRate `json:"rates"`
	// Verdict is AuditVerdict's reading of the rates; Findings add what
	// the verdict does not say (hedges accepted, correct answers missed).
	Verdict  string   `json:"verdict"`
	Findings []string `json:"findings,omitempty"`
}

// Rate returns the rate of kind k (ok false when the audit has none).
func (r AuditResult) Rate(k Kind) (KindRate, bool) {
	for _, kr := range r.Rates {
		if kr.Kind == k {
			return kr, true
		}
	}
	return KindRate{}, false
}

// Verdicts of AuditVerdict.
const (
	VerdictStrict       = "strict"
	VerdictLenientStale = "lenient on stale answers"
	VerdictAcceptsWrong = "accepts wrong answers"
)

// AuditTolerance is the acceptance rate above which AuditVerdict counts a
// kind as accepted (and below 1 − AuditTolerance a correct kind as missed).
const AuditTolerance = 0.05

// AuditVerdict reads a verdict off the rates (kinds with N = 0 are left
// out), with τ = AuditTolerance:
//   - "accepts wrong answers" when it accepts more than τ of any kind a
//     faithful judge rejects: outdated, abstain, unrelated, incorrect,
//     negated;
//   - else "lenient on stale answers" when it accepts more than τ of
//     was-now or now-previously (the gold stated beside the value it
//     replaced);
//   - else "strict".
//
// Findings add: hedges accepted (rate > τ), and correct kinds (gold,
// paraphrase) accepted at a rate below 1 − τ.
func AuditVerdict(rates []KindRate) (verdict string, findings []string) {
	by := map[Kind]KindRate{}
	for _, r := range rates {
		if r.N > 0 {
			by[r.Kind] = r
		}
	}
	over := func(ks []Kind) []string {
		var out []string
		for _, k := range ks {
			if r, ok := by[k]; ok && r.Rate > AuditTolerance {
				out = append(out, fmt.Sprintf("%s %.0f%%", k, 100*r.Rate))
			}
		}
		return out
	}
	wrong, stale, hedge := over(wrongKinds), over(staleKinds), over([]Kind{KindHedge})
	switch {
	case len(wrong) > 0:
		verdict = VerdictAcceptsWrong
		findings = append(findings, "accepts "+strings.Join(wrong, ", "))
		if len(stale) > 0 {
			findings = append(findings, "accepts "+strings.Join(stale, ", "))
		}
	case len(stale) > 0:
		verdict = VerdictLenientStale
	default:
		verdict = VerdictStrict
	}
	if len(hedge) > 0 {
		findings = append(findings, "accepts hedges ("+hedge[0]+")")
	}
	for _, k := range []Kind{KindGold, KindParaphrase} {
		if r, ok := by[k]; ok && r.Rate < 1-AuditTolerance {
			findings = append(findings, fmt.Sprintf("misses correct answers (%s %.0f%%)", k, 100*r.Rate))
		}
	}
	return verdict, findings
}

// AuditOptions set an audit's interval level (default 0.95), how many
// answers are judged at once (default 1; LLM judges limit their own
// requests) and, when Progress is set, a report after each judged answer
// (done of total).
type AuditOptions struct {
	Level       float64
	Concurrency int
	Progress    func(done, total int)
}

// Audit judges every planted answer of panels with j and returns the
// acceptance rate per kind with Wilson intervals and the verdict. An error
// of the judge stops the audit.
func Audit(ctx context.Context, j Judge, panels []Panel, opt AuditOptions) (AuditResult, error) {
	if opt.Level <= 0 || opt.Level >= 1 {
		opt.Level = 0.95
	}
	var (
		qas   []*esr.QA
		ans   []esr.Answer
		kinds []Kind
	)
	for _, pn := range panels {
		for _, p := range pn.Answers {
			qas, ans, kinds = append(qas, pn.QA), append(ans, p.Answer), append(kinds, p.Kind)
		}
	}
	if opt.Progress != nil {
		j = &counted{j: j, total: len(qas), report: opt.Progress}
	}
	vs, err := JudgeAll(ctx, j, qas, ans, opt.Concurrency)
	if err != nil {
		return AuditResult{}, err
	}
	n, k := map[Kind]int{}, map[Kind]int{}
	for i, kind := range kinds {
		n[kind]++
		if vs[i].Correct {
			k[kind]++
		}
	}
	res := AuditResult{Judge: j.Name(), Level: opt.Level}
	for _, kind := range Kinds {
		r := KindRate{Kind: kind, Expect: Expect(kind), N: n[kind], Accepted: k[kind]}
		if r.N > 0 {
			r.Rate = float64(r.Accepted) / float64(r.N)
			r.Lo, r.Hi = stats.WilsonInterval(r.Accepted, r.N, opt.Level)
		}
		res.Rates = append(res.Rates, r)
	}
	res.Verdict, res.Findings = AuditVerdict(res.Rates)
	return res, nil
}

// counted reports each answer a judge decides.
type counted struct {
	j      Judge
	total  int
	done   atomic.Int64
	report func(done, total int)
}

func (c *counted) Name() string { return c.j.Name() }

func (c *counted) Judge(ctx context.Context, qa *esr.QA, a esr.Answer) (Verdict, error) {
	v, err := c.j.Judge(ctx, qa, a)
	c.report(int(c.done.Add(1)), c.total)
	return v, err
}

// JudgeAll judges answers[i] to qas[i] for every i with at most workers
// answers in flight (default 1) and returns the verdicts in input order.
// The first error stops it and names the question and answer.
func JudgeAll(ctx context.Context, j Judge, qas []*esr.QA, answers []esr.Answer, workers int) ([]Verdict, error) {
	if len(qas) != len(answers) {
		return nil, fmt.Errorf("judge all: %d questions for %d answers", len(qas), len(answers))
	}
	out := make([]Verdict, len(qas))
	err := workpool.Run(ctx, len(qas), workers, func(ctx context.Context, i int) error {
		v, err := j.Judge(ctx, qas[i], answers[i])
		if err != nil {
			return fmt.Errorf("judge %s, qid %s, answer %q: %w", j.Name(), qas[i].QID, answers[i].Value, err)
		}
		out[i] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
