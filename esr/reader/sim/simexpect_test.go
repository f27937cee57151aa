package sim_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// TestSimExpectedMatchesDraws: the exact expectation over a sim reader's
// branches equals the average of its answers over many draw seeds (the
// draws are uniform, so the share of seeds giving an answer converges to
// the branches' probability), for every profile and memory class on the
// Figure 1 stream and a longer stream with conflicts.
func TestSimExpectedMatchesDraws(t *testing.T) {
	ctx := context.Background()
	s1, a1 := bench.Figure1()
	long := []bench.Event{}
	for i, v := range []string{"30 s", "60 s", "30 s", "90 s", "60 s", "30 s", "45 s"} {
		long = append(long, bench.Event{ID: fmt.Sprintf("e%d", i+1), Date: fmt.Sprintf("2024-0%d-01", i+1),
			Actor: []string{"ann", "bob"}[i%2], Value: v, Text: "Set the timeout to " + v + "."})
	}
	s2, a2 := bench.Build("long", bench.TimeoutKey, long)
	type stream struct {
		s     *esr.Stream
		atoms []esr.Atom
		gold  string
	}
	profiles := sim.Profiles()
	profiles = append(profiles, sim.Profile{Name: "decaying", StatusSkill: 0.4, DateSkill: 0.9, DateDecayPerRow: 0.3, FirstRowBias: 0.3, AbstainOnConflict: 0.6},
		sim.Profile{Name: "order-reader", StatusSkill: 0.2, DateSkill: 0.3, DateDecayPerRow: 0.2, OrderSkill: 0.7, FirstRowBias: 0.2, AbstainOnConflict: 0.8, Lapse: 0.3},
		sim.Profile{Name: "wordy", StatusSkill: 0.6, DateSkill: 0.5, OrderSkill: 0.4, FirstRowBias: 0.3, AbstainOnConflict: 0.5, BothValues: 0.3, Hedge: 0.2})
	// Every skill of the reader model over render features at once: a
	// separate key-status skill, render difficulty with both date costs,
	// the flat-sort loss and the validity-window lift.
	key := 0.7
	profiles = append(profiles, sim.Profile{Name: "feature-reader", StatusSkill: 0.3, KeyStatusSkill: sim.Skill(key), DateSkill: 0.8, DateDecayPerRow: 0.1,
		OrderSkill: 0.6, FirstRowBias: 0.3, AbstainOnConflict: 0.6, Lapse: 0.2, ClutterScale: 1, LengthCost: 0.6, RowsCost: 0.5,
		FlatCost: 0.6, DistractorCost: 0.2, ProseDateCost: 0.4, NestCost: 0.2})
	// The calibrated panel's structure: raw text read by key with a prose
	// skill (text order a recency cue), conflicts seen with a conflict
	// skill before any sort.
	profiles = append(profiles, sim.Profile{Name: "panel-reader", StatusSkill: 0.7, KeyStatusSkill: sim.Skill(0.5), DateSkill: 0.8, OrderSkill: 0.7,
		FirstRowBias: 0.3, Lapse: 0.1, ClutterScale: 1, LengthCost: 0.3, RowsCost: 0.8, FlatCost: 0.4, DistractorCost: 0.2, ProseDateCost: 0.4,
		NestCost: 0.1, ParaphraseCost: 1.5, ProseSkill: 0.8, ConflictSkill: sim.Skill(0.4)})
	profiles = append(profiles, sim.CalibratedProfiles()[0])
	const seeds = 1500
	for _, st := range []stream{{s1, a1, "30 s"}, {s2, a2, "45 s"}} {
		q := esr.Query{Type: esr.Snapshot, Key: bench.TimeoutKey, Question: bench.Figure1Question}
		type variant struct {
			m   string
			opt memory.Options
		}
		var variants []variant
		for _, m := range append(append([]memory.Class{}, memory.Names...), memory.Graphiti, memory.Mem0V3) {
			variants = append(variants, variant{string(m), memory.Options{}})
		}
		for _, f := range memory.LedgerFormats[1:] {
			variants = append(variants, variant{memory.FineLedger, memory.Options{LedgerFormat: f}})
		}
		for _, v := range variants {
			m := v.m
			mst := memory.MustBuild(memory.MustParseSpec(m), st.s, st.atoms, v.opt)
			in := reader.Input{QID: "q", Question: q.Question, QueryType: esr.Snapshot, Context: mst.Render(q), MayAbstain: mst.MayAbstain(), Memory: memory.MustParseSpec(m),
				Stated: reader.StatedValues(st.atoms, bench.TimeoutKey)}
			for _, p := range profiles {
				correct := func(a esr.Answer) float64 {
					if !a.Abstain && esr.StateOf(a.Value, esr.Positive) == esr.StateOf(st.gold, esr.Positive) {
						return 1
					}
					return 0
				}
				br := sim.Branches(p, in, p.DateSkill > 0)
				f := sim.Features(in)
				total := 0.0
				for _, b := range br {
					total += b.Prob(p, f)
				}
				if math.Abs(total-1) > 1e-9 {
					t.Fatalf("%s on %s: branch probabilities sum to %v", p.Name, m, total)
				}
				want := sim.Expected(p, f, br, correct)
				got := 0.0
				for seed := uint64(1); seed <= seeds; seed++ {
					r, err := sim.New(p, seed)
					if err != nil {
						t.Fatal(err)
					}
					out, err := r.Read(ctx, in)
					if err != nil {
						t.Fatal(err)
					}
					got += correct(out.Answer)
				}
				got /= seeds
				// 1,500 draws: the standard error is at most 0.013; the seeds are fixed,
				// so the check is deterministic.
				if math.Abs(got-want) > 0.05 {
					t.Errorf("%s on %s %s (%s): mean over draws %.3f, expected %.3f", p.Name, m, v.opt.LedgerFormat, st.s.ID, got, want)
				}
			}
		}
	}
}
