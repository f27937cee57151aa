package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/internal/regfile/regfiletest"
)

// The commands that read outcome rows refuse a FIFO (whose read used to
// wait for a writer forever) and a link to /dev/zero (one endless line,
// read until memory ran out) at once, naming the file: esr compare's runs
// and esr rejudge's --rows.
func TestRowReadersRefuseAFIFOAndADevice(t *testing.T) {
	dir := t.TempDir()
	a, _ := hostileRows(t, dir)
	fifo, zero := filepath.Join(dir, "fifo.jsonl"), filepath.Join(dir, "zero.jsonl")
	regfiletest.FIFO(t, fifo)
	regfiletest.ZeroLink(t, zero)
	for _, p := range []string{fifo, zero} {
		for name, args := range map[string][]string{
			"compare A B":    {"compare", a, p, "--B", "200"},
			"compare B A":    {"compare", p, a, "--B", "200"},
			"rejudge --rows": {"rejudge", "--rows", p, "--judge", "exact", "--bench", synthBench, "--out", filepath.Join(dir, "rescored.jsonl")},
		} {
			type result struct {
				errOut string
				code   int
			}
			got := regfiletest.Within(t, 20*time.Second, func() result {
				_, errOut, code := runCLI(t, args...)
				return result{errOut, code}
			}, fifo)
			if got.code == 0 || !strings.Contains(got.errOut, p) || !strings.Contains(got.errOut, "not a regular file") {
				t.Errorf("%s %s: exit %d, %s", name, filepath.Base(p), got.code, got.errOut)
			}
		}
	}
}
