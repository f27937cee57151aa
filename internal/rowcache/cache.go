// Package rowcache keeps the outcome rows of lab's suites between
// processes, for the notebooks (nbhelp.Run) and `esr prepare`: one JSONL
// file per suite and setup, named by the code and a fingerprint of
// everything the rows depend on (cache.go), sealed so that it is proved
// whole before it is read, and read through a snapshot (rowsfile.go); the
// tables a suite's Report built from them, kept beside them (kept.go); and
// the runs the notebooks read, evaluated once before they run (prepare.go).
// The suites themselves, and what they compute, are esr/lab's.
package rowcache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/lab"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/internal/adapter"
	"github.com/esrkit/esrkit/internal/codefp"
	"github.com/esrkit/esrkit/internal/safefile"
)

// WaitNotice says that a call waits for another process to write the
// same rows: on standard error by default; the notebooks' helpers show it
// as an ordinary line (a wait is not an error).
var WaitNotice = func(msg string) { fmt.Fprintln(os.Stderr, msg) }

// Rows evaluates su's rows under s once and keeps them in dir (one JSONL
// file per suite and Fingerprint, sealed: rowsfile.go): a later call with the
// same fingerprint reads them back (cacheFile is then the file) and builds
// no table. A file its seal does not prove whole is evaluated again, and
// what was kept beside it (tables, snapshot) is removed. Concurrent callers
// on one dir wait for the first to write.
func Rows(ctx context.Context, su lab.Suite, s lab.Setup, dir string) (rows []eval.Outcome, cacheFile string, err error) {
	path, err := File(su, s, dir)
	if err != nil {
		return nil, "", err
	}
	tag := codefp.Tag()
	if rows, err := readRows(path); err == nil {
		return rows, path, nil
	}
	lock, err := safefile.Acquire(path+".lock", safefile.Wait{Timeout: -1,
		Note: func(msg string) { WaitNotice("esr: rows of " + string(su.Name) + ": " + msg) }})
	if err != nil {
		return nil, "", err
	}
	defer lock.Release()
	if rows, err := readRows(path); err == nil { // written while this one waited
		return rows, path, nil
	}
	rows, err = su.Evaluate(ctx, s)
	if err != nil {
		return nil, "", err
	}
	if err := writeRows(path, rows); err != nil {
		return nil, "", err
	}
	pruneOtherCode(dir, string(su.Name), tag)
	return rows, "", nil
}

// Cached is the file in dir that Rows would read s's rows from, and
// whether it is there: a caller that may not need the rows (a cell that
// shows a table kept beside them) can put off reading them, and call Rows
// when it does. Rows still checks the file when it reads it, and evaluates
// the rows if the file turns out unreadable or not proved whole by its
// seal.
func Cached(su lab.Suite, s lab.Setup, dir string) (path string, ok bool, err error) {
	path, err = File(su, s, dir)
	if err != nil {
		return "", false, err
	}
	st, err := os.Stat(path)
	return path, err == nil && st.Mode().IsRegular(), nil
}

// File is the file in dir that Rows reads or writes for su under s: named
// by the suite, the library's code and the setup's fingerprint.
func File(su lab.Suite, s lab.Setup, dir string) (string, error) {
	fp, err := Fingerprint(s, string(su.Name))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, string(su.Name)+"-"+codefp.Tag()+"-"+fp+".jsonl"), nil
}

// cacheName is a rows file's name after "SUITE-": the code tag and the
// setup's fingerprint (or, from before code tags, the fingerprint alone),
// then .jsonl, or its seal (.jsonl.seal), its snapshot: .jsonl.snap
// (.jsonl.gob before flatsnap), or the tables the notebooks keep beside it
// (.jsonl.tables-HASH.gob).
var cacheName = regexp.MustCompile(`^(?:([0-9a-f]{8})-)?[0-9a-f]{20}\.jsonl(?:\.gob|\.snap|\.seal|\.tables-[0-9a-f]{12}\.gob)?$`)

// pruneOtherCode removes suite's rows files in dir that another version of
// the library's code wrote: every change to the code names new files, and
// the old ones are read again only if that exact code comes back, so
// without this a cache folder grows by a full set of rows per change. Rows
// of the current code (any benchmark or readers) and every file that is not
// a rows file of this suite stay; lock files are never touched. Failures
// are ignored: the files are only a cache.
func pruneOtherCode(dir, suite, tag string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), suite+"-")
		if !ok || e.IsDir() {
			continue
		}
		m := cacheName.FindStringSubmatch(rest)
		if m == nil || m[1] == tag {
			continue
		}
		_ = os.Remove(filepath.Join(dir, e.Name()))
	}
}

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
