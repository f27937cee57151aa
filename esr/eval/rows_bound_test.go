package eval_test

import (
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/internal/regfile"
)

// endlessLine is one line that does not end ('a' after 'a') until stop
// bytes have been given; given counts them.
type endlessLine struct{ given, stop int }

func (e *endlessLine) Read(p []byte) (int, error) {
	if e.given >= e.stop {
		return 0, io.EOF
	}
	n := min(len(p), e.stop-e.given)
	for i := range p[:n] {
		p[i] = 'a'
	}
	e.given += n
	return n, nil
}

// A rows line that does not end (a sparse file, a device) is an error
// naming the file and line once it passes regfile.MaxLine, having read and
// allocated little more than the bound: it used to be read whole.
func TestDecodeOutcomesStopsAnEndlessLineAtTheBound(t *testing.T) {
	r := &endlessLine{stop: 4 * regfile.MaxLine}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := eval.DecodeOutcomes(io.MultiReader(strings.NewReader(`{"qid":"q1","memory":"fine-ledger"}`+"\n"), r), "rows.jsonl")
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "rows.jsonl:2: line longer than") {
		t.Fatalf("err = %v, want rows.jsonl:2: line longer than …", err)
	}
	if limit := regfile.MaxLine + 2<<20; r.given > limit {
		t.Errorf("read %d MiB of the line, want at most %d MiB", r.given>>20, limit>>20)
	}
	if alloc, limit := after.TotalAlloc-before.TotalAlloc, uint64(regfile.MaxLine+8<<20); alloc > limit {
		t.Errorf("allocated %d MiB, want at most %d MiB", alloc>>20, limit>>20)
	}
}
