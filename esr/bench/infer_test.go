package bench_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// inferredAtoms is an atoms file for LoadFiles without streams: per stream
// one row whose atoms name events out of time order, several atoms per
// event, and events that share a timestamp (so that the order of ties
// shows).
func inferredAtoms(streams, events int) (string, [][]esr.Atom) {
	var b bytes.Buffer
	var rows [][]esr.Atom
	base := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for s := range streams {
		sid := fmt.Sprintf("s%d", s)
		var atoms []esr.Atom
		for i := range events {
			// Event e's time goes down and up again; every third pair of
			// events ties.
			e := (i * 7) % events
			at := base.Add(time.Duration((e*5)%(events/2+1)/2) * time.Minute)
			for k := range 1 + i%2 {
				atoms = append(atoms, esr.Atom{ID: fmt.Sprintf("%s-a%d-%d", sid, i, k), EventID: fmt.Sprintf("e%d", e),
					Timestamp: esr.Time{Time: at}, Entity: "x", Attribute: fmt.Sprintf("y%d", i%3),
					Value: fmt.Sprintf("v%d", i), Polarity: esr.Polarity("+"), EventKind: "edit"})
			}
		}
		line, _ := json.Marshal(map[string]any{"stream_id": sid, "atoms": atoms})
		b.Write(append(line, '\n'))
		rows = append(rows, atoms)
	}
	return b.String(), rows
}

// sortedEachTime is how streams were inferred before: each new event
// appended, then the stream sorted again.
func sortedEachTime(sid string, atoms []esr.Atom) []esr.Event {
	s := &esr.Stream{ID: sid}
	for _, a := range atoms {
		if s.Event(a.EventID) != nil {
			continue
		}
		s.Events = append(s.Events, esr.Event{ID: a.EventID, Kind: a.EventKind, Timestamp: a.Timestamp, Actor: a.Actor, Role: a.Role})
		s.SortEvents()
	}
	return s.Events
}

// Streams inferred from atoms (LoadFiles without a streams file) have the
// events, in the order, that sorting after every new event gave.
func TestLoadFilesInfersStreamsAsBefore(t *testing.T) {
	text, rows := inferredAtoms(3, 40)
	path := filepath.Join(t.TempDir(), bench.AtomsFile)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := bench.LoadFiles(path, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Streams) != len(rows) {
		t.Fatalf("%d streams, want %d", len(b.Streams), len(rows))
	}
	for i, atoms := range rows {
		sid := fmt.Sprintf("s%d", i)
		s := b.Stream(sid)
		if s == nil || b.Streams[i] != s {
			t.Fatalf("stream %s missing or out of file order", sid)
		}
		if want := sortedEachTime(sid, atoms); !reflect.DeepEqual(s.Events, want) {
			t.Errorf("stream %s: events %v\nwant %v", sid, ids(s.Events), ids(want))
		}
	}
}

func ids(evs []esr.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.ID)
	}
	return out
}

// Inferring a stream of 20,000 events (30,000 atoms) takes under a second
// (0.7 s on the 2-core machine of 2026-12-05, 4.8 s with the race
// detector); it was quadratic, every new event sorting the stream again:
// 11.9 s in the report, 37 s on that machine. The bound is generous for a
// loaded machine and the race detector.
func TestLoadFilesInfersALongStreamInLinearTime(t *testing.T) {
	text, _ := inferredAtoms(1, 20000)
	path := filepath.Join(t.TempDir(), bench.AtomsFile)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	const bound = 10 * time.Second
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		b, err := bench.LoadFiles(path, "")
		if err == nil && len(b.Stream("s0").Events) != 20000 {
			err = fmt.Errorf("%d events, want 20000", len(b.Stream("s0").Events))
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("20,000 events inferred in %s", time.Since(start).Round(time.Millisecond))
	case <-time.After(bound):
		t.Fatalf("inferring 20,000 events took more than %s", bound)
	}
}
