package main

import (
	"fmt"
	"io"

	"github.com/esrkit/esrkit/esr/bench"
)

func init() {
	register("example", "write the paper's Figure 1 stream as a one-stream benchmark folder", runExample)
}

func runExample(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("example", stderr)
	out := fs.String("out", "", "folder to write streams.jsonl, atoms.jsonl and qa.jsonl into (required)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "out"); err != nil {
		return err
	}
	t := benchTarget(*out, "esr example", nil)
	if err := writeBench(t, func() error { return bench.Figure1Bench().Save(*out) }); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote the Figure 1 benchmark to %s\n", *out)
	return nil
}
