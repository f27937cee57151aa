package runlog_test

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/runlog"
)

// Read an Inspect log and a cancelled run of the same task, and compare
// the samples both finished: the means, the difference and its interval
// (too few samples here for one), and the flips.
func ExampleCompare() {
	a, err := runlog.Read("testdata/inspect/popularity-cancelled.json", "", runlog.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := runlog.Read("testdata/inspect/popularity.eval", runlog.Inspect, runlog.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := runlog.Compare(a, b, runlog.Options{Stats: eval.StatOptions{B: 1000, Seed: 1}, Partial: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range c.Diffs {
		fmt.Printf("%s: A %.3f, B %.3f over %d samples, B − A %+.3f %s, %d flips, %d samples only in B\n",
			d.Scorer, d.AccB, d.AccA, d.N, d.Delta, d.CI(), len(c.Flips), len(c.OnlyB))
	}
	// Output:
	// match: A 0.667, B 0.667 over 3 samples, B − A +0.000 (too few questions), 0 flips, 7 samples only in B
}
