package bench_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/esrkit/esrkit/esr/bench"
)

// Load validates a benchmark folder; bad input is a *LineError naming the
// file, the line and the field.
func ExampleLoad() {
	dir, err := os.MkdirTemp("", "bench")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	// Write the Figure 1 benchmark, then break one timestamp.
	if err := bench.Figure1Bench().Save(dir); err != nil {
		panic(err)
	}
	b, err := bench.Load(dir)
	fmt.Println(len(b.Streams), "stream,", len(b.QAs), "QA, error:", err)

	path := filepath.Join(dir, bench.StreamsFile)
	raw, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(raw), "2024-02-01", "2024-02-31", 1)), 0o644)
	_, err = bench.Load(dir)
	var le *bench.LineError
	if errors.As(err, &le) {
		fmt.Println(le.File, "line", le.Line, "field", le.Field)
	}
	// Output:
	// 1 stream, 2 QA, error: <nil>
	// streams.jsonl line 1 field events[1].timestamp
}
