package memory_test

import (
	"encoding/json"
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
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

// Render shows each key's status and rows. Under the control's options the
// ledger reports the status "neutral" and every row LIVE: the mechanism-off
// switch reaches a registered memory through esr.BuildLedger.
func (j jsonLedger) Render(esr.Query) string {
	type row struct{ Value, Status string }
	type key struct {
		Status string
		Rows   []row
	}
	var keys []key
	for _, kl := range j.ledger.Keys {
		k := key{Status: kl.StatusText()}
		for i, a := range kl.Atoms {
			k.Rows = append(k.Rows, row{a.Display(), kl.Status[i].String()})
		}
		keys = append(keys, k)
	}
	b, _ := json.Marshal(keys)
	return string(b)
}

// A user's memory joins the render-matched protocol: register it, register
// its control (the same build with Options.MechanismOff: every relation
// SAME_STATE, no deprecation, no unresolved status), and compare. The
// control's read-out is d-blind: on 30 s → 60 s → 30 s it sees two values
// and abstains, while its render shows no status at all.
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
	s, atoms := bench.Figure1()
	q := esr.Query{Type: esr.Snapshot, Key: bench.TimeoutKey}
	for _, sp := range []memory.Spec{memory.SpecOf("json-ledger"), control} {
		st := memory.MustBuild(sp, s, atoms, memory.Options{})
		fmt.Printf("%s: %v %s\n", sp, st.Answer(q), st.Render(q))
	}
	// Output:
	// json-ledger: 30 s [{"Status":"ok","Rows":[{"Value":"30 s","Status":"DEPRECATED"},{"Value":"60 s","Status":"DEPRECATED"},{"Value":"30 s","Status":"LIVE"}]}]
	// json-ledger~render-only: ABSTAIN [{"Status":"neutral","Rows":[{"Value":"30 s","Status":"LIVE"},{"Value":"60 s","Status":"LIVE"},{"Value":"30 s","Status":"LIVE"}]}]
}
