package lab_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/goldenimg"
	"github.com/esrkit/esrkit/stats"
)

// judgeAuditInput is a fixed audit of two judges on 20 planted answers of
// each kind: a strict one, and a lenient one that accepts stale and
// hedged answers.
func judgeAuditInput() *lab.JudgeAuditReport {
	accepted := map[string][]int{ // per judge.Kinds
		"exact":   {20, 4, 0, 0, 0, 0, 0, 0, 0, 0},
		"lenient": {20, 18, 3, 12, 9, 11, 0, 1, 0, 2},
	}
	rep := &lab.JudgeAuditReport{Bench: "golden"}
	for _, j := range []string{"exact", "lenient"} {
		r := judge.AuditResult{Judge: j, Level: 0.95}
		for i, k := range judge.Kinds {
			a := accepted[j][i]
			lo, hi := stats.WilsonInterval(a, 20, 0.95)
			r.Rates = append(r.Rates, judge.KindRate{Kind: k, Expect: judge.Expect(k), N: 20, Accepted: a, Rate: float64(a) / 20, Lo: lo, Hi: hi})
		}
		rep.Results = append(rep.Results, r)
	}
	return rep
}

func TestJudgeAuditPlotGolden(t *testing.T) {
	rep := judgeAuditInput()
	goldenimg.Check(t, rep.Plot(), "judge-audit-plot")
	rep.Results[1].Rates[2].Rate += 0.02
	goldenimg.CheckDiffers(t, rep.Plot(), "judge-audit-plot")
}
