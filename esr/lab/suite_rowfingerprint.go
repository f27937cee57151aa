package lab

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/adapter"
	"github.com/esrkit/esrkit/internal/codefp"
)

// RowFingerprinter returns the fingerprint of the outcome rows of one
// memory and one reader under s (eval.Outcome.Fingerprint): a hash of the
// benchmark's content, the relation source and every memory option (the
// formats), the judge's configuration, the library's code
// (codefp.Fingerprint), the reader's full configuration (reader.Fingerprint)
// and, for an exec: memory, the adapter (adapter.Fingerprint: its file's
// content and the version and files it names in its answer to hello). Rows with equal
// fingerprints are rows the same inputs produce; `esr eval` refuses to
// resume over rows with another. What is shared by every row is hashed
// once, here.
func (s Setup) RowFingerprinter() (func(mem memory.Spec, r reader.Reader) (string, error), error) {
	h := sha256.New()
	fmt.Fprintf(h, "rows\ncode=%s\n", codefp.Fingerprint())
	if err := s.Bench.HashTo(h); err != nil {
		return nil, err
	}
	opts, err := s.optionsText()
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(h, "judge=%s %s\n", s.judgeText(), opts)
	base := h.Sum(nil)
	return func(mem memory.Spec, r reader.Reader) (string, error) {
		h := sha256.New()
		h.Write(base)
		fmt.Fprintf(h, "memory=%s\nreader %s\n", mem, reader.Fingerprint(r))
		if mem.Class.IsExec() {
			path := strings.TrimPrefix(string(mem.Class), memory.ExecPrefix)
			fp, _, err := adapter.Fingerprint(path) // the file, and what its hello names
			if err != nil {
				return "", err
			}
			fmt.Fprintf(h, "adapter %s\n", fp)
		}
		return hex.EncodeToString(h.Sum(nil))[:20], nil
	}, nil
}
