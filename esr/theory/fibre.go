package theory

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
)

// p1FibreSurface is one surface of Proposition 1's d-ambiguous fibre: a key's
// atoms φ…, then a middle value (¬φ or another value ψ)…, then φ… again,
// each block one or two atoms long, with chatter events in between. Two
// instances share the surface byte for byte (same stream, same atoms, same
// text and actors) and differ only in their gold relations, that is in d:
//
//   - (I) the final φ block supersedes the middle block: the middle value is
//     deprecated and the L3 truth is φ. Variant "reverted-revert" also has the
//     middle supersede the first block (φ → other → back to φ); variant
//     "resolved-conflict" is the paper's d_I = {(e3, e2)}, where the middle
//     only contradicts the first block and the final φ resolves it.
//   - (II) d = ∅: the middle block contradicts both φ blocks and nothing
//     resolves it; the L3 truth is ABSTAIN.
type p1FibreSurface struct {
	Stream  *esr.Stream
	Atoms   []esr.Atom
	Key     esr.Key
	Phi     esr.Answer // φ, the gold of instance (I)
	Other   esr.Answer // the middle value
	Variant string     // how instance (I) deprecates: "reverted-revert" or "resolved-conflict"
	// GoldI and GoldII label every co-keyed pair of Atoms (for relate.Oracle).
	GoldI, GoldII map[esr.AtomPair]esr.Relation
}

// Instance (I) variants.
const (
	revertedRevert   = "reverted-revert"
	resolvedConflict = "resolved-conflict"
)

// GoldAnswer is the L3 truth of instance (I) (φ) or (II) (ABSTAIN).
func (f *p1FibreSurface) GoldAnswer(instance int) esr.Answer {
	if instance == 1 {
		return f.Phi
	}
	return esr.Abstain
}

// Gold is the gold relation map of instance 1 or 2, keyed by stream id as
// relate.Oracle wants it.
func (f *p1FibreSurface) Gold(instance int) map[string]map[esr.AtomPair]esr.Relation {
	g := f.GoldII
	if instance == 1 {
		g = f.GoldI
	}
	return map[string]map[esr.AtomPair]esr.Relation{f.Stream.ID: g}
}

// Question is the snapshot question about the surface's key.
func (f *p1FibreSurface) Question() esr.Query {
	return esr.Query{Type: esr.Snapshot, Key: f.Key,
		Question: fmt.Sprintf("What is the current %s of %s?", strings.ReplaceAll(f.Key.Attribute, "_", " "), f.Key.Entity)}
}

// Signature is σ = (values, Tv): the atoms' states and valid times in
// transaction order, all a d-blind decision rule may read.
func (f *p1FibreSurface) Signature() string {
	var b strings.Builder
	b.WriteString(f.Key.String())
	for i := range f.Atoms {
		b.WriteString("|" + f.Atoms[i].Timestamp.String() + "=" + f.Atoms[i].State())
	}
	return b.String()
}

var (
	fibreKeys = []esr.Key{
		{Entity: "parse_config", Attribute: "thread_safety"},
		{Entity: "service", Attribute: "request_timeout"},
		{Entity: "issue-412", Attribute: "active_blocker"},
		{Entity: "build", Attribute: "proposed_workaround"},
		{Entity: "crash-88", Attribute: "reproduction_condition"},
		{Entity: "issue-97", Attribute: "severity"},
		{Entity: "release-2.1", Attribute: "assigned_owner"},
	}
	fibreValues = []string{"thread-safe", "30 s", "60 s", "pin v2", "clear the cache", "high", "low",
		"only on linux", "v1.4", "enabled", "@carol", "@dan"}
	fibreActors = []string{"alice", "bob", "carol", "dana", "maintainer"}
	fibreChat   = []string{"Thanks for the report.", "Any update here?", "+1, seeing this too.",
		"I'll take a look tomorrow.", "Linking the related discussion."}
)

// fibreSurfaces draws n surfaces of the fibre (see p1FibreSurface) from a PCG
// seeded with seed: keys, values, block lengths, times (gaps of hours to
// weeks), actors, chatter and the instance (I) variant all vary.
func fibreSurfaces(n int, seed uint64) []p1FibreSurface {
	rng := rand.New(rand.NewPCG(seed, 0x9b1))
	out := make([]p1FibreSurface, n)
	for i := range out {
		out[i] = fibreSurface(rng, fmt.Sprintf("fibre-%04d", i))
	}
	return out
}

func fibreSurface(rng *rand.Rand, id string) p1FibreSurface {
	k := fibreKeys[rng.IntN(len(fibreKeys))]
	phi := fibreValues[rng.IntN(len(fibreValues))]
	other, otherPol := phi, esr.Negative
	if rng.IntN(2) == 0 {
		for other == phi {
			other = fibreValues[rng.IntN(len(fibreValues))]
		}
		otherPol = esr.Positive
	}
	variant := revertedRevert
	if rng.IntN(2) == 0 {
		variant = resolvedConflict
	}
	t := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, rng.IntN(700))
	step := func() {
		if rng.IntN(4) == 0 {
			t = t.Add(time.Duration(1+rng.IntN(12)) * time.Hour)
		} else {
			t = t.AddDate(0, 0, 1+rng.IntN(60))
		}
	}
	var evs []bench.Event
	var block []int // block of each atom: 0 first φ, 1 middle, 2 final φ
	add := func(value string, pol esr.Polarity, text string) {
		evs = append(evs, bench.Event{ID: fmt.Sprintf("e%d", len(evs)+1), Date: t.Format(time.RFC3339),
			Actor: fibreActors[rng.IntN(len(fibreActors))], Value: value, Polarity: pol, Text: text})
		step()
	}
	subject := k.Entity + " " + strings.ReplaceAll(k.Attribute, "_", " ")
	for b := 0; b < 3; b++ {
		v, pol := phi, esr.Positive
		if b == 1 {
			v, pol = other, otherPol
		}
		for j := 1 + rng.IntN(2); j > 0; j-- {
			text := subject + " is " + v + "."
			if pol == esr.Negative {
				text = subject + " is not " + v + "."
			}
			add(v, pol, text)
			block = append(block, b)
			if rng.IntN(3) == 0 {
				add("", "", fibreChat[rng.IntN(len(fibreChat))])
			}
		}
	}
	s, atoms := build(id, k, evs)
	f := p1FibreSurface{Stream: s, Atoms: atoms, Key: k, Variant: variant,
		Phi: esr.Says(atoms[0].Display()), Other: esr.Says(atoms[len(atoms)-1].Display()),
		GoldI: map[esr.AtomPair]esr.Relation{}, GoldII: map[esr.AtomPair]esr.Relation{}}
	for i := range atoms {
		if block[i] == 1 {
			f.Other = esr.Says(atoms[i].Display())
		}
		for j := i + 1; j < len(atoms); j++ {
			p := esr.AtomPair{A: atoms[i].ID, B: atoms[j].ID}
			one, two := esr.SameState, esr.SameState
			switch {
			case block[i] == block[j] || block[i] != 1 && block[j] != 1:
			case block[j] == 1: // first φ → middle
				one, two = esr.Contradicts, esr.Contradicts
				if variant == revertedRevert {
					one = esr.Supersedes
				}
			default: // middle → final φ
				one, two = esr.Supersedes, esr.Contradicts
			}
			f.GoldI[p], f.GoldII[p] = one, two
		}
	}
	return f
}
