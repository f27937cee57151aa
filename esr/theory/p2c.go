package theory

import (
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
)

// p2cLatticeSurface is one canonical two-event stream of Proposition 2c with
// its gold relation and the gold answer of each query class.
type p2cLatticeSurface struct {
	Name   string
	Stream *esr.Stream
	Atoms  []esr.Atom
	Key    esr.Key
	Gold   map[esr.AtomPair]esr.Relation
	Want   map[esr.QueryType]esr.Answer
}

// Lattice surface names.
const (
	surfaceAB     = "a→b"
	surfaceCB     = "c→b"
	surfaceUVSup  = "u→v by SUPERSEDES"
	surfaceUVRef  = "u→v by REFINES"
	latticeEntity = "lib"
)

// latticeSurfaces are the canonical surfaces of Proposition 2c's proof:
// a→b and c→b (one current value b, different priors: the provenance gap),
// and u→v by SUPERSEDES and by REFINES (v a narrower restatement of u: one
// ordered history, different transition types: the type gap). Each pair is
// the same stream but for the gold relation (and, for a→b vs c→b, the first
// value).
func latticeSurfaces() []p2cLatticeSurface {
	k := esr.Key{Entity: latticeEntity, Attribute: "proposed_workaround"}
	mk := func(name, id, first, second string, r esr.Relation) p2cLatticeSurface {
		s, atoms := build(id, k, []bench.Event{
			{ID: "e1", Date: "2024-01-01", Actor: "maintainer", Value: first, Text: "Workaround: " + first + "."},
			{ID: "e2", Date: "2024-02-01", Actor: "maintainer", Value: second, Text: "Use " + second + " instead."},
		})
		change := esr.AnswerReplaces
		if r == esr.Refines {
			change = esr.AnswerRefines
		}
		return p2cLatticeSurface{Name: name, Stream: s, Atoms: atoms, Key: k,
			Gold: map[esr.AtomPair]esr.Relation{{A: atoms[0].ID, B: atoms[1].ID}: r},
			Want: map[esr.QueryType]esr.Answer{esr.Snapshot: esr.Says(second), esr.Provenance: esr.Says(first),
				esr.RelationType: esr.Says(change)}}
	}
	const u, v = "use --no-cache", "use --no-cache on linux"
	return []p2cLatticeSurface{
		mk(surfaceAB, "p2c-ab", "downgrade to v1", "pin v2", esr.Supersedes),
		mk(surfaceCB, "p2c-cb", "clear the cache", "pin v2", esr.Supersedes),
		mk(surfaceUVSup, "p2c-uv-sup", u, v, esr.Supersedes),
		mk(surfaceUVRef, "p2c-uv-ref", u, v, esr.Refines),
	}
}

// LatticeRow is one memory class (under one relation source) on the lattice
// surfaces: how many of them it answers correctly per query class.
type LatticeRow struct {
	Class    memory.Class
	Relator  string
	Surfaces int
	// Correct counts correct answers per query class, indexed like
	// esr.QueryTypes (snapshot, provenance, relation-type).
	Correct [3]int
	// Answers[i][q] is the answer on surface i to query class q.
	Answers [][3]esr.Answer
}

// Covers reports whether the class answers query class q (an index into
// esr.QueryTypes) correctly on every surface.
func (r LatticeRow) Covers(q int) bool { return r.Correct[q] == r.Surfaces }

// Statistic names the lattice statistic the row's coverage corresponds to:
// S_type (all three), S_prov (snapshot and provenance), S_snap (snapshot
// only), or "none" / a list for other patterns.
func (r LatticeRow) Statistic() string {
	switch c := [3]bool{r.Covers(0), r.Covers(1), r.Covers(2)}; c {
	case [3]bool{true, true, true}:
		return "S_type"
	case [3]bool{true, true, false}:
		return "S_prov"
	case [3]bool{true, false, false}:
		return "S_snap"
	case [3]bool{}:
		return "none"
	default:
		var qs []string
		for i, ok := range c {
			if ok {
				qs = append(qs, string(esr.QueryTypes[i]))
			}
		}
		return strings.Join(qs, "+")
	}
}

// LatticeGap is one strict gap of the lattice: two surfaces whose lower
// statistic is equal but whose gold answers to the higher query differ, so
// nothing that reads only the lower statistic answers both.
type LatticeGap struct {
	Gap                   string // "S_snap ⊏ S_prov" or "S_prov ⊏ S_type"
	Left, Right           string // surface names
	Statistic             string // the lower statistic
	LeftStat, RightStat   string // its value on each surface
	Query                 esr.QueryType
	LeftGold, RightGold   string
	UpperLeft, UpperRight string // the higher statistic, which separates them
}

