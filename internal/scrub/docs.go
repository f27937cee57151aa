package scrub

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/esrkit/esrkit/internal/safefile"
)

// copyDocs copies LICENSE and PROVENANCE.md from src to out when present.
func copyDocs(src, out string) error {
	for _, name := range []string{"LICENSE", "PROVENANCE.md"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if err := safefile.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
