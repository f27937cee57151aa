package bench_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/regfile"
	"github.com/esrkit/esrkit/internal/regfile/regfiletest"
)

const goodQA = `{"qid":"q1","stream_id":"s1","question":"What is y of x?","gold_answer":"v","phenomenon":"monotonic","entity":"x","attribute":"y"}`

// writeFiles writes a bench folder; a nil content leaves the file out.
func writeFiles(t *testing.T, streams, atoms, qa *string) string {
	t.Helper()
	dir := t.TempDir()
	for name, c := range map[string]*string{bench.StreamsFile: streams, bench.AtomsFile: atoms, bench.QAFile: qa} {
		if c != nil {
			os.WriteFile(filepath.Join(dir, name), []byte(*c), 0o644)
		}
	}
	return dir
}

func ptr(s string) *string { return &s }

// Finding 8: input that loaded silently (and made every answer ABSTAIN,
// or flipped answers) is an error naming the file, the line and the
// field.
func TestLoadRejectsSilentBadInput(t *testing.T) {
	cases := []struct {
		name               string
		streams, atoms, qa *string
		want               string
	}{
		{"missing qa.jsonl", ptr(goodStream), ptr(atomLine("", "")), nil, "qa.jsonl: missing"},
		{"empty qa.jsonl", ptr(goodStream), ptr(atomLine("", "")), ptr(""), "qa.jsonl: no QAs"},
		{"empty atoms.jsonl", ptr(goodStream), ptr(""), ptr(goodQA), "atoms.jsonl: no atoms"},
		{"empty value", ptr(goodStream), ptr(atomLine("value", `""`)), ptr(goodQA), `atoms.jsonl:1: field "atoms[0].value": empty`},
		{"NUL in a value", ptr(goodStream), ptr(atomLine("value", `"30\u0000s"`)), ptr(goodQA),
			`atoms.jsonl:1: field "atoms[0].value": contains a NUL byte`},
		{"atom before its event", ptr(goodStream), ptr(atomLine("timestamp", `"2023-12-31"`)), ptr(goodQA),
			`atoms.jsonl:1: field "atoms[0].timestamp": 2023-12-31`},
		{"blank gold", ptr(goodStream), ptr(atomLine("", "")), ptr(strings.Replace(goodQA, `"gold_answer":"v"`, `"gold_answer":"  "`, 1)),
			`qa.jsonl:1: field "gold_answer": missing or blank`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := bench.Load(writeFiles(t, c.streams, c.atoms, c.qa))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
			var le *bench.LineError
			if strings.Contains(c.want, ".jsonl:1:") && !errors.As(err, &le) {
				t.Errorf("not a *LineError: %T", err)
			}
		})
	}
	// The same input loads with a valid QA.
	if _, err := bench.Load(writeFiles(t, ptr(goodStream), ptr(atomLine("", "")), ptr(goodQA))); err != nil {
		t.Fatalf("good input: %v", err)
	}
}

// A question whose key has no atom in its stream (an extraction that
// missed the key's events, or all of a stream's) loads by default: it is
// listed in Uncovered, said once in Notices, and evaluated like any other.
// A tool checking a benchmark it built itself (LoadOptions.RequireCoverage)
// gets the file:line:field error instead.
func TestLoadKeepsQuestionsOfALossyExtraction(t *testing.T) {
	twoStreams := goodStream + "\n" + strings.Replace(goodStream, `"s1"`, `"s2"`, 1)
	keyless := strings.Replace(strings.Replace(goodQA, `"q1"`, `"q2"`, 1), `"attribute":"y"`, `"attribute":"z"`, 1)
	streamless := strings.Replace(strings.Replace(goodQA, `"q1"`, `"q3"`, 1), `"stream_id":"s1"`, `"stream_id":"s2"`, 1)
	dir := writeFiles(t, ptr(twoStreams), ptr(atomLine("", "")), ptr(goodQA+"\n"+keyless+"\n"+streamless))
	b, err := bench.Load(dir)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(b.QAs) != 3 || !slices.Equal(b.Uncovered, []string{"q2", "q3"}) {
		t.Errorf("Load: %d QAs, uncovered %v; want 3 and [q2 q3]", len(b.QAs), b.Uncovered)
	}
	if n := b.Notices(); len(n) != 1 || !strings.Contains(n[0], "qa.jsonl: 2 of 3 questions are about a key with no atom") {
		t.Errorf("Notices = %q", n)
	}
	for _, c := range []struct{ qa, want string }{
		{keyless, `qa.jsonl:1: field "attribute": stream "s1" has no atom about the key (x / z)`},
		{streamless, `qa.jsonl:1: field "stream_id": stream "s2" has no atoms`},
	} {
		_, err := bench.LoadWith(writeFiles(t, ptr(twoStreams), ptr(atomLine("", "")), ptr(c.qa)), bench.LoadOptions{RequireCoverage: true})
		var le *bench.LineError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &le) {
			t.Errorf("RequireCoverage: error %v, want %q", err, c.want)
		}
	}
}

// A benchmark file that is not a regular file is an error naming the file,
// with or without snapshots, at once: a FIFO (whose open used to wait for a
// writer forever) or a link to /dev/zero (one endless line; with snapshots
// it used to be read whole first).
func TestLoadRefusesABenchFileThatIsNotARegularFile(t *testing.T) {
	for _, snaps := range []string{"", t.TempDir()} {
		for _, mk := range []func(testing.TB, string){regfiletest.ZeroLink, regfiletest.FIFO} {
			dir := writeFiles(t, nil, ptr(""), ptr(goodQA+"\n"))
			path := filepath.Join(dir, bench.StreamsFile)
			mk(t, path)
			err := regfiletest.Within(t, 10*time.Second, func() error {
				_, err := bench.LoadWith(dir, bench.LoadOptions{Snapshots: snaps})
				return err
			}, path)
			if !errors.Is(err, regfile.ErrNotRegular) || !strings.Contains(err.Error(), bench.StreamsFile) {
				t.Errorf("snapshots %q: err = %v, want streams.jsonl: not a regular file", snaps, err)
			}
		}
	}
}