// P2cResult is the lattice table and its two gaps.
type P2cResult struct {
	Surfaces []string
	Rows     []LatticeRow
	Gaps     []LatticeGap
}

// P2cLattice instantiates Proposition 2c (the query-sufficiency lattice
// S_snap ⊏ S_prov ⊏ S_type) on latticeSurfaces: every memory class answers
// the snapshot, provenance and relation-type query on each surface through
// its oracle read-out with relate.Oracle on the gold relations, plus the
// fine ledger under the rule scorer, which cannot tell the two u→v
// transitions apart (the rung is scorer-gated). Predicted: coarse-discard
// covers snapshot only, coarse-retain snapshot and provenance, the fine
// ledger all three given the recovered REFINES label.
func P2cLattice() P2cResult {
	surfaces := latticeSurfaces()
	res := P2cResult{}
	for _, s := range surfaces {
		res.Surfaces = append(res.Surfaces, s.Name)
	}
	for _, class := range memory.Names {
		res.Rows = append(res.Rows, latticeRow(surfaces, class, relate.OracleName))
	}
	res.Rows = append(res.Rows, latticeRow(surfaces, memory.FineLedger, relate.RuleName))
	res.Gaps = latticeGaps(surfaces)
	return res
}

func latticeRow(surfaces []p2cLatticeSurface, class memory.Class, relator string) LatticeRow {
	row := LatticeRow{Class: class, Relator: relator, Surfaces: len(surfaces)}
	for _, s := range surfaces {
		var r esr.Relator = relate.Rule{}
		if relator == relate.OracleName {
			r = relate.Oracle{Gold: map[string]map[esr.AtomPair]esr.Relation{s.Stream.ID: s.Gold}}
		}
		st := memory.MustBuild(memory.SpecOf(class), s.Stream, s.Atoms, memory.Options{Relator: r})
		var ans [3]esr.Answer
		for q, qt := range esr.QueryTypes {
			ans[q] = st.Answer(esr.Query{Type: qt, Key: s.Key})
			if correct(ans[q], s.Want[qt]) {
				row.Correct[q]++
			}
		}
		row.Answers = append(row.Answers, ans)
	}
	return row
}

// latticeStats are S_snap, S_prov and S_type of a surface, read off the fine
// ledger under its gold relations: the current value; the ordered value
// history; the history with each closed value's transition type.
func latticeStats(s p2cLatticeSurface) (snap, prov, typ string) {
	l := esr.BuildLedger(s.Stream, s.Atoms, relate.Oracle{Gold: map[string]map[esr.AtomPair]esr.Relation{s.Stream.ID: s.Gold}})
	kl := l.Key(s.Key)
	var vals, typed []string
	for i, a := range kl.Atoms {
		vals = append(vals, a.Display())
		switch kl.Status[i] {
		case esr.Deprecated:
			typed = append(typed, a.Display()+" (superseded)")
		case esr.Refined:
			typed = append(typed, a.Display()+" (refined)")
		default:
			typed = append(typed, a.Display())
		}
	}
	return kl.Snapshot().String(), strings.Join(vals, " → "), strings.Join(typed, " → ")
}

func latticeGaps(surfaces []p2cLatticeSurface) []LatticeGap {
	byName := map[string]p2cLatticeSurface{}
	for _, s := range surfaces {
		byName[s.Name] = s
	}
	gap := func(name, left, right, stat string, q esr.QueryType) LatticeGap {
		l, r := byName[left], byName[right]
		ls, lp, lt := latticeStats(l)
		rs, rp, rt := latticeStats(r)
		g := LatticeGap{Gap: name, Left: left, Right: right, Statistic: stat, Query: q,
			LeftGold: l.Want[q].String(), RightGold: r.Want[q].String()}
		if stat == "S_snap" {
			g.LeftStat, g.RightStat, g.UpperLeft, g.UpperRight = ls, rs, lp, rp
		} else {
			g.LeftStat, g.RightStat, g.UpperLeft, g.UpperRight = lp, rp, lt, rt
		}
		return g
	}
	return []LatticeGap{
		gap("S_snap ⊏ S_prov", surfaceAB, surfaceCB, "S_snap", esr.Provenance),
		gap("S_prov ⊏ S_type", surfaceUVSup, surfaceUVRef, "S_prov", esr.RelationType),
	}
}

// Row returns the row of a class under a relation source (relate.OracleName
// or relate.RuleName).
func (r P2cResult) Row(class memory.Class, relator string) (LatticeRow, bool) {
	for _, row := range r.Rows {
		if row.Class == class && row.Relator == relator {
			return row, true
		}
	}
	return LatticeRow{}, false
}
