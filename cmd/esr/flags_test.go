package main

import (
	"flag"
	"io"
	"testing"
)

func TestRequireFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--bench", "b", "--out", "o", "--judge", "j"}, ""},
		{[]string{"--bench", "b", "--judge", "j"}, "--out is required"},
		{[]string{"--judge", "j"}, "--bench and --out are required"},
		{nil, "--bench, --out and --judge are required"},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.String("bench", "", "")
		fs.String("out", "", "")
		fs.String("judge", "", "")
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		err := requireFlags(fs, "bench", "out", "judge")
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.args, got, c.want)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	if err := fs.Parse([]string{"x"}); err != nil {
		t.Fatal(err)
	}
	if err := noExtraArgs(fs); err == nil || err.Error() != `unexpected arguments ["x"]` {
		t.Errorf("noExtraArgs: %v", err)
	}
}
