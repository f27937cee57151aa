package vdyknow_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/internal/importers/vdyknow"
)

const annotations = `{"countries": {"Freedonia": {"President of Freedonia": {"answers": [
    "Ann |S: +2001-01-01T00:00:00Z |E: +2005-01-01T00:00:00Z", "Bob |S: +2005-01-01T00:00:00Z |E: "]}}}}`

// Finding 11 (V-DyKnow): a value that ends before it starts is an error
// naming the slot and the answer; without the LICENSE nothing is written.
func TestImportChecksDatesAndLicenceFirst(t *testing.T) {
	src := t.TempDir()
	os.WriteFile(filepath.Join(src, vdyknow.AnnotationsFile), []byte(annotations), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	if _, err := vdyknow.Import(src, out); err == nil || !strings.Contains(err.Error(), "licence") {
		t.Fatalf("missing LICENSE: %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("files were written without the LICENSE (%v)", err)
	}
	os.WriteFile(filepath.Join(src, "LICENSE"), []byte("MIT fixture\n"), 0o644)
	if _, err := vdyknow.Import(src, out); err != nil {
		t.Fatalf("good input: %v", err)
	}
	// Same precision, or an end whose period ends before the start.
	for _, bad := range []string{"Cy |S: +2009-05-01T00:00:00Z |E: +2009-04-30T00:00:00Z", "Cy |S: +2010-00-00T00:00:00Z |E: +2009-00-00T00:00:00Z"} {
		os.WriteFile(filepath.Join(src, vdyknow.AnnotationsFile), []byte(strings.Replace(annotations, `"Bob |S: +2005-01-01T00:00:00Z |E: "`, `"`+bad+`"`, 1)), 0o644)
		_, err := vdyknow.Import(src, filepath.Join(t.TempDir(), "out"))
		if err == nil || !strings.Contains(err.Error(), `countries/Freedonia/President of Freedonia: field "answers[1]"`) || !strings.Contains(err.Error(), "before it starts") {
			t.Errorf("%s: %v", bad, err)
		}
	}
	// An end within the start's year (year precision) is not before it.
	ok := "Cy |S: +2009-05-00T00:00:00Z |E: +2009-00-00T00:00:00Z"
	os.WriteFile(filepath.Join(src, vdyknow.AnnotationsFile), []byte(strings.Replace(annotations, `"Bob |S: +2005-01-01T00:00:00Z |E: "`, `"`+ok+`"`, 1)), 0o644)
	if _, err := vdyknow.ReadSlots(filepath.Join(src, vdyknow.AnnotationsFile)); err != nil {
		t.Errorf("%s: %v", ok, err)
	}
}
