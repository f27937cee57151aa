package eval

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/judge"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/workpool"
)

// Config says what to run.
type Config struct {
	Memories []memory.Spec
	Readers  []reader.Reader
	Judge    judge.Judge
	// QueryTypes keeps only QAs of these types (nil: all).
	QueryTypes []esr.QueryType
	// Phenomena keeps only QAs of these strata (nil: all).
	Phenomena []esr.Phenomenon
	Options   memory.Options
	// Variant is the condition that labels every row (a format, wording,
	// noise level or label), part of the resume identity.
	Variant Variant
	// Atoms, when set, replaces a stream's atoms before building memories
	// (atom dropout and other per-stream transforms); it must be
	// deterministic.
	Atoms func(streamID string, atoms []esr.Atom) []esr.Atom
	// PerQA, when set, gives the memory options for one QA (about key k);
	// memories are then built per QA rather than per stream. The row-level
	// oracle of the boundary diagnostics uses it to force a key's status.
	PerQA func(qa *esr.QA, k esr.Key, opt memory.Options) memory.Options
	// Concurrency bounds the streams in flight (default 1; LLM readers
	// limit their own requests).
	Concurrency int
	// Done, when set, holds the keys of outcomes that already exist
	// (resume, Keys): they are neither recomputed nor written again.
	Done map[RowKey]bool
	// Progress, when set, is called after each QA with (done, total).
	Progress func(done, total int)
	// Fingerprint, when set, gives the fingerprint recorded in the rows of
	// one memory and one reader (Outcome.Fingerprint).
	Fingerprint func(m memory.Spec, r reader.Reader) string
	// ItemError, when set, is called with a reader's or the judge's error
	// for one item; when it returns true the item is skipped (no row is
	// written, so a rerun retries it) instead of stopping the run. It must
	// be safe for concurrent use.
	ItemError func(err error) bool
}

// Run evaluates every selected QA with every memory × reader and puts one
// outcome per triple into sink. A QA whose key cannot be located (its stream
// has no atoms) is still answered: every memory abstains on it.
func Run(ctx context.Context, b *bench.Bench, cfg Config, sink Sink) error {
	if cfg.Judge == nil {
		cfg.Judge = judge.Exact{}
	}
	byStream := map[string][]int{}
	var order []string
	sel := selected(b, cfg)
	for _, i := range sel {
		q := &b.QAs[i]
		if byStream[q.StreamID] == nil {
			order = append(order, q.StreamID)
		}
		byStream[q.StreamID] = append(byStream[q.StreamID], i)
	}
	total := len(sel)
	var (
		mu   sync.Mutex
		done int
	)
	return workpool.Run(ctx, len(order), cfg.Concurrency, func(ctx context.Context, k int) error {
		sid := order[k]
		n, err := runStream(ctx, b, sid, byStream[sid], cfg, sink)
		if err != nil {
			return err
		}
		if cfg.Progress != nil {
			mu.Lock()
			done += n
			d := done
			mu.Unlock()
			cfg.Progress(d, total)
		}
		return nil
	})
}

// selected are the indexes of b's QAs that cfg selects, in b's order.
func selected(b *bench.Bench, cfg Config) []int {
	var out []int
	for i := range b.QAs {
		if keep(&b.QAs[i], cfg) {
			out = append(out, i)
		}
	}
	return out
}

func keep(q *esr.QA, cfg Config) bool {
	if cfg.QueryTypes != nil && !slices.Contains(cfg.QueryTypes, q.Type()) {
		return false
	}
	if cfg.Phenomena != nil && !slices.Contains(cfg.Phenomena, q.Phenomenon) {
		return false
	}
	return true
}

// runStream builds each memory once for the stream and answers its QAs;
func runStream(ctx context.Context, b *bench.Bench, sid string, qas []int, cfg Config, sink Sink) (int, error) {
	s := b.Stream(sid)
	// Memories may cache per-atom state; give each run its own copy.
	atoms := append([]esr.Atom(nil), b.Atoms[sid]...)
	if cfg.Atoms != nil {
		atoms = cfg.Atoms(sid, atoms)
	}
	states := make([]memory.State, len(cfg.Memories))
	for i, m := range cfg.Memories {
		st, err := memory.Build(m, s, atoms, cfg.Options)
		if err != nil {
			return 0, err
		}
		states[i] = st
	}
	for _, qi := range qas {
		qa := &b.QAs[qi]
		key, _ := qa.Locate(b.Atoms[sid])
		query := qa.Query(key)
		prior := judge.PriorValues(qa, b.Atoms[sid]) // the judge's, for the outdated label
		// What each event states for the key by the bench's extraction (not
		// the run's noisy atoms): the prose skill's stand-in for reading.
		stated := reader.StatedValues(b.Atoms[sid], key)
		if cfg.PerQA != nil {
			opt := cfg.PerQA(qa, key, cfg.Options)
			for i, m := range cfg.Memories {
				st, err := memory.Build(m, s, atoms, opt)
				if err != nil {
					return 0, err
				}
				states[i] = st
			}
		}
		for mi, st := range states {
			// One render per memory and question, shared by the readers: a
			// render depends on the state and the query only, and building
			// it was most of a cold run's time.
			rendered, haveRender := "", false
			for _, r := range cfg.Readers {
				o := Outcome{QID: qa.QID, StreamID: sid, Source: qa.Source, Phenomenon: qa.Phenomenon,
					QueryType: qa.Type(), Memory: cfg.Memories[mi], Reader: r.Spec(), Family: r.Family(),
					Variant: cfg.Variant, Gold: qa.GoldAnswer, GoldAbstain: qa.GoldAbstain()}
				if cfg.Done[o.Key()] {
					continue
				}
				if !haveRender {
					rendered, haveRender = st.Render(query), true
				}
				in := reader.Input{QID: qa.QID, Question: qa.Question, QueryType: qa.Type(), Context: rendered,
					MayAbstain: st.MayAbstain(), Memory: cfg.Memories[mi], State: st, Query: query, Stated: stated}
				if err := memory.Err(st); err != nil {
					return 0, fmt.Errorf("qid %s, memory %s: %w", qa.QID, cfg.Memories[mi], err)
				}
				out, err := r.Read(ctx, in)
				if err != nil {
					err = fmt.Errorf("qid %s, memory %s, reader %s: %w", qa.QID, cfg.Memories[mi], r.Spec(), err)
					if ctx.Err() == nil && cfg.ItemError != nil && cfg.ItemError(err) {
						continue
					}
					return 0, err
				}
				v, err := cfg.Judge.Judge(ctx, qa, out.Answer)
				if err != nil {
					err = fmt.Errorf("qid %s: judge %s: %w", qa.QID, cfg.Judge.Name(), err)
					if ctx.Err() == nil && cfg.ItemError != nil && cfg.ItemError(err) {
						continue
					}
					return 0, err
				}
				o.Answer, o.RawAnswer, o.ContextTokens, o.Reason, o.Unreadable = out.Answer.String(), out.Raw, out.ContextTokens, out.Note, out.Unreadable
				if cfg.Fingerprint != nil {
					o.Fingerprint = cfg.Fingerprint(cfg.Memories[mi], r)
				}
				o.Correct, o.Abstained = v.Correct, v.Abstained
				o.Label = judge.Classify(v, qa, prior, out.Answer)
				if err := sink.Put(o); err != nil {
					return 0, err
				}
			}
		}
	}
	return len(qas), nil
}
