package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr/bench"
)

// TestExploreCommand: esr explore prints the library's table and sentence
// for the settings its flags name, and drills into a question.
func TestExploreCommand(t *testing.T) {
	var out, errb bytes.Buffer
	args := []string{"explore", "--bench", "../../data/synthetic", "--stratum", "monotonic", "--reader", "sim:date-sorter@status=0.5",
		"--terms", "1", "--seed", "3", "--question", "2"}
	if code := runMain(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	b, err := bench.Load("../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	s, err := lab.DefaultSettings().WithReaderSpec("sim:date-sorter@status=0.5")
	if err != nil {
		t.Fatal(err)
	}
	s.Stratum, s.Terms, s.Seed = "monotonic", lab.TermSets[1].Name, 3
	ex := lab.NewExplorer(b)
	v, err := ex.View(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if !strings.HasPrefix(got, v.Table().Markdown()) || !strings.Contains(got, v.Sentence()) {
		t.Errorf("output does not start with the library's table and sentence:\n%.600s", got)
	}
	qids, _ := ex.QIDs(s)
	for _, want := range []string{"## graphrag-abstain", "## fine-ledger", "scripted:naive", qids[1]} {
		if !strings.Contains(got, want) {
			t.Errorf("drill-down lacks %q", want)
		}
	}
	for _, bad := range [][]string{{"--stratum", "nope"}, {"--reader", "sim:nobody"}, {"--terms", "9"}, {"--question", "100000"}} {
		out.Reset()
		errb.Reset()
		if code := runMain(append([]string{"explore", "--bench", "../../data/synthetic"}, bad...), &out, &errb); code != 1 || errb.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q; want 1 and a message", bad, code, errb.String())
		}
	}
}
