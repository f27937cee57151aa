package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// readCSVColumns reads the CSV file at path, whose first row is a header, and
// returns the named columns (matched case-insensitively, in any position; other
// columns are ignored) with the file line of each data row. Errors name the
// file and line, e.g. `pairs.csv:1: missing header field "b" (want header
// "a,b", got "1,0")` or `pairs.csv:7: wrong number of fields`.
func readCSVColumns(path string, names ...string) (cols [][]string, lines []int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	want := strings.Join(names, ",")
	r := csv.NewReader(f)
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if err == io.EOF {
		return nil, nil, fmt.Errorf("%s:1: empty file, want header %q", path, want)
	}
	if err != nil {
		return nil, nil, csvError(path, err)
	}
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\ufeff") // UTF-8 byte-order mark
	}
	index := make([]int, len(names))
	for k, name := range names {
		index[k] = -1
		for j, h := range header {
			if strings.EqualFold(strings.TrimSpace(h), name) {
				index[k] = j
				break
			}
		}
		if index[k] < 0 {
			return nil, nil, fmt.Errorf("%s:1: missing header field %q (want header %q, got %q)",
				path, name, want, strings.Join(header, ","))
		}
	}
	cols = make([][]string, len(names))
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, csvError(path, err)
		}
		line, _ := r.FieldPos(0)
		lines = append(lines, line)
		for k, j := range index {
			cols[k] = append(cols[k], strings.TrimSpace(rec[j]))
		}
	}
	if len(lines) == 0 {
		return nil, nil, fmt.Errorf("%s: no data rows after the header %q", path, want)
	}
	return cols, lines, nil
}

// csvError formats a csv.ParseError as "path:line: message".
func csvError(path string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %v", path, pe.Line, pe.Err)
	}
	return fmt.Errorf("%s: %v", path, err)
}

// readFloatPairs reads two numeric columns of a CSV file (see readCSVColumns);
// a field that is not a finite number is reported as
// `pairs.csv:7: field "b": "x" is not a number`.
func readFloatPairs(path, c1, c2 string) (x, y []float64, err error) {
	cols, lines, err := readCSVColumns(path, c1, c2)
	if err != nil {
		return nil, nil, err
	}
	return parseFloatColumns(path, cols, lines, c1, c2)
}

// readFloatPairsCluster is readFloatPairs with a third column cc of cluster
// labels (compared as strings after trimming spaces); an empty label is
// reported as `pairs.csv:7: field "question": empty cluster label`.
func readFloatPairsCluster(path, c1, c2, cc string) (x, y []float64, cluster []string, err error) {
	cols, lines, err := readCSVColumns(path, c1, c2, cc)
	if err != nil {
		return nil, nil, nil, err
	}
	if x, y, err = parseFloatColumns(path, cols[:2], lines, c1, c2); err != nil {
		return nil, nil, nil, err
	}
	for i, s := range cols[2] {
		if s == "" {
			return nil, nil, nil, fmt.Errorf("%s:%d: field %q: empty cluster label", path, lines[i], cc)
		}
	}
	return x, y, cols[2], nil
}

// parseFloatColumns parses the two columns cols (named c1 and c2, read from
// path at the given lines) as finite numbers.
func parseFloatColumns(path string, cols [][]string, lines []int, c1, c2 string) (x, y []float64, err error) {
	out := [2][]float64{make([]float64, len(lines)), make([]float64, len(lines))}
	for k, name := range []string{c1, c2} {
		for i, s := range cols[k] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("%s:%d: field %q: %q is not a number", path, lines[i], name, s)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil, fmt.Errorf("%s:%d: field %q: %q is not a finite number", path, lines[i], name, s)
			}
			out[k][i] = v
		}
	}
	return out[0], out[1], nil
}

// readLabelPairs reads two label columns of a CSV file (see readCSVColumns);
// labels are compared as strings after trimming spaces, and an empty label is
// reported as an error.
func readLabelPairs(path, c1, c2 string) (x, y []string, err error) {
	cols, lines, err := readCSVColumns(path, c1, c2)
	if err != nil {
		return nil, nil, err
	}
	for k, name := range []string{c1, c2} {
		for i, s := range cols[k] {
			if s == "" {
				return nil, nil, fmt.Errorf("%s:%d: field %q: empty label", path, lines[i], name)
			}
		}
	}
	return cols[0], cols[1], nil
}
