package layout

import (
	"encoding/json"
	"slices"
	"testing"
)

// mem0Line is one memory of a Mem0 render.
const mem0Line = `{"id":"0b6f0c52-5d2c-4a37-8f7e-6b1e8f2f1d33","memory":"issue #8723 severity was set to critical","hash":"0123456789abcdef0123456789abcdef","metadata":null,"created_at":"2026-01-01T00:00:03+00:00","updated_at":"2026-01-01T00:00:03+00:00","user_id":"syn-gh-0001"}`

// literalMem0 is the struct the parser decoded Mem0 lines into before the
// vocabulary: jsonStrings must decode every line as it does.
type literalMem0 struct {
	Memory    string `json:"memory"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

// jsonStrings decodes as encoding/json decodes a literal tagged struct:
// exact and case-folded member names, a later member winning, null and
// absent members empty, non-string members and non-objects refused.
func TestJSONStringsMatchesTaggedStruct(t *testing.T) {
	for _, line := range []string{
		mem0Line,
		`{"memory":"a is b"}`,
		`{"Memory":"a is b","CREATED_AT":"x"}`,
		`{"memory":"first","Memory":"second"}`,
		`{"memory":null,"updated_at":"u"}`,
		`{"memory":5}`,
		`{"memory":"a","other":[1,{"x":2}]}`,
		`{"memory":"a"} trailing`,
		`[{"memory":"a"}]`,
		`{"memory":"a\u003cb\u003e"}`,
		`{}`,
		`{"memory":"a",}`,
	} {
		var want literalMem0
		wantErr := json.Unmarshal([]byte(line), &want) != nil
		got, ok := JSONStrings(line, "memory", "created_at", "updated_at")
		if ok == wantErr {
			t.Errorf("%s: ok = %v, encoding/json error = %v", line, ok, wantErr)
			continue
		}
		if ok && !slices.Equal(got, []string{want.Memory, want.CreatedAt, want.UpdatedAt}) {
			t.Errorf("%s: %q, encoding/json %+v", line, got, want)
		}
	}
}

// BenchmarkMem0LineTaggedStruct is the baseline for BenchmarkMem0LineJSONStrings:
// decoding one Mem0 line into a literal tagged struct.
func BenchmarkMem0LineTaggedStruct(b *testing.B) {
	for b.Loop() {
		var m literalMem0
		if json.Unmarshal([]byte(mem0Line), &m) != nil {
			b.Fatal("not decoded")
		}
	}
}

// BenchmarkMem0LineJSONStrings decodes the same line through jsonStrings.
func BenchmarkMem0LineJSONStrings(b *testing.B) {
	for b.Loop() {
		if _, ok := JSONStrings(mem0Line, "memory", "created_at", "updated_at"); !ok {
			b.Fatal("not decoded")
		}
	}
}
