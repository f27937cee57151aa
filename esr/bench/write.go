package bench

import (
	"crypto/sha256"
	"encoding/json"
	"io"
	"path/filepath"
	"slices"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/internal/safefile"
)

// WriteJSONL writes one JSON object per line to path (created or
// replaced), atomically: a temporary file in the same folder is renamed
// into place, so a failed write leaves the previous file and nothing
// partial. Output is deterministic: struct fields in declaration order, map
// keys sorted.
func WriteJSONL[T any](path string, rows []T) error {
	_, err := WriteJSONLSum(path, rows)
	return err
}

// WriteJSONLSum is WriteJSONL, also returning the SHA-256 of the bytes it
// wrote: a cache seals its file with it (a file whose bytes hash otherwise
// is not the one written).
func WriteJSONLSum[T any](path string, rows []T) (sum [32]byte, err error) {
	h := sha256.New()
	err = safefile.Write(path, 0o644, func(w io.Writer) error {
		enc := json.NewEncoder(io.MultiWriter(w, h))
		enc.SetEscapeHTML(false)
		for i := range rows {
			if err := enc.Encode(rows[i]); err != nil {
				return err
			}
		}
		return nil
	})
	copy(sum[:], h.Sum(nil))
	return sum, err
}

// folderFiles are the files a benchmark folder may hold: the ones Save
// writes and the ones importers and the generator write beside them.
var folderFiles = []string{StreamsFile, AtomsFile, QAFile, RelationsFile, "MANIFEST.json", "exclusions.jsonl",
	"rag_outcomes.jsonl", "LICENSE", "PROVENANCE.md"}

// WriteFolder writes a benchmark folder as one set: fill writes the files
// into a new folder beside dir, which then replaces dir (safefile.ReplaceDir).
// A failure leaves dir as it was, never part old set and part new. An
// existing dir is replaced only when it holds nothing but folderFiles;
// anything else is refused, naming it.
func WriteFolder(dir string, fill func(tmp string) error) error {
	return WriteFolderOwning(dir, nil, fill)
}

// WriteFolderOwning is WriteFolder for a writer that also owns the files
// named in extra (an importer's licence table, its package list): the
// folder may hold them, and the new set replaces them.
func WriteFolderOwning(dir string, extra []string, fill func(tmp string) error) error {
	return safefile.ReplaceDir(dir, func(name string) bool { return slices.Contains(folderFiles, name) || slices.Contains(extra, name) }, fill)
}

// Save writes the benchmark as the folder dir (streams, atoms, QAs, and
// relations when there are any), in the bench's stream order, as one set
// (WriteFolder).
func (b *Bench) Save(dir string) error { return WriteFolder(dir, b.WriteFiles) }

// WriteFiles writes the benchmark's files into the existing folder dir
// (Save's files, each atomically but not as a set; inside WriteFolder's
// fill they are one).
func (b *Bench) WriteFiles(dir string) error {
	if err := WriteJSONL(filepath.Join(dir, StreamsFile), b.Streams); err != nil {
		return err
	}
	rows := make([]atomRow, 0, len(b.Streams))
	for _, s := range b.Streams {
		atoms := b.Atoms[s.ID]
		n := len(atoms)
		rows = append(rows, atomRow{StreamID: s.ID, NAtoms: &n, Atoms: atoms})
	}
	if err := WriteJSONL(filepath.Join(dir, AtomsFile), rows); err != nil {
		return err
	}
	if err := WriteJSONL(filepath.Join(dir, QAFile), b.QAs); err != nil {
		return err
	}
	if len(b.Relations) == 0 {
		return nil
	}
	var rels []pairRelation
	for _, s := range b.Streams {
		m := b.Relations[s.ID]
		// Emit in atom order so files are byte-stable.
		atoms := b.Atoms[s.ID]
		for i := range atoms {
			for j := i + 1; j < len(atoms); j++ {
				if r, ok := m[AtomPair{A: atoms[i].ID, B: atoms[j].ID}]; ok {
					rels = append(rels, pairRelation{StreamID: s.ID, A: atoms[i].ID, B: atoms[j].ID, Relation: r})
				}
			}
		}
	}
	return WriteJSONL(filepath.Join(dir, RelationsFile), rels)
}

// New assembles a bench from parts already in memory (a generator's or an
// importer's output), sorting events and atoms as Load would and listing,
// as Load does, the QAs about a key with no atom in Uncovered. It checks
// nothing else.
func New(streams []*esr.Stream, atoms map[string][]esr.Atom, qas []esr.QA) *Bench {
	b := &Bench{Streams: streams, Atoms: atoms, QAs: qas, byID: map[string]*esr.Stream{}}
	for _, s := range streams {
		s.SortEvents()
		b.byID[s.ID] = s
		as := atoms[s.ID]
		for i := range as {
			as[i].EventIndex = s.EventIndex(as[i].EventID)
		}
		esr.SortAtoms(as)
	}
	for i := range qas {
		if k, _ := qas[i].Locate(atoms[qas[i].StreamID]); !hasKey(atoms[qas[i].StreamID], k) {
			b.Uncovered = append(b.Uncovered, qas[i].QID)
		}
	}
	b.settle()
	return b
}
