package memory

import (
	"github.com/esrkit/esrkit/internal/layout"

	"encoding/binary"
	"hash/fnv"

	"github.com/esrkit/esrkit/esr"
)

// FactVerbs are the verb phrases the deployed classes write a fact with:
// "ENTITY ATTRIBUTE VERB VALUE". The first is the template; an episode whose
// text is paraphrased (deployedParams.Paraphrase) uses one of the others,
// drawn uniformly, so two paraphrased episodes of one value get the same
// text with probability 1/(len(FactVerbs)−1), as an extractor sometimes
// words two restatements alike. Only the verb varies: key and value are
// written as in the template, so a reader finds them in every wording.
var FactVerbs = []string{"is", "was set to", "changed to", "is now", "became"}

// factTextWith writes atom a's fact with verb FactVerbs[v].
func factTextWith(a *esr.Atom, v int) string {
	return a.Entity + " " + a.Key().AttributeLabel() + " " + FactVerbs[v] + " " + a.Display()
}

// factText is the template fact an atom states: "ENTITY ATTRIBUTE is VALUE".
func factText(a *esr.Atom) string { return factTextWith(a, 0) }

// factTexts writes each atom's fact: the template, or with probability p a
// paraphrase. Both draws are made per (seed, stream, atom) whether or not
// they are used, so a class and its control (the same name with the
// mechanism off) write every atom alike.
func factTexts(s *esr.Stream, atoms []esr.Atom, p float64, seed uint64) []string {
	out := make([]string, len(atoms))
	for i := range atoms {
		a := &atoms[i]
		v := 0
		if drawUnit(seed, s.ID, a.ID, "paraphrase") < p {
			v = 1 + int(drawUnit(seed, s.ID, a.ID, "wording")*float64(len(FactVerbs)-1))
		}
		out[i] = factTextWith(a, v)
	}
	return out
}

// drawUnit is a uniform draw in [0, 1) fixed by (seed, stream, atom, what):
// the same inputs give the same draw in every build, class and control.
func drawUnit(seed uint64, stream, atom, what string) float64 {
	f := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	f.Write(b[:])
	for _, s := range []string{stream, atom, what} {
		f.Write([]byte(s))
		f.Write([]byte{0})
	}
	return float64(layout.Mix(f.Sum64())>>11) / (1 << 53)
}
