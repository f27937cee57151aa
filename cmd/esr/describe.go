package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/internal/coverage"
)

func init() {
	register("describe", "benchmark composition: QAs by source × stratum × query type, stream-length bins (Tables 1, 12), and the composition beside the paper's ESR-Bench (App. F, §3)", runDescribe)
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
	if *format != "json" && *format != "text" {
		return fmt.Errorf("--format must be json or text, got %q", *format)
	}
	// A lossy extraction (QAs whose key has no atom) is described, not
	// refused: its coverage is one of the rows.
	b, err := openBench(*dir, stderr)
	if err != nil {
		return err
	}
	c := coverage.Describe(b)
	if *format == "text" {
		text := c.Text() + "\n" + lab.ShapeTable(b, filepath.Base(filepath.Clean(*dir))).Text()
		_, err := io.WriteString(stdout, text)
		return err
	}
	out := struct {
		*coverage.Composition
		Shape       *bench.Shape     `json:"shape"`
		ShapeChecks []lab.ShapeCheck `json:"shape_vs_paper"`
	}{c, bench.MeasureShape(b), lab.PaperShapeChecks(b)}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
