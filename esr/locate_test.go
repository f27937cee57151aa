package esr_test

import (
	"testing"

	"github.com/esrkit/esrkit/esr"
)

// Locate never reads a QA's gold fields: without Entity/Attribute it picks
// the key the question names, whatever the gold events say.
func TestLocateIgnoresGold(t *testing.T) {
	atoms := []esr.Atom{
		{ID: "a1", EventID: "e1", Entity: "svc", Attribute: "request_timeout", Value: "30 s", Polarity: "+"},
		{ID: "a2", EventID: "e2", Entity: "svc", Attribute: "owner", Value: "@ann", Polarity: "+"},
		{ID: "a3", EventID: "e3", Entity: "svc", Attribute: "owner", Value: "@bob", Polarity: "+"},
	}
	q := esr.QA{Question: "What is the request timeout of svc now?", GoldSupportingEventIDs: []string{"e2"}}
	if k, ok := q.Locate(atoms); !ok || k.Attribute != "request_timeout" {
		t.Errorf("Locate = %v, %v; want the timeout key the question names", k, ok)
	}
	q.GoldSupportingEventIDs = []string{"e1"}
	q.Question = "Who is responsible?"
	if k, _ := q.Locate(atoms); k.Attribute != "owner" {
		t.Errorf("no overlap: Locate = %v, want the key with the most atoms (owner)", k)
	}
}
