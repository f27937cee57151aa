package bench

import (
	"encoding/binary"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// A damaged body is refused, never a panic or an allocation its bytes
// cannot back: every prefix of a body is refused, so are counts far past
// its length, and flipped bytes decode or are refused without a panic.
func TestDecodeSnapshotRefusesDamagedBodies(t *testing.T) {
	b := Figure1Bench()
	body, err := encodeSnapshot(b)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := decodeSnapshot(body, b.Dir, b.opt)
	if !ok || !sameBench(b, got) {
		t.Fatal("the whole body does not decode to the benchmark")
	}
	for n := range len(body) {
		if _, ok := decodeSnapshot(body[:n], b.Dir, b.opt); ok {
			t.Fatalf("a body cut at %d of %d bytes decoded", n, len(body))
		}
	}
	for _, n := range []uint64{1 << 26, 1 << 40, 1<<64 - 1} {
		huge := binary.AppendUvarint(nil, n) // the string table's count
		if _, ok := decodeSnapshot(append(huge, body...), b.Dir, b.opt); ok {
			t.Errorf("a table count of %d decoded", n)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		flipped := append([]byte(nil), body...)
		flipped[rng.IntN(len(flipped))] ^= byte(1 + rng.IntN(255))
		decodeSnapshot(flipped, b.Dir, b.opt) // must not panic
	}
}

// The snapshot of a benchmark is the same bytes each time (map order does
// not leak into it), and a benchmark the codec cannot keep exactly (a time
// outside UTC) is not snapshotted.
func TestEncodeSnapshotIsDeterministic(t *testing.T) {
	b := Figure1Bench()
	first, err := encodeSnapshot(b)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, err := encodeSnapshot(Figure1Bench())
		if err != nil || !reflect.DeepEqual(again, first) {
			t.Fatal("two snapshots of one benchmark differ")
		}
	}
	s := b.Streams[0]
	s.Events[0].Timestamp.Time = s.Events[0].Timestamp.Local().In(fixedZone)
	if _, err := encodeSnapshot(b); err == nil {
		t.Error("a time outside UTC was encoded")
	}
}

var fixedZone = func() *time.Location { return time.FixedZone("X", 3600) }()
