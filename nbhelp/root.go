package nbhelp

import (
	"fmt"
	"path/filepath"

	"github.com/esrkit/esrkit/internal/repo"
)

// RootEnv names the environment variable that, when set, gives the repository root.
// scripts/run-notebooks.sh sets it for every notebook it runs.
const RootEnv = repo.Env

// Root returns the absolute path of the esrkit repository: $ESRKIT_ROOT if set,
// otherwise the nearest directory at or above the working directory whose go.mod
// declares module github.com/esrkit/esrkit. It panics if neither is found, which in
// a notebook shows as a cell error; use [FindRoot] to handle the error instead.
func Root() string {
	root, err := FindRoot()
	if err != nil {
		panic(err)
	}
	return root
}

// Path joins elem onto [Root], e.g. Path("data", "items.csv").
func Path(elem ...string) string {
	return filepath.Join(append([]string{Root()}, elem...)...)
}

// FindRoot is [Root] returning an error rather than panicking (repo.Root).
func FindRoot() (string, error) {
	root, err := repo.Root()
	if err != nil {
		return "", fmt.Errorf("nbhelp: %w", err)
	}
	return root, nil
}
