package memory_test

import (
	"encoding/json"
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/example"
	"github.com/esrkit/esrkit/esr/memory"
)

// jsonLedger is a user's own memory: the ⊕ ledger under whatever relations
// the options give, rendered as JSON rows instead of a table.
type jsonLedger struct {
	ledger *esr.Ledger
}

func (j jsonLedger) Class() string      { return "json-ledger" }
func (j jsonLedger) MayAbstain() bool   { return true }
func (j jsonLedger) Rows() []memory.Row { return nil }

func (j jsonLedger) Answer(q esr.Query) esr.Answer {
	if kl := j.ledger.Key(q.Key); kl != nil {
		return kl.Snapshot()
	}
	return esr.Abstain
}

func (j jsonLedger) Render(esr.Query) string {
	type row struct{ Value, Status string }
	var rows []row
	for _, kl := range j.ledger.Keys {
		for i, a := range kl.Atoms {
			rows = append(rows, row{a.Display(), kl.Status[i].String()})
		}
	}
	b, _ := json.Marshal(rows)
	return string(b)
}

// A user's memory joins the render-matched protocol: register it, register
// its control (same build, every relation SAME_STATE), and compare.
func ExampleRegister() {
	build := func(s *esr.Stream, atoms []esr.Atom, opt memory.Options) memory.State {
		r := opt.Relator
		if r == nil {
			r = memory.DefaultRelator()
		}
		return jsonLedger{esr.BuildLedger(s, atoms, r)}
	}
	if err := memory.Register("json-ledger", build); err != nil {
		panic(err)
	}
	control, err := memory.RegisterRenderMatched("json-ledger")
	if err != nil {
		panic(err)
	}
	s, atoms := example.Figure1()
	q := esr.Query{Type: esr.Snapshot, Key: example.TimeoutKey}
	for _, name := range []string{"json-ledger", control} {
		st := memory.MustBuild(name, s, atoms, memory.Options{})
		fmt.Printf("%s: %v %s\n", name, st.Answer(q), st.Render(q))
	}
	// Output:
	// json-ledger: 30 s [{"Value":"30 s","Status":"DEPRECATED"},{"Value":"60 s","Status":"DEPRECATED"},{"Value":"30 s","Status":"LIVE"}]
	// json-ledger~render-only: ABSTAIN [{"Value":"30 s","Status":"LIVE"},{"Value":"60 s","Status":"LIVE"},{"Value":"30 s","Status":"LIVE"}]
}
