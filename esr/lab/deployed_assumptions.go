package lab

import (
	"context"
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/paper"
	"github.com/esrkit/esrkit/esr/reader"
)

// DeployedParamsTable lists the parameters of each deployed class: what a
// class name like graphiti@paraphrase=0.3 may set, its default and what it
// assumes about the system (memory.ClassParams).
func DeployedParamsTable() *eval.Table {
	t := &eval.Table{ID: "deployed-parameters", Title: "What the deployed-system models assume (class parameters, NAME@KEY=VALUE)",
		Columns: []string{"classes", "parameter", "default", "what it assumes"}}
	for _, cs := range [][]string{{memory.Graphiti, memory.GraphitiCurrent}, {memory.Mem0V3, memory.Mem0Update}} {
		for _, d := range memory.ClassParams(memory.Class(cs[0])) {
			t.AddRow(strings.Join(cs, ", "), d.Key, d.Default, d.Meaning)
		}
	}
	t.Notes = []string{"NAME@KEY=VALUE~render-only is the same build with the mechanism off: the same parameters and the same draws per (seed, stream, atom)",
		"graphrag-abstain@kept=NAME is the d-blind baseline over the atoms NAME kept (memory.ContentMatched)"}
	return t
}

// TemplateName is class under the kit's earlier fixed template: no
// paraphrase and, for Mem0, hash dedup against every memory with created_at
// at the event's time. Other classes are returned as they are.
func TemplateName(sp memory.Spec) memory.Spec {
	class := sp
	set := map[string]string{}
	switch sp.Class {
	case memory.Graphiti, memory.GraphitiCurrent:
		set[memory.ParamParaphrase] = "0"
	case memory.Mem0V3, memory.Mem0Update:
		set[memory.ParamParaphrase], set[memory.ParamDedupK], set[memory.ParamCreatedAt] = "0", "all", memory.CreatedAtEvent
	default:
		return class
	}
	for _, k := range []string{memory.ParamParaphrase, memory.ParamDedupK, memory.ParamCreatedAt} {
		if v, ok := set[k]; ok {
			if n, err := class.With(k, v); err == nil {
				class = n
			}
		}
	}
	return class
}

// AssumptionsTable evaluates each class (a full name with its parameters)
// and the d-blind baseline on b's reverted-revert snapshot QAs with the
// oracle reader and readers (pooled), under DeployedOptions, and lists each
// with its assumptions; one sentence per class states both scores with
// them.
func AssumptionsTable(ctx context.Context, b *bench.Bench, classes []memory.Spec, readers []reader.Reader) (*eval.Table, []string, error) {
	mems := append([]memory.Spec{paper.DeployedBaseline}, classes...)
	rows, err := eval.Evaluate(ctx, b, eval.Config{Memories: mems, Readers: append(append([]reader.Reader{}, readers...), reader.Oracle{}),
		QueryTypes: []esr.QueryType{esr.Snapshot}, Phenomena: []esr.Phenomenon{esr.RevertedRevert}, Options: paper.DeployedOptions})
	if err != nil {
		return nil, nil, err
	}
	if len(rows) == 0 {
		return nil, nil, fmt.Errorf("%s: no reverted-revert snapshot QAs", b.Name())
	}
	group := func(o *eval.Outcome) string {
		if o.Family == (reader.Oracle{}).Family() {
			return OracleGroup
		}
		return ReadersGroup
	}
	acc := map[[2]string]eval.Accuracy{}
	for _, a := range eval.AccuracyBy(rows, mems, group, nil, 0) {
		acc[[2]string{a.Group, a.Memory.String()}] = a
	}
	t := &eval.Table{ID: eval.TableID("deployed-assumptions-" + b.Name()), Title: "Reverted-revert snapshot accuracy of the deployed-system models under stated assumptions: " + b.Name(),
		Columns: []string{"class", "assumptions", "n (oracle)", OracleGroup, "n (readers)", ReadersGroup}}
	var sentences []string
	for _, m := range mems {
		as := m.Assumptions(paper.DeployedOptions)
		o, r := acc[[2]string{OracleGroup, m.String()}], acc[[2]string{ReadersGroup, m.String()}]
		t.AddRow(m, as, o.N, eval.PropCell(o.Acc), r.N, eval.PropCell(r.Acc))
		if m == paper.DeployedBaseline {
			continue
		}
		sentences = append(sentences, fmt.Sprintf("On %s's reverted-revert snapshot questions, %s (%s) scores %s by its %s and %s by the %s (%s: %s and %s).",
			b.Name(), m, as, eval.PropCell(o.Acc), OracleGroup, eval.PropCell(r.Acc), ReadersGroup, paper.DeployedBaseline,
			eval.PropCell(acc[[2]string{OracleGroup, paper.DeployedBaseline.String()}].Acc), eval.PropCell(acc[[2]string{ReadersGroup, paper.DeployedBaseline.String()}].Acc)))
	}
	var fams []reader.Family
	for _, r := range readers {
		fams = append(fams, r.Family())
	}
	t.Notes = []string{"assumptions: memory.Assumptions (defaults in memory.ClassParams); the template (paraphrase=0, and for Mem0 dedup-k=all, created-at=event) is the kit's earlier build",
		"oracle read-out = the class's structured read-out; default readers = " + joinFamilies(fams) + ", pooled" + simulatedNote(fams)}
	return t, sentences, nil
}
