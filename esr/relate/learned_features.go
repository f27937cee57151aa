package relate

import (
	"math"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/esr"
)

// Feature indices. Every feature describes the ordered co-keyed pair (a
// earlier, b later) using only the two atoms, the stream's event texts and
// the positions of the atoms in the stream — never a gold label.
const (
	// featRule..featRule+4: one-hot of relate.Rule's label for the pair, in
	// esr.Relations order (the rule scorer's whole decision, so the model can
	// only add to it).
	featRule = iota
	_
	_
	_
	_
	featSameState   // 1 when a.State() == b.State() (normalised value and polarity)
	featSamePol     // 1 when the polarities agree
	featAInB        // 1 when a's normalised value is a proper substring of b's
	featBInA        // 1 when b's normalised value is a proper substring of a's
	featLenDiff     // (|v_b| − |v_a|) / (|v_a| + |v_b|), in [−1, 1]; 0 for two empty values
	featJaccard     // |T_a ∩ T_b| / |T_a ∪ T_b| over the value tokens T
	featTokCover    // |T_a ∩ T_b| / |T_a|: how much of a's value b repeats (1 for a refinement that appends)
	featNumeric     // 1 when both values carry a number
	featNumLogRatio // |ln(n_b / n_a)| for the first numbers of both values (0 unless both are positive)
	featUpdateCue   // b's event text has an update cue ("instead", "changed to", "no longer", ...)
	featRevertCue   // b's event text has a revert cue ("revert", "restore", "back to", "roll back", ...)
	featHedgeCue    // b's event text hedges ("maybe", "might", "not sure", "?")
	featRefineCue   // b's event text has a refinement cue ("more precisely", "specifically", "narrow", "only", ...)
	featSameActor   // 1 when both atoms name the same actor
	featBothActors  // 1 when both atoms name an actor
	featSameEvent   // 1 when both atoms come from one event
	featLogDays     // ln(1 + days from a to b), negative gaps taken as 0
	featBetween     // ln(1 + number of stream atoms strictly between a and b)
	featKeyBetween  // ln(1 + number of co-keyed atoms strictly between a and b)
	featPosA        // a's position in the stream's atoms, i/(n−1) (0 when unknown or n = 1)
	featPosB        // b's position, likewise
	featBLastOfKey  // 1 when b is its key's last atom in the stream
	// The last three read extractor fields of b (spec §8). On the synthetic
	// bench they are set from the generating claim kind, so they separate
	// hedges and recollections (gold UNRELATED) almost perfectly there.
	featBHedged // 1 when b's modality is "hedge"
	featBRecall // 1 when b's modality is "recall" (a stale value mentioned again)
	featBConf   // b's extractor confidence (0 when absent)
	numFeatures
)

// learnedFeatures names the features in index order (for CoefTable and
// notebooks).
var learnedFeatures = [numFeatures]string{
	"rule=UNRELATED", "rule=SAME_STATE", "rule=REFINES", "rule=SUPERSEDES", "rule=CONTRADICTS",
	"same_state", "same_polarity", "a_in_b", "b_in_a", "len_diff", "token_jaccard", "token_cover_a",
	"both_numeric", "num_log_ratio", "cue_update", "cue_revert", "cue_hedge", "cue_refine",
	"same_actor", "both_actors", "same_event", "log_days", "log_atoms_between",
	"log_key_atoms_between", "pos_a", "pos_b", "b_last_of_key", "b_modality_hedge",
	"b_modality_recall", "b_confidence",
}

// featurizer computes pair features for one stream.
type featurizer struct {
	stream *esr.Stream
	rule   esr.PairFunc
	cues   []cues // by event index, scanned lazily
	seen   []bool
	pos    map[string]int // atom id -> index in the stream's atoms
	keyPos map[string]int // atom id -> index among its key's atoms
	keyN   map[esr.Key]int
	n      int
}

func newFeaturizer(s *esr.Stream, atoms []esr.Atom) *featurizer {
	f := &featurizer{stream: s, rule: Rule{}.ForStream(s, atoms),
		cues: make([]cues, len(s.Events)), seen: make([]bool, len(s.Events)),
		pos: make(map[string]int, len(atoms)), keyPos: make(map[string]int, len(atoms)),
		keyN: map[esr.Key]int{}, n: len(atoms)}
	for i := range atoms {
		k := atoms[i].Key()
		f.pos[atoms[i].ID] = i
		f.keyPos[atoms[i].ID] = f.keyN[k]
		f.keyN[k]++
	}
	return f
}

