package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/esrkit/esrkit/internal/regfile"
)

// HashTo writes what identifies the benchmark to w, for a hash: its files
// (each after a "file=NAME" line) when it was loaded from a folder,
// else its QAs and atoms as JSON lines in id order.
func (b *Bench) HashTo(w io.Writer) error {
	if b.Dir != "" {
		for _, name := range []string{StreamsFile, AtomsFile, QAFile, RelationsFile} {
			f, _, err := regfile.Open(filepath.Join(b.Dir, name))
			if os.IsNotExist(err) {
				continue
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "file=%s\n", name)
			_, err = io.Copy(w, f)
			f.Close()
			if err != nil {
				return err
			}
		}
		return nil
	}
	enc := json.NewEncoder(w)
	if err := enc.Encode(b.QAs); err != nil {
		return err
	}
	ids := make([]string, 0, len(b.Atoms))
	for id := range b.Atoms {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if err := enc.Encode(b.Atoms[id]); err != nil {
			return err
		}
	}
	return nil
}
