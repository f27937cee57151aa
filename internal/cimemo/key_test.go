package cimemo

import (
	"math"
	"testing"
)

// Keys tell apart what results may depend on: the purpose, value order,
// string boundaries, -0 and 0; the same values give the same key, also
// past the 64 KiB buffer.
func TestKeyDistinguishes(t *testing.T) {
	key := func(purpose string, add func(k *Key)) [32]byte {
		k := NewKey(purpose)
		add(k)
		return k.Sum()
	}
	base := key("p", func(k *Key) { k.Uint(1); k.String("ab"); k.String("c"); k.Float(0) })
	for name, other := range map[string][32]byte{
		"purpose":  key("q", func(k *Key) { k.Uint(1); k.String("ab"); k.String("c"); k.Float(0) }),
		"order":    key("p", func(k *Key) { k.String("ab"); k.Uint(1); k.String("c"); k.Float(0) }),
		"boundary": key("p", func(k *Key) { k.Uint(1); k.String("a"); k.String("bc"); k.Float(0) }),
		"-0":       key("p", func(k *Key) { k.Uint(1); k.String("ab"); k.String("c"); k.Float(math.Copysign(0, -1)) }),
	} {
		if other == base {
			t.Errorf("%s: same key", name)
		}
	}
	if again := key("p", func(k *Key) { k.Uint(1); k.String("ab"); k.String("c"); k.Float(0) }); again != base {
		t.Error("the same values gave another key")
	}
	long := func(last float64) [32]byte {
		return key("p", func(k *Key) {
			for i := range 20000 {
				k.Float(float64(i))
			}
			k.Float(last)
		})
	}
	if long(1) == long(2) || long(1) != long(1) {
		t.Error("a key past the buffer does not follow its last value")
	}
}

type memo interface{ get() int }
type fixed int

func (f fixed) get() int { return int(f) }

// A Slot holds one memo; setting nil turns it off.
func TestSlot(t *testing.T) {
	var s Slot[memo]
	if _, ok := s.Get(); ok {
		t.Fatal("an empty slot has a memo")
	}
	s.Set(fixed(3))
	if m, ok := s.Get(); !ok || m.get() != 3 {
		t.Fatalf("Get = %v, %v after Set(3)", m, ok)
	}
	s.Set(nil)
	if _, ok := s.Get(); ok {
		t.Fatal("Set(nil) left a memo")
	}
}
