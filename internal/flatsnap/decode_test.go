package flatsnap

import (
	"bytes"
	"encoding/gob"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

// wide has a field of every kind decode writes in place.
type wide struct {
	ID    string
	OK    bool
	N     int
	Small int8
	Mid   int16
	Wide  int32
	Big   int64
	Note  string
}

// The rows are filled in place, at each field's offset: a damaged body
// (any prefix, any flipped byte, the CRC aside) is refused or read, never
// written past the rows or a panic; an intact one reads back exactly.
func TestDecodeRefusesDamagedBodies(t *testing.T) {
	rows := make([]wide, 300)
	for i := range rows {
		rows[i] = wide{ID: "q" + strconv.Itoa(i%17), OK: i%3 == 0, N: i * 7919, Small: int8(i), Mid: int16(-i * 31),
			Wide: int32(i) << 20, Big: int64(i) << 40, Note: strconv.Itoa(i % 5)}
	}
	path := filepath.Join(t.TempDir(), "rows.snap")
	if err := Write(path, Source{}, rows); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	r := bytes.NewReader(data[len(magic):])
	var h header
	if err := gob.NewDecoder(r).Decode(&h); err != nil {
		t.Fatal(err)
	}
	body := data[len(data)-h.Body:]
	kinds, err := fields(reflect.TypeFor[wide]())
	if err != nil {
		t.Fatal(err)
	}
	got, err := decode[wide](bytes.Clone(body), h, kinds)
	if err != nil || !reflect.DeepEqual(got, rows) {
		t.Fatalf("intact body: %v, equal %v", err, reflect.DeepEqual(got, rows))
	}
	for n := range len(body) {
		if _, err := decode[wide](bytes.Clone(body[:n]), h, kinds); err == nil {
			t.Fatalf("a prefix of %d of %d bytes was read", n, len(body))
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		bad := bytes.Clone(body)
		bad[rng.IntN(len(bad))] ^= byte(1 + rng.IntN(255))
		decode[wide](bad, h, kinds) // must not panic
	}
}
