package apicheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recordModuleInputs stats every Go file and lists every folder of the
// module, so that go test's cache knows these tests read them: the tests
// load the module through `go list`, a subprocess whose reads go test does
// not see, and would otherwise replay a cached pass after the code changed.
func recordModuleInputs(t *testing.T) {
	t.Helper()
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != "../.." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "executed" || name == "figures" || name == "data" || name == "report") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".ipynb") || name == "go.mod" {
			_, err := os.Stat(path)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
