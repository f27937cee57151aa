package experiment

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/relate"
)

// Fingerprint identifies what a suite's rows depend on: the suite, the
// benchmark's content, the readers, the judge and the memory options. Two
// setups with the same fingerprint produce the same rows.
func (s Setup) Fingerprint(suite string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "suite=%s\n", suite)
	if err := hashBench(h, s.Bench); err != nil {
		return "", err
	}
	for _, r := range s.Readers {
		fmt.Fprintf(h, "reader=%s family=%s\n", r.Name(), r.Family())
	}
	judge := "exact"
	if s.Judge != nil {
		judge = s.Judge.Name()
	}
	rel := relate.RuleName
	if s.Options.Relator != nil {
		rel = s.Options.Relator.Name()
	}
	fmt.Fprintf(h, "judge=%s relator=%s topk=%d deployed=%v format=%s\n", judge, rel, s.Options.TopK, s.Options.Deployed, s.Options.LedgerFormat)
	return hex.EncodeToString(h.Sum(nil))[:20], nil
}

// hashBench hashes the benchmark's files when it was loaded from a folder,
// else its QAs and atoms.
func hashBench(w io.Writer, b *bench.Bench) error {
	if b.Dir != "" {
		for _, name := range []string{bench.StreamsFile, bench.AtomsFile, bench.QAFile, bench.RelationsFile} {
			f, err := os.Open(filepath.Join(b.Dir, name))
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

// RunCached is Run with the evaluated rows kept in dir (one JSONL file per
// fingerprint): a second run with the same setup reads them back instead of
// evaluating again. Notebooks use it so every cell can ask for the result
// without recomputing; the CLI uses it to make reruns cheap. The file is
// written atomically, so an interrupted run leaves no partial cache.
func (su Suite) RunCached(ctx context.Context, s Setup, dir string) (*Result, error) {
	fp, err := s.Fingerprint(su.Name)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, su.Name+"-"+fp+".jsonl")
	if rows, err := eval.ReadOutcomes(path); err == nil {
		return su.Report(rows, s)
	}
	rows, err := su.Evaluate(ctx, s)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	tmp := path + ".tmp"
	if err := bench.WriteJSONL(tmp, rows); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, err
	}
	return su.Report(rows, s)
}
