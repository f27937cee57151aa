package bench_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// Build writes a small stream by hand: one event per line, each carrying at
// most one value of the key. An event without a value stays in the stream
// (a reader sees it) but yields no atom.
func ExampleBuild() {
	k := esr.Key{Entity: "service", Attribute: "max_retries"}
	s, atoms := bench.Build("retries", k, []bench.Event{
		{ID: "e1", Date: "2024-04-01", Actor: "ops", Value: "3", Text: "Retries are capped at 3."},
		{ID: "e2", Date: "2024-04-02", Actor: "dev", Text: "Looking into the flaky test."},
		{ID: "e3", Date: "2024-04-09", Actor: "ops", Value: "5", Text: "Raised the retry cap to 5."},
	})
	fmt.Println(s.ID, s.Title, len(s.Events), "events")
	for _, a := range atoms {
		fmt.Println(a.ID, a.EventID, a.Timestamp.Date(), a.ActorName(), a.Key(), "=", a.Display())
	}
	// Output:
	// retries service / max_retries 3 events
	// a1 e1 2024-04-01 ops service / max_retries = 3
	// a2 e3 2024-04-09 ops service / max_retries = 5
}

// Tiers are the paper's Figure 2 conflict-locality tiers, each with a live
// example stream: where the conflict sits and what resolving it needs.
func ExampleTiers() {
	for _, t := range bench.Tiers() {
		fmt.Printf("%s (%d events, gold %s): needs %s\n", t.Name, len(t.Stream.Events), t.Gold, t.Needs)
	}
	// Output:
	// L1 intra-passage (1 events, gold ABSTAIN): needs both statements and their polarity; reading settles it
	// L2 cross-passage (2 events, gold ABSTAIN): needs provenance and time to link them; abstain while unresolved
	// L3 temporal trajectory (3 events, gold workaround X): needs a deprecation marker (binary live/dead); retention for provenance
}
