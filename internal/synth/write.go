package synth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/regfile"
	"github.com/esrkit/esrkit/internal/safefile"
)

// ManifestFile is the name of the manifest a generated benchmark carries.
const ManifestFile = "MANIFEST.json"

// Manifest describes a generated benchmark: what made it, with which knobs,
// what it holds, and the sha256 of each data file. It carries no time
// stamp, so regenerating with the same configuration is byte-identical.
type Manifest struct {
	Benchmark string `json:"benchmark"`
	Generator string `json:"generator"`
	Note      string `json:"note"`
	Config    Config `json:"config"`
	Counts    struct {
		Streams   int `json:"streams"`
		Events    int `json:"events"`
		Atoms     int `json:"atoms"`
		QAs       int `json:"qas"`
		Relations int `json:"relations"`
		// QAsBy counts QAs by source, stratum and query type.
		QAsBy map[string]map[string]map[string]int `json:"qas_by_source_stratum_query"`
	} `json:"counts"`
	SHA256 map[string]string `json:"sha256"`
}

// Write generates the benchmark for cfg into dir (streams.jsonl,
// atoms.jsonl, qa.jsonl, relations.jsonl, MANIFEST.json).
func Write(dir string, cfg Config) (m *Manifest, err error) {
	b, err := Generate(cfg)
	if err != nil {
		return nil, err
	}
	// The files and their manifest are one set: a failure leaves dir as it was.
	err = bench.WriteFolder(dir, func(tmp string) error {
		m, err = writeInto(tmp, cfg, b)
		return err
	})
	return m, err
}

// writeInto writes the generated bench b and its manifest into dir.
func writeInto(dir string, cfg Config, b *bench.Bench) (*Manifest, error) {
	if err := b.WriteFiles(dir); err != nil {
		return nil, err
	}
	m := &Manifest{Benchmark: "synthetic", Generator: Version, Config: cfg,
		Note: "Synthetic ESR benchmark: invented streams with planned gold; not real data. Sources are " +
			"labelled synthetic-github, synthetic-wiki and synthetic-dyknow. Regenerate with " +
			"`esr gen` and the config above."}
	if cfg.RareOversample > 1 {
		m.Note += fmt.Sprintf(" Stratum mix: the rare strata (reverted_revert, cross_source_conflict, refines) are "+
			"oversampled ×%d (rare_oversample) for per-stratum power; a number per stratum does not depend on the mix, "+
			"a number pooled over strata uses this one, not the paper's.", cfg.RareOversample)
	}
	m.Counts.Streams = len(b.Streams)
	for _, s := range b.Streams {
		m.Counts.Events += len(s.Events)
		m.Counts.Atoms += len(b.Atoms[s.ID])
		m.Counts.Relations += len(b.Relations[s.ID])
	}
	m.Counts.QAs = len(b.QAs)
	m.Counts.QAsBy = Counts(b.QAs)
	m.SHA256 = map[string]string{}
	for _, name := range []string{bench.StreamsFile, bench.AtomsFile, bench.QAFile, bench.RelationsFile} {
		sum, err := fileSHA256(filepath.Join(dir, name))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		m.SHA256[name] = sum
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return m, safefile.WriteFile(filepath.Join(dir, ManifestFile), append(data, '\n'), 0o644)
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// maxManifest bounds the manifest ReadManifest reads (a generated one is a
// few kilobytes).
const maxManifest = 1 << 20

// ReadManifest reads dir's MANIFEST.json when it is a generator's manifest
// (benchmark "synthetic", a generator named "esr-synth/…"); nil, nil when
// dir has none or another tool's.
func ReadManifest(dir string) (*Manifest, error) {
	data, err := regfile.ReadFile(filepath.Join(dir, ManifestFile), maxManifest)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, ManifestFile), err)
	}
	if m.Benchmark != "synthetic" || !strings.HasPrefix(m.Generator, "esr-synth/") {
		return nil, nil
	}
	return &m, nil
}
