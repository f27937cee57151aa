package lab_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/goldenimg"
)

// lengthBench is a bench of streams with the given event counts (no
// atoms, no questions: StreamLengthPlot reads the lengths only).
func lengthBench(lengths ...int) *bench.Bench {
	var streams []*esr.Stream
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, n := range lengths {
		s := &esr.Stream{ID: fmt.Sprintf("s%02d", i)}
		for j := 0; j < n; j++ {
			s.Events = append(s.Events, esr.Event{ID: fmt.Sprintf("e%d", j), Kind: "comment", Timestamp: esr.Time{Time: t0.AddDate(0, 0, j)}})
		}
		streams = append(streams, s)
	}
	return bench.New(streams, map[string][]esr.Atom{}, nil)
}

func TestStreamLengthPlotGolden(t *testing.T) {
	lengths := []int{3, 4, 5, 5, 6, 8, 9, 10, 12, 15, 18, 25, 40}
	goldenimg.Check(t, lab.StreamLengthPlot(lengthBench(lengths...), "golden"), "stream-length-plot")
	lengths[0] = 7 // one stream moves from the first bin to the third
	goldenimg.CheckDiffers(t, lab.StreamLengthPlot(lengthBench(lengths...), "golden"), "stream-length-plot")
}
