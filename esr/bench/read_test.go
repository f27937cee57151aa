package bench

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

// endless is one line that does not end: 'a' after 'a', until stop bytes
// have been given (then the end of the input, so that a reader that does
// not stop on its own still returns); given counts what was read.
type endless struct{ given, stop int }

func (e *endless) Read(p []byte) (int, error) {
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

// An endless line is an error naming the file and line once it passes
// maxLine, having read and allocated little more than maxLine: it used to be
// read whole (a 400 MB line took 844 MB, /dev/zero all memory) before the
// bound was checked.
func TestEachLineStopsAnEndlessLineAtTheBound(t *testing.T) {
	r := &endless{stop: 4 * maxLine}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	calls := 0
	err := eachLine("streams.jsonl", strings.NewReader("{}\n"), func(int, []byte) error { calls++; return nil })
	if err != nil || calls != 1 {
		t.Fatalf("a short line: %v, %d calls", err, calls)
	}
	err = eachLine("streams.jsonl", io.MultiReader(strings.NewReader("{}\n"), r), func(int, []byte) error { return nil })
	runtime.ReadMemStats(&after)
	var le *LineError
	if !errors.As(err, &le) || le.File != "streams.jsonl" || le.Line != 2 || !strings.Contains(err.Error(), "streams.jsonl:2: line longer than") {
		t.Fatalf("err = %v, want streams.jsonl:2: line longer than …", err)
	}
	if limit := maxLine + 2<<20; r.given > limit {
		t.Errorf("read %d MiB of the line, want at most %d MiB", r.given>>20, limit>>20)
	}
	if alloc, limit := after.TotalAlloc-before.TotalAlloc, uint64(maxLine+8<<20); alloc > limit {
		t.Errorf("allocated %d MiB, want at most %d MiB", alloc>>20, limit>>20)
	}
}

// Lines, long ones (over many buffers) included, come back whole and in
// order, blank ones skipped, the last one without its newline too.
func TestEachLineReadsLongLinesWhole(t *testing.T) {
	long := strings.Repeat("x", 3<<20+17)
	in := "a\n\n  \n" + long + "\n" + long + "y\r\nlast"
	var got []string
	var nums []int
	err := eachLine("f", strings.NewReader(in), func(n int, b []byte) error {
		got, nums = append(got, string(b)), append(nums, n)
		return nil
	})
	want := []string{"a", long, long + "y", "last"}
	if err != nil || len(got) != len(want) {
		t.Fatalf("err %v, %d lines", err, len(got))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d: %d bytes, want %d", i, len(got[i]), len(want[i]))
		}
	}
	if nums[0] != 1 || nums[1] != 4 || nums[2] != 5 || nums[3] != 6 {
		t.Errorf("line numbers %v, want [1 4 5 6]", nums)
	}
}
