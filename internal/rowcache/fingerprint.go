package rowcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/internal/adapter"
	"github.com/esrkit/esrkit/internal/codefp"
)

// Fingerprint identifies everything the rows of suite (a suite's name, or
// another job's, such as "rejudge") under s depend on: the suite, the
// benchmark's content, every reader's full configuration
// (reader.Fingerprint: capabilities, budgets, model, template versions),
// the judge's configuration, the memory options, the exec: adapter and the
// library's own code (codefp.Fingerprint). Two setups with the same
// fingerprint produce the same rows; anything else gets fresh rows.
func Fingerprint(s lab.Setup, suite string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "suite=%s\ncode=%s\n", suite, codefp.Fingerprint())
	if err := s.Bench.HashTo(h); err != nil {
		return "", err
	}
	for _, r := range s.Readers {
		fmt.Fprintf(h, "reader %s\n", reader.Fingerprint(r))
	}
	opts, err := optionsText(s)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "judge=%s %s\n", judgeText(s), opts)
	if s.Adapter != "" {
		// The adapter is outside the library: key on its content and on
		// what its hello names.
		fp, _, err := adapter.Fingerprint(s.Adapter)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "adapter=%s %s\n", s.Adapter, fp) // rows name the adapter by this path
	}
	return hex.EncodeToString(h.Sum(nil))[:20], nil
}

// RowFingerprinter returns the fingerprint of the outcome rows of one
// memory and one reader under s (eval.Outcome.Fingerprint): a hash of the
// benchmark's content, the relation source and every memory option (the
// formats), the judge's configuration, the library's code
// (codefp.Fingerprint), the reader's full configuration (reader.Fingerprint)
// and, for an exec: memory, the adapter (adapter.Fingerprint: its file's
// content and the version and files it names in its answer to hello). Rows
// with equal fingerprints are rows the same inputs produce; `esr eval`
// refuses to resume over rows with another. What is shared by every row is
// hashed once, here.
func RowFingerprinter(s lab.Setup) (func(mem memory.Spec, r reader.Reader) (string, error), error) {
	h := sha256.New()
	fmt.Fprintf(h, "rows\ncode=%s\n", codefp.Fingerprint())
	if err := s.Bench.HashTo(h); err != nil {
		return nil, err
	}
	opts, err := optionsText(s)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(h, "judge=%s %s\n", judgeText(s), opts)
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

// judgeText is the judge's name and configuration.
func judgeText(s lab.Setup) string {
	judgeCfg := "exact"
	if s.Judge != nil {
		judgeCfg = s.Judge.Name()
		if c, ok := s.Judge.(interface{ Config() any }); ok {
			b, _ := json.Marshal(c.Config())
			judgeCfg += " " + string(b)
		}
	}
	return judgeCfg
}

// optionsText is the relation source and every memory option, as text.
func optionsText(s lab.Setup) (string, error) {
	rel := relate.RuleName
	if s.Options.Relator != nil {
		rel = fmt.Sprintf("%s (%T)", s.Options.Relator.Name(), s.Options.Relator)
	}
	opt := s.Options
	var forced []string
	for k, v := range opt.ForceStatus {
		forced = append(forced, k.String()+"="+v)
	}
	sort.Strings(forced)
	opt.Relator, opt.ForceStatus = nil, nil
	ob, err := json.Marshal(struct {
		memory.Options
		Relator     any `json:"Relator,omitempty"`
		ForceStatus any `json:"ForceStatus,omitempty"`
	}{Options: opt})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("relator=%s options=%s forced=%q", rel, ob, forced), nil
}
