package runlog_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The copies with some scores changed that the tests compare with the real
// logs are made here, by editing the logs' own JSON (never by writing the
// structure the reader expects from scratch).

// editJSON decodes b (one JSON value), lets edit change it, and encodes it.
func editJSON(t *testing.T, b []byte, edit func(v map[string]any)) []byte {
	t.Helper()
	var v map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	edit(v)
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// at walks v by keys and indexes ("samples", 0, "scores").
func at(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%v: not an object at %q", path, k)
			}
			v = m[k]
		case int:
			l, ok := v.([]any)
			if !ok || k >= len(l) {
				t.Fatalf("%v: not a list long enough at %d", path, k)
			}
			v = l[k]
		}
	}
	return v
}

// set sets the last key of path in the object path[:len-1] leads to.
func set(t *testing.T, v any, value any, path ...any) {
	t.Helper()
	parent := at(t, v, path[:len(path)-1]...)
	switch k := path[len(path)-1].(type) {
	case string:
		parent.(map[string]any)[k] = value
	case int:
		parent.([]any)[k] = value
	}
}

// flipInspectValue turns an Inspect score value "C" into "I" and any other
// into "C".
func flipInspectValue(v string) string {
	if v == "C" {
		return "I"
	}
	return "C"
}

// changedEval copies the .eval archive src to dst with the match score of
// the samples ids (epoch 1) flipped (C ↔ I); the rest is copied byte for
// byte.
func changedEval(t *testing.T, src, dst string, ids ...string) {
	t.Helper()
	z, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	want := map[string]bool{}
	for _, id := range ids {
		want["samples/"+id+"_epoch_1.json"] = true
	}
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		if want[f.Name] {
			delete(want, f.Name)
			b = editJSON(t, b, func(v map[string]any) {
				set(t, v, flipInspectValue(at(t, v, "scores", "match", "value").(string)), "scores", "match", "value")
			})
		}
		fw, err := w.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(b)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if len(want) > 0 {
		t.Fatalf("no members %v in %s", want, src)
	}
	if err := os.WriteFile(dst, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// changedLines copies the JSONL file src to dst with edit applied to the
// lines whose doc_id is in ids.
func changedLines(t *testing.T, src, dst string, ids map[int]bool, edit func(v map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	done := 0
	for i, l := range lines {
		var head struct {
			DocID int `json:"doc_id"`
		}
		if err := json.Unmarshal([]byte(l), &head); err != nil {
			t.Fatal(err)
		}
		if ids[head.DocID] {
			lines[i] = string(editJSON(t, []byte(l), edit))
			done++
		}
	}
	if done != len(ids) {
		t.Fatalf("%d of %d lines changed in %s", done, len(ids), src)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// number reads a json.Number the edits decode.
func number(t *testing.T, v any) float64 {
	t.Helper()
	n, ok := v.(json.Number)
	if !ok {
		t.Fatalf("%v is not a number", v)
	}
	x, err := n.Float64()
	if err != nil {
		t.Fatal(err)
	}
	return x
}
