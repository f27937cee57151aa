package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
)

func init() {
	register("ledger", "print each key's state under a memory class, one JSON object per key", runLedger)
	register("render", "print the render an answer model would see for one stream", runRender)
}

// memoryFlags are the flags shared by ledger and render.
type memoryFlags struct {
	atoms, streams, memory, relations string
	relationNoise, atomDropout        float64
	seed                              uint64
	layout                            layoutFlags
	spec                              memory.Spec // --memory, parsed by load
}

func (m *memoryFlags) bind(fs interface {
	StringVar(*string, string, string, string)
	Float64Var(*float64, string, float64, string)
	Uint64Var(*uint64, string, uint64, string)
}) {
	fs.StringVar(&m.atoms, "atoms", "", "atoms.jsonl `FILE` (required)")
	fs.StringVar(&m.streams, "streams", "", "streams.jsonl `FILE` (event texts feed the rule scorer's cues)")
	fs.StringVar(&m.memory, "memory", memory.FineLedger, "memory class `NAME`")
	fs.StringVar(&m.relations, "relations", relate.RuleName, "relation source: rule, oracle (gold relations from relations.jsonl beside --atoms) or same-state")
	fs.Float64Var(&m.relationNoise, "relation-noise", 0, "replace each relation by a random other label with probability `P`")
	fs.Float64Var(&m.atomDropout, "atom-dropout", 0, "drop each atom with probability `P`")
	fs.Uint64Var(&m.seed, "seed", 1, "seed of the noise draws")
}

// load reads the files and makes the memory options the flags ask for.
func (m *memoryFlags) load() (*bench.Bench, memory.Options, error) {
	if m.atoms == "" {
		return nil, memory.Options{}, fmt.Errorf("--atoms is required")
	}
	if !(m.relationNoise >= 0 && m.relationNoise <= 1 && m.atomDropout >= 0 && m.atomDropout <= 1) { // NaN fails too
		return nil, memory.Options{}, fmt.Errorf("--relation-noise and --atom-dropout must be in [0, 1] (got %v and %v)", m.relationNoise, m.atomDropout)
	}
	specs, err := memory.ParseNames(m.memory)
	if err != nil {
		return nil, memory.Options{}, err
	}
	if len(specs) != 1 {
		return nil, memory.Options{}, fmt.Errorf("--memory %q: name one memory class", m.memory)
	}
	m.spec = specs[0]
	b, err := bench.LoadFiles(m.atoms, m.streams)
	if err != nil {
		return nil, memory.Options{}, err
	}
	if m.relations == relate.OracleName {
		// Gold relations live beside the atoms file in a benchmark folder.
		path := filepath.Join(filepath.Dir(m.atoms), bench.RelationsFile)
		if _, err := os.Stat(path); err == nil {
			if err := b.ReadRelations(path); err != nil {
				return nil, memory.Options{}, err
			}
		}
	}
	rel, err := relate.ByName(m.relations, b.Relations)
	if err != nil {
		return nil, memory.Options{}, err
	}
	if m.relationNoise > 0 {
		rel = relate.RelationNoise{Inner: rel, P: m.relationNoise, Seed: m.seed}
	}
	opt := memory.Options{Relator: rel}
	if err := m.layout.apply(&opt); err != nil {
		return nil, memory.Options{}, err
	}
	return b, opt, nil
}

func (m *memoryFlags) atomsOf(b *bench.Bench, sid string) []esr.Atom {
	atoms := b.Atoms[sid]
	if m.atomDropout > 0 {
		return relate.DropAtoms(atoms, m.atomDropout, m.seed)
	}
	return append([]esr.Atom(nil), atoms...)
}

func runLedger(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("ledger", stderr)
	var m memoryFlags
	m.bind(fs)
	m.layout.bind(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	b, opt, err := m.load()
	if err != nil {
		return err
	}
	sayNotices(stderr, b)
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	for _, s := range b.Streams {
		st, err := memory.Build(m.spec, s, m.atomsOf(b, s.ID), opt)
		if err != nil {
			return err
		}
		for _, row := range st.Rows() {
			if err := enc.Encode(row); err != nil {
				return err
			}
		}
	}
	return nil
}

func runRender(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("render", stderr)
	var m memoryFlags
	m.bind(fs)
	m.layout.bind(fs)
	stream := fs.String("stream", "", "stream `ID` to render (required)")
	question := fs.String("question", "", "the question, for memories whose render depends on it (rag-topk)")
	deployed := fs.Bool("deployed", false, "append the raw events (the deployed render of §4.3)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := requireFlags(fs, "stream"); err != nil {
		return err
	}
	b, opt, err := m.load()
	if err != nil {
		return err
	}
	sayNotices(stderr, b)
	s := b.Stream(*stream)
	if s == nil {
		return fmt.Errorf("stream %q is not in %s", *stream, m.atoms)
	}
	opt.Deployed = *deployed
	st, err := memory.Build(m.spec, s, m.atomsOf(b, s.ID), opt)
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, st.Render(esr.Query{Type: esr.Snapshot, Question: *question}))
	return err
}