func (f *featurizer) cuesOf(b *esr.Atom) cues {
	i := b.EventIndex
	if i < 0 || i >= len(f.cues) || f.stream.Events[i].ID != b.EventID {
		if i = f.stream.EventIndex(b.EventID); i < 0 {
			return cues{}
		}
	}
	if !f.seen[i] {
		f.cues[i], f.seen[i] = scanLearnedCues(f.stream.Events[i].Text), true
	}
	return f.cues[i]
}

// features writes the feature vector of (a, b) into x (length numFeatures).
func (f *featurizer) features(a, b *esr.Atom, x []float64) {
	clear(x)
	x[featRule+int(f.rule(a, b))] = 1
	va, vb := esr.NormalizeValue(a.Value), esr.NormalizeValue(b.Value)
	x[featSameState] = flag(a.State() == b.State())
	x[featSamePol] = flag(a.Polarity == b.Polarity)
	x[featAInB] = flag(va != "" && len(vb) > len(va) && strings.Contains(vb, va))
	x[featBInA] = flag(vb != "" && len(va) > len(vb) && strings.Contains(va, vb))
	if n := len(va) + len(vb); n > 0 {
		x[featLenDiff] = float64(len(vb)-len(va)) / float64(n)
	}
	x[featJaccard], x[featTokCover] = tokenOverlap(va, vb)
	na, okA := firstNumber(va)
	nb, okB := firstNumber(vb)
	if okA && okB {
		x[featNumeric] = 1
		if na > 0 && nb > 0 {
			x[featNumLogRatio] = math.Abs(math.Log(nb / na))
		}
	}
	c := f.cuesOf(b)
	x[featUpdateCue], x[featRevertCue] = flag(c.update), flag(c.revert)
	x[featHedgeCue], x[featRefineCue] = flag(c.hedge), flag(c.refine)
	an, bn := a.ActorName(), b.ActorName()
	x[featSameActor] = flag(an != "" && an == bn)
	x[featBothActors] = flag(an != "" && bn != "")
	x[featSameEvent] = flag(a.EventID != "" && a.EventID == b.EventID)
	if d := b.Timestamp.Sub(a.Timestamp.Time).Hours() / 24; d > 0 {
		x[featLogDays] = math.Log1p(d)
	}
	ia, okA := f.pos[a.ID]
	ib, okB := f.pos[b.ID]
	if okA && okB {
		x[featBetween] = math.Log1p(float64(max(ib-ia-1, 0)))
		x[featKeyBetween] = math.Log1p(float64(max(f.keyPos[b.ID]-f.keyPos[a.ID]-1, 0)))
		if f.n > 1 {
			x[featPosA] = float64(ia) / float64(f.n-1)
			x[featPosB] = float64(ib) / float64(f.n-1)
		}
		x[featBLastOfKey] = flag(f.keyPos[b.ID] == f.keyN[b.Key()]-1)
	}
	x[featBHedged] = flag(b.Modality == esr.ModalityHedge)
	x[featBRecall] = flag(b.Modality == esr.ModalityRecall)
	x[featBConf] = b.Confidence
}

func flag(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// tokenOverlap is the Jaccard index of the two values' word sets and the
// share of a's words that b repeats.
func tokenOverlap(va, vb string) (jaccard, cover float64) {
	ta, tb := set(words(va)...), set(words(vb)...)
	inter := 0
	for w := range ta {
		if tb[w] {
			inter++
		}
	}
	if union := len(ta) + len(tb) - inter; union > 0 {
		jaccard = float64(inter) / float64(union)
	}
	if len(ta) > 0 {
		cover = float64(inter) / float64(len(ta))
	}
	return
}

// firstNumber parses the first run of digits (with at most one decimal
// point) in v.
func firstNumber(v string) (float64, bool) {
	i := strings.IndexAny(v, "0123456789")
	if i < 0 {
		return 0, false
	}
	j, dot := i, false
	for j < len(v) && (v[j] >= '0' && v[j] <= '9' || v[j] == '.' && !dot) {
		dot = dot || v[j] == '.'
		j++
	}
	x, err := strconv.ParseFloat(strings.TrimSuffix(v[i:j], "."), 64)
	return x, err == nil
}
