package theory

import (
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
)

// BridgeRow is one memory class under one labelling of the bridge pair: the
// live atoms (its partition Π) and its answers.
type BridgeRow struct {
	Labelling    string // "R (SUPERSEDES)" or "R′ (REFINES)"
	Class        memory.Class
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
	for _, s := range latticeSurfaces() {
		if s.Name != surfaceUVSup && s.Name != surfaceUVRef {
			continue
		}
		lab := "R (SUPERSEDES)"
		if s.Name == surfaceUVRef {
			lab = "R′ (REFINES)"
		}
		opt := memory.Options{Relator: relate.Oracle{Gold: map[string]map[esr.AtomPair]esr.Relation{s.Stream.ID: s.Gold}}}
		for _, class := range []memory.Class{memory.FineLedger, memory.CoarseRetain, memory.RenderOnly} {
			st := memory.MustBuild(memory.SpecOf(class), s.Stream, s.Atoms, opt)
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

// BridgeTable lays out Bridge: each class's live atoms and answers
// under the labellings R and R′.
func BridgeTable(rows []BridgeRow) *eval.Table {
	t := &eval.Table{ID: "bridge", Title: "Bridge: one stream u → v, two labellings R, R′ that differ only in type",
		Columns: []string{"labelling", "class", "live atoms (Π)", "snapshot", "relation type"}}
	for _, r := range rows {
		t.AddRow(r.Labelling, r.Class, strings.Join(r.Live, ", "), r.Snapshot.String(), r.RelationType.String())
	}
	return t
}

// BridgeSentence reads Bridge: whether fine's Π and snapshot agree
// under R and R′, whether coarse's snapshot equals fine's, what render-only
// answers, and which query tells the labellings apart. Every claim is
// checked on the rows; a claim that fails is reported as failing.
func BridgeSentence(rows []BridgeRow) string {
	get := func(lab string, class memory.Class) BridgeRow {
		for _, r := range rows {
			if strings.HasPrefix(r.Labelling, lab) && r.Class == class {
				return r
			}
		}
		return BridgeRow{}
	}
	fR, fR2 := get("R ", memory.FineLedger), get("R′", memory.FineLedger)
	cR, oR := get("R ", memory.CoarseRetain), get("R ", memory.RenderOnly)
	var b strings.Builder
	samePi := strings.Join(fR.Live, ",") == strings.Join(fR2.Live, ",")
	if samePi && fR.Snapshot == fR2.Snapshot {
		fmt.Fprintf(&b, "Under R and R′ fine-ledger keeps the same live atoms (%s) and answers the same snapshot (%s): the labellings differ only in type, and the snapshot reads Π, not types (b_type = 0). ",
			strings.Join(fR.Live, ", "), fR.Snapshot)
	} else {
		fmt.Fprintf(&b, "Under R and R′ fine-ledger's live atoms or snapshots differ (%s vs %s): this pair does not illustrate b_type = 0. ", fR.Snapshot, fR2.Snapshot)
	}
	if cR.Snapshot == fR.Snapshot {
		b.WriteString("coarse-retain closes u as well, so its snapshot is the same and fine − coarse is 0 on this question (P2b). ")
	} else {
		fmt.Fprintf(&b, "coarse-retain answers %s, not fine's %s. ", cR.Snapshot, fR.Snapshot)
	}
	fmt.Fprintf(&b, "render-only keeps %s live, so its read-out is %s: it has no partition, which is why it equals the d-blind control. ",
		strings.Join(oR.Live, " and "), oR.Snapshot)
	if fR.RelationType != fR2.RelationType {
		fmt.Fprintf(&b, "Only the relation-type query tells R from R′ (fine-ledger: %s vs %s; coarse-retain: %s both times).", fR.RelationType, fR2.RelationType, cR.RelationType)
	}
	return b.String()
}
