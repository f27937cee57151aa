package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/esrkit/esrkit/internal/coverage"
)

func init() {
	register("describe", "benchmark composition: QAs by source × stratum × query type, stream-length bins (Tables 1, 12)", runDescribe)
}

func runDescribe(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("describe", stderr)
	dir := fs.String("bench", "", "benchmark `DIR` (required)")
	format := fs.String("format", "json", "output format: json or text")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "bench"); err != nil {
		return err
	}
	b, err := openBench(*dir, stderr)
	if err != nil {
		return err
	}
	c := coverage.Describe(b)
	switch *format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	case "text":
		_, err := io.WriteString(stdout, c.Text())
		return err
	}
	return fmt.Errorf("--format must be json or text, got %q", *format)
}
