package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
)

// HashTo writes what identifies the benchmark to w, for a hash (every
// cache of rows is keyed on it): when it was loaded from files (Load,
// LoadFiles, a snapshot), the SHA-256 of each file's bytes it was decoded
// from, as the load took them (a file changed since is not what the
// benchmark holds); else its QAs and atoms as JSON lines in id order.
func (b *Bench) HashTo(w io.Writer) error {
	if len(b.sums) > 0 {
		for _, name := range snapFiles {
			if sum, ok := b.sums[name]; ok {
				if _, err := fmt.Fprintf(w, "file=%s sha256=%x\n", name, sum); err != nil {
					return err
				}
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
