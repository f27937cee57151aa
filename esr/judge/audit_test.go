package judge

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
)

// scripted accepts exactly the answers in yes.
type scripted struct{ yes map[string]bool }

func (scripted) Name() string { return "scripted-judge" }
func (s scripted) Judge(_ context.Context, _ *esr.QA, a esr.Answer) (Verdict, error) {
	return Verdict{Correct: s.yes[a.Value]}, nil
}

func TestAuditRates(t *testing.T) {
	// Ten questions; the judge accepts every gold, 3 of 10 outdated
	// answers and none of the rest.
	var panels []Panel
	yes := map[string]bool{}
	for i := range 10 {
		qa := &esr.QA{QID: string(rune('a' + i)), GoldAnswer: "gold-" + string(rune('a'+i))}
		old := "old-" + qa.QID
		if i < 3 {
			yes[old] = true
		}
		yes[qa.GoldAnswer] = true
		panels = append(panels, Panel{QA: qa, QID: qa.QID, Answers: []Planted{
			{Kind: KindGold, Answer: esr.Says(qa.GoldAnswer)}, {Kind: KindOutdated, Answer: esr.Says(old)},
			{Kind: KindIncorrect, Answer: esr.Says("INCORRECT")}}})
	}
	r, err := Audit(context.Background(), scripted{yes}, panels, AuditOptions{Concurrency: 3})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := r.Rate(KindOutdated)
	// statsmodels.stats.proportion.proportion_confint(3, 10, alpha=0.05,
	// method="wilson") = (0.10779126740630104, 0.6032218525388546).
	if out.N != 10 || out.Accepted != 3 || math.Abs(out.Lo-0.10779126740630104) > 1e-9 || math.Abs(out.Hi-0.6032218525388546) > 1e-9 {
		t.Errorf("outdated rate %+v", out)
	}
	// proportion_confint(0, 10, alpha=0.05, method="wilson") =
	// (0.0, 0.27753279986288926).
	inc, _ := r.Rate(KindIncorrect)
	if inc.Rate != 0 || math.Abs(inc.Lo) > 1e-9 || math.Abs(inc.Hi-0.27753279986288926) > 1e-9 {
		t.Errorf("incorrect rate %+v", inc)
	}
	if hedge, _ := r.Rate(KindHedge); hedge.N != 0 {
		t.Errorf("hedge planted %d times", hedge.N)
	}
	if r.Verdict != VerdictAcceptsWrong || !strings.Contains(strings.Join(r.Findings, ";"), "outdated 30%") {
		t.Errorf("verdict %q findings %q", r.Verdict, r.Findings)
	}
}

func TestAuditVerdict(t *testing.T) {
	rate := func(k Kind, x float64) KindRate { return KindRate{Kind: k, N: 100, Accepted: int(100 * x), Rate: x} }
	base := []KindRate{rate(KindGold, 1), rate(KindParaphrase, 1), rate(KindOutdated, 0), rate(KindUnrelated, 0),
		rate(KindIncorrect, 0), rate(kindNegated, 0), rate(kindAbstain, 0), rate(KindWasNow, 0), rate(kindNowPreviously, 0), rate(KindHedge, 0)}
	with := func(k Kind, x float64) []KindRate {
		out := append([]KindRate(nil), base...)
		for i := range out {
			if out[i].Kind == k {
				out[i] = rate(k, x)
			}
		}
		return out
	}
	for _, c := range []struct {
		rates   []KindRate
		verdict string
		finding string
	}{
		{base, VerdictStrict, ""},
		{with(KindOutdated, AuditTolerance), VerdictStrict, ""}, // at the tolerance: not accepted
		{with(KindWasNow, 0.5), VerdictLenientStale, ""},
		{with(kindNowPreviously, 0.06), VerdictLenientStale, ""},
		{with(KindIncorrect, 0.4), VerdictAcceptsWrong, "incorrect 40%"},
		{with(KindUnrelated, 0.1), VerdictAcceptsWrong, "unrelated 10%"},
		{with(kindAbstain, 0.2), VerdictAcceptsWrong, "abstain 20%"},
		{with(KindHedge, 1), VerdictStrict, "accepts hedges"},
		{with(KindParaphrase, 0.5), VerdictStrict, "misses correct answers (paraphrase 50%)"},
		{append(with(kindNegated, 0.3), rate(KindWasNow, 1)), VerdictAcceptsWrong, "negated 30%"},
	} {
		v, f := AuditVerdict(c.rates)
		if v != c.verdict || c.finding != "" && !strings.Contains(strings.Join(f, "; "), c.finding) || c.finding == "" && len(f) > 0 {
			t.Errorf("verdict %q findings %q, want %q with %q", v, f, c.verdict, c.finding)
		}
	}
	// Kinds never planted do not count.
	empty := []KindRate{{Kind: KindIncorrect, N: 0, Rate: 0}, rate(KindGold, 1)}
	if v, _ := AuditVerdict(empty); v != VerdictStrict {
		t.Errorf("empty kinds: %s", v)
	}
}

type failing struct{}

func (failing) Name() string { return "failing" }
func (failing) Judge(context.Context, *esr.QA, esr.Answer) (Verdict, error) {
	return Verdict{}, errors.New("endpoint down")
}

func TestAuditStopsOnJudgeError(t *testing.T) {
	qa := &esr.QA{QID: "q1", GoldAnswer: "x"}
	_, err := Audit(context.Background(), failing{}, []Panel{{QA: qa, Answers: []Planted{{Kind: KindGold, Answer: esr.Says("x")}}}}, AuditOptions{})
	if err == nil || !strings.Contains(err.Error(), "q1") || !strings.Contains(err.Error(), "endpoint down") {
		t.Errorf("error %v", err)
	}
}
