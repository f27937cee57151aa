package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// esr prepare refuses a repository whose module source is not the code it
// was built from (a binary left unbuilt after a checkout): its rows would
// be keyed on other code than the notebooks' cells, which are built from
// the tree. It refuses before it evaluates or writes anything.
func TestPrepareRefusesASourceTreeItWasNotBuiltFrom(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		"go.mod":       "module github.com/esrkit/esrkit\n",
		"stats/doc.go": "package stats\n",
	} {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	err := runPrepare([]string{"--root", root}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "built from other code") {
		t.Fatalf("prepare over another tree: %v (stdout %q)", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(root, ".esr-cache")); !os.IsNotExist(err) {
		t.Errorf("prepare wrote into the tree it refused (%v)", err)
	}
}
