package lab_test

import (
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/benchtest"
)

// The CSC chain runs its stages; with gold CONTRADICTS labels and the
// oracle reader every stage abstains correctly on cross-source conflicts.
func TestCSCChain(t *testing.T) {
	b := benchtest.Mini(6)
	b.Relations = map[string]map[esr.AtomPair]esr.Relation{}
	for _, s := range b.Streams {
		if strings.HasPrefix(s.ID, "csc") {
			b.Relations[s.ID] = map[esr.AtomPair]esr.Relation{{A: "a1", B: "a2"}: esr.Contradicts}
		}
	}
	res, err := lab.SuiteBoundary.Suite().Run(context.Background(), lab.Setup{Bench: b,
		Readers: []reader.Reader{reader.Oracle{}}, Stats: eval.StatOptions{B: 200}})
	if err != nil {
		t.Fatal(err)
	}
	var chain *eval.Table
	for _, tab := range res.Tables {
		if tab.ID == "table9-csc-chain" {
			chain = tab
		}
	}
	if chain == nil {
		t.Fatal("no chain table")
	}
	for _, row := range chain.Texts()[:3] {
		if row[2] != "1.000" {
			t.Errorf("stage %s accuracy %s, want 1.000", row[0], row[2])
		}
	}
}
