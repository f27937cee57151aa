package bench_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/bench"
)

// The paper's Figure 1 stream as a benchmark: its events, atoms and QA.
func ExampleFigure1Bench() {
	b := bench.Figure1Bench()
	s := b.Streams[0]
	fmt.Println(s.ID, len(s.Events), "events,", len(b.Atoms[s.ID]), "atoms")
	for _, e := range s.Events {
		fmt.Println(e.ID, e.Timestamp.Date(), e.Text)
	}
	fmt.Println(b.QAs[0].Question, "→", b.QAs[0].GoldAnswer)
	// Output:
	// figure1 3 events, 3 atoms
	// e1 2024-01-01 Set timeout = 30 s. Initial configuration for the request timeout.
	// e2 2024-02-01 Update: use 60 s instead. The timeout was increased to improve reliability under load.
	// e3 2024-03-01 Correction: revert to 30 s. This change restores the previous setting due to observed issues.
	// What request_timeout is currently in force for service? → 30 s
}
