package theory

import (
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
)

// BridgeRow is one memory class under one labelling of the bridge pair: the
// live atoms (its partition Π) and its answers.
type BridgeRow struct {
	Labelling    string // "R (SUPERSEDES)" or "R′ (REFINES)"
	Class        string
	Live         []string // atom ids live in the class's state (Π's live side)
	Snapshot     esr.Answer
	RelationType esr.Answer
}

// Bridge links Appendix A to §4.1 on a toy pair of labellings R, R′ of one
// stream u → v (v a narrower restatement of u): R says v SUPERSEDES u, R′
// says v REFINES u. Both close u, so fine-ledger's partition Π is the same
// under R and R′ and so is its snapshot: relation types add nothing to a
// snapshot once Π is known (b_type = 0). coarse-retain has the same Π, so
// fine − coarse on snapshot is 0; render-only keeps both atoms live (no
// partition), so its read-out is d-blind. Only the relation-type query
// tells R from R′.
func Bridge() []BridgeRow {
	var out []BridgeRow
	for _, s := range LatticeSurfaces() {
		if s.Name != SurfaceUVSup && s.Name != SurfaceUVRef {
			continue
		}
		lab := "R (SUPERSEDES)"
		if s.Name == SurfaceUVRef {
			lab = "R′ (REFINES)"
		}
		opt := memory.Options{Relator: relate.Oracle{Gold: map[string]map[esr.AtomPair]esr.Relation{s.Stream.ID: s.Gold}}}
		for _, class := range []string{memory.FineLedger, memory.CoarseRetain, memory.RenderOnly} {
			st := memory.MustBuild(class, s.Stream, s.Atoms, opt)
			row := BridgeRow{Labelling: lab, Class: class,
				Snapshot:     st.Answer(esr.Query{Type: esr.Snapshot, Key: s.Key}),
				RelationType: st.Answer(esr.Query{Type: esr.RelationType, Key: s.Key})}
			switch class {
			case memory.FineLedger, memory.RenderOnly: // Π's live side is ⊕'s active set M
				var r esr.Relator = opt.Relator
				if class == memory.RenderOnly {
					r = relate.SameState{}
				}
				kl := esr.BuildLedger(s.Stream, s.Atoms, r).Key(s.Key)
				for _, i := range kl.Active {
					row.Live = append(row.Live, strings.TrimPrefix(kl.Atoms[i].ID, s.Stream.ID+"-"))
				}
			default: // coarse: the live edges
				for _, r := range st.Rows() {
					for _, id := range r.Support {
						row.Live = append(row.Live, strings.TrimPrefix(id, s.Stream.ID+"-"))
					}
				}
			}
			out = append(out, row)
		}
	}
	return out
}
