package lab

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
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/internal/adapter"
	"github.com/esrkit/esrkit/internal/codefp"
	"github.com/esrkit/esrkit/internal/safefile"
)

// Fingerprint identifies everything a suite's rows depend on: the suite,
// the benchmark's content, every reader's full configuration
// (reader.Fingerprint: capabilities, budgets, model, template versions),
// the judge's configuration, the memory options and the library's own code
// (codefp.Fingerprint). Two setups with the same fingerprint produce the same
// rows; anything else gets fresh rows.
func (s Setup) Fingerprint(suite string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "suite=%s\ncode=%s\n", suite, codefp.Fingerprint())
	if err := s.Bench.HashTo(h); err != nil {
		return "", err
	}
	for _, r := range s.Readers {
		fmt.Fprintf(h, "reader %s\n", reader.Fingerprint(r))
	}
	opts, err := s.optionsText()
	if err != nil {
		return "", err
	}
	fmt.Fprintf(h, "judge=%s %s\n", s.judgeText(), opts)
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

// judgeText is the judge's name and configuration.
func (s Setup) judgeText() string {
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
func (s Setup) optionsText() (string, error) {
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

// WaitNotice says that a call waits for another process to write the
// same rows: on standard error by default; the notebooks' helpers show it
// as an ordinary line (a wait is not an error).
var WaitNotice = func(msg string) { fmt.Fprintln(os.Stderr, msg) }

// Rows evaluates the suite's rows once and keeps them in dir (one JSONL
// file per suite and Setup.Fingerprint, sealed: suite_rowseal.go): a later
// call with the same fingerprint reads them back (cacheFile is then the
// file) and builds no table. A file its seal does not prove whole is
// evaluated again, and what was kept beside it (tables, snapshot) is
// removed. Concurrent callers on one dir wait for the first to write.
func (su Suite) Rows(ctx context.Context, s Setup, dir string) (rows []eval.Outcome, cacheFile string, err error) {
	path, err := su.RowsFile(s, dir)
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

// CachedRowsFile is the file in dir that Rows would read s's rows from,
// and whether it is there: a caller that may not need the rows (a cell
// that shows a table kept beside them) can put off reading them, and call
// Rows when it does. Rows still checks the file when it reads it, and
// evaluates the rows if the file turns out unreadable or not proved whole
// by its seal.
func (su Suite) CachedRowsFile(s Setup, dir string) (path string, ok bool, err error) {
	path, err = su.RowsFile(s, dir)
	if err != nil {
		return "", false, err
	}
	st, err := os.Stat(path)
	return path, err == nil && st.Mode().IsRegular(), nil
}

// RowsFile is the file in dir that Rows reads or writes for s: named by
// the suite, the library's code and the setup's fingerprint.
func (su Suite) RowsFile(s Setup, dir string) (string, error) {
	fp, err := s.Fingerprint(string(su.Name))
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

// RunCached is Run with the evaluated rows kept in dir (Rows), then every
// table and figure of the suite built from them (the CLI's `esr run`; the
// notebooks call Rows and build only the tables they show).
func (su Suite) RunCached(ctx context.Context, s Setup, dir string) (*Result, error) {
	if err := su.checkNoise(s); err != nil {
		return nil, err
	}
	rows, cacheFile, err := su.Rows(ctx, s, dir)
	if err != nil {
		return nil, err
	}
	res, err := su.report(rows, s)
	if res != nil {
		res.CacheFile = cacheFile
	}
	return res, err
}
