package rowcache_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/rowcache"
)

// TestPrepareRunsSuitesAtOnce prepares every synthetic notebook run
// two at a time, as esr prepare does, over one shared benchmark (a slice of
// the bundled one, loaded through its snapshot), with the default panel and
// the reference adapter. Under -race (make test runs it so) any
// unsynchronised write to state the runs share fails it. A second prepare
// must then read every run from the cache.
func TestPrepareRunsSuitesAtOnce(t *testing.T) {
	full, err := bench.Load("../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	// Every 18th stream: 40 streams over all sources, strata and lengths.
	var streams []*esr.Stream
	atoms := map[string][]esr.Atom{}
	keep := map[string]bool{}
	for i, s := range full.Streams {
		if i%18 == 0 {
			streams, atoms[s.ID], keep[s.ID] = append(streams, s), full.Atoms[s.ID], true
		}
	}
	var qas []esr.QA
	for _, q := range full.QAs {
		if keep[q.StreamID] {
			qas = append(qas, q)
		}
	}
	small := bench.New(streams, atoms, qas)
	small.Relations = map[string]map[bench.AtomPair]esr.Relation{}
	for sid := range keep {
		small.Relations[sid] = full.Relations[sid]
	}
	root := t.TempDir()
	if err := small.Save(filepath.Join(root, "data", "synthetic")); err != nil {
		t.Fatal(err)
	}
	adapter, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(adapter, filepath.Join(root, "examples")); err != nil {
		t.Fatal(err)
	}
	var readers []reader.Reader
	for _, p := range sim.CalibratedProfiles() {
		r, err := sim.New(p, 1)
		if err != nil {
			t.Fatal(err)
		}
		readers = append(readers, r)
	}
	// The first load writes the snapshot; Prepare's load reads it,
	// so no loader's check fills a cache before the runs share the bench.
	if _, err := rowcache.NotebookBench(root, "synthetic"); err != nil {
		t.Fatal(err)
	}
	if snaps, _ := filepath.Glob(filepath.Join(root, ".esr-cache", "bench", "*")); len(snaps) != 1 {
		t.Fatalf("bench snapshots %v, want one", snaps)
	}
	ps, err := rowcache.Prepare(context.Background(), root, readers, len(rowcache.NotebookRuns), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, r := range rowcache.NotebookRuns {
		if r.Bench == "synthetic" {
			want++
		}
	}
	if len(ps) != want {
		t.Fatalf("prepared %d runs, want the %d synthetic notebook runs", len(ps), want)
	}
	for _, p := range ps {
		if !p.Computed || p.Rows == 0 {
			t.Errorf("%s: computed %v, %d rows; want rows computed on a fresh cache", p.Run, p.Computed, p.Rows)
		}
	}
	again, err := rowcache.Prepare(context.Background(), root, readers, len(rowcache.NotebookRuns), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range again {
		if p.Computed || p.Rows != ps[i].Rows {
			t.Errorf("%s again: computed %v, %d rows; want the %d cached rows read", p.Run, p.Computed, p.Rows, ps[i].Rows)
		}
	}
}
