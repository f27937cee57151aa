package synth

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/esr"
)

// validateComposition checks the composition knobs (Config.Streams …
// Config.Register).
func (c *Config) validateComposition() error {
	if c.Streams != nil {
		total := 0
		for src, m := range c.Streams {
			if _, ok := sourceShort[src]; !ok {
				return fmt.Errorf("streams: unknown source %q (want github, wiki or dyknow)", src)
			}
			for p, n := range m {
				if !esr.ValidPhenomenon(p) {
					return fmt.Errorf("streams: %s: unknown stratum %q", src, p)
				}
				if n < 0 {
					return fmt.Errorf("streams: %s %s: %d streams", src, p, n)
				}
				total += n
			}
		}
		if total == 0 {
			return fmt.Errorf("streams: every source × stratum count is 0")
		}
	}
	if c.LengthWeights != nil {
		if len(c.LengthWeights) != len(lengthBins) {
			return fmt.Errorf("length weights: want %d (one per Table 12 bin), got %d", len(lengthBins), len(c.LengthWeights))
		}
		if err := checkWeights("length weights", c.LengthWeights); err != nil {
			return err
		}
	}
	if !(c.AtomsPerEvent >= 0 && c.AtomsPerEvent <= 20) {
		return fmt.Errorf("atoms per event must be in [0, 20], got %g", c.AtomsPerEvent)
	}
	switch c.AtomsOver {
	case "", AtomsOverAll, AtomsOverWithAtoms:
	default:
		return fmt.Errorf("atoms-over must be %q or %q, got %q", AtomsOverAll, AtomsOverWithAtoms, c.AtomsOver)
	}
	if c.AtomsPerEvent > 0 && c.AtomsOver == AtomsOverAll && c.EventRecall == 0 {
		return fmt.Errorf("atoms per event over all events needs an event recall above 0")
	}
	if !(c.KeysPerStream >= 0 && c.KeysPerStream <= 20) {
		return fmt.Errorf("keys per stream must be in [0, 20], got %g", c.KeysPerStream)
	}
	if c.RareOversample < 0 || c.RareOversample > 10 {
		return fmt.Errorf("rare oversample must be in [0, 10], got %d", c.RareOversample)
	}
	if c.EventTokens < 0 || c.EventTokens > 5000 {
		return fmt.Errorf("event tokens must be in [0, 5000], got %d", c.EventTokens)
	}
	if c.Register != nil {
		r := c.Register
		if err := checkWeights("register", []float64{r.Prose, r.Code, r.Log, r.Quote}); err != nil {
			return err
		}
	}
	return nil
}

func checkWeights(name string, w []float64) error {
	sum := 0.0
	for _, x := range w {
		if !(x >= 0) || math.IsInf(x, 0) {
			return fmt.Errorf("%s: weight %g is not a finite number ≥ 0", name, x)
		}
		sum += x
	}
	if sum == 0 {
		return fmt.Errorf("%s: every weight is 0", name)
	}
	return nil
}

// weighted draws an index with probability proportional to w (weights
// checked by checkWeights).
func weighted(r *rand.Rand, w []float64) int {
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	u := r.Float64() * sum
	for i, x := range w {
		if u < x {
			return i
		}
		u -= x
	}
	for i := len(w) - 1; i >= 0; i-- {
		if w[i] > 0 {
			return i
		}
	}
	return 0
}

// stochasticRound rounds x down or up with probability of its fraction.
func stochasticRound(r *rand.Rand, x float64) int {
	f := math.Floor(x)
	if r.Float64() < x-f {
		f++
	}
	return int(f)
}

// allocateDistractors sets each stream's number of distractor keys so that
// the mean number of keys per stream is target (Config.KeysPerStream): the
// streams with the fewest planned keys are raised first (water filling),
// ties in an order fixed by a hash of the stream id, each stream up to the
// distractor attributes its entities have.
func allocateDistractors(gens []*streamGen, target float64) {
	if target <= 0 {
		return
	}
	planned := 0
	for _, g := range gens {
		planned += len(g.keys)
	}
	need := int(math.Round(target*float64(len(gens)))) - planned
	order := make([]int, len(gens))
	for i := range order {
		order[i] = i
	}
	tie := func(i int) float64 { return unitHash(gens[i].cfg.Seed, "distractor-order", gens[i].id) }
	for need > 0 {
		// the lowest level among streams that can still take a key
		level := math.MaxInt
		for _, g := range gens {
			if g.distractors < len(g.distractorAttrs()) {
				level = min(level, len(g.keys)+g.distractors)
			}
		}
		if level == math.MaxInt {
			return // every inventory is used up
		}
		var at []int
		for i, g := range gens {
			if len(g.keys)+g.distractors == level && g.distractors < len(g.distractorAttrs()) {
				at = append(at, i)
			}
		}
		sort.Slice(at, func(a, b int) bool { return tie(at[a]) < tie(at[b]) })
		for _, i := range at {
			if need == 0 {
				break
			}
			gens[i].distractors++
			need--
		}
	}
}

// stratifiedBins assigns the n streams of (src, p) to Table 12 bins in
// proportion to Config.LengthWeights by systematic sampling (stream i of a
// seeded permutation takes the bin at quantile (i + φ)/n), so each bin's
// share varies far less between seeds than with independent draws; nil
// without LengthWeights.
func stratifiedBins(cfg *Config, src string, p esr.Phenomenon) []int {
	w, n := cfg.LengthWeights, cfg.streamsOf(src, p)
	if w == nil || n == 0 {
		return nil
	}
	r := rand.New(rand.NewPCG(splitmix(cfg.Seed^0x6c656e67), stratumSeed(src, p, -1)))
	phi := r.Float64()
	perm := r.Perm(n)
	total := 0.0
	for _, x := range w {
		total += x
	}
	out := make([]int, n)
	for i := range out {
		u := (float64(perm[i]) + phi) / float64(n) * total
		b := 0
		for b < len(w)-1 && u >= w[b] {
			u -= w[b]
			b++
		}
		out[i] = b
	}
	return out
}

// ParseStreams reads a stream mix, "SOURCE/STRATUM=N" comma separated
// ("github/monotonic=567,github/reverted_revert=66,wiki/monotonic=263").
func ParseStreams(s string) (map[string]map[esr.Phenomenon]int, error) {
	out := map[string]map[esr.Phenomenon]int{}
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		cell, num, ok := strings.Cut(part, "=")
		src, strat, ok2 := strings.Cut(cell, "/")
		if !ok || !ok2 {
			return nil, fmt.Errorf("streams: %q is not SOURCE/STRATUM=N", part)
		}
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if err != nil {
			return nil, fmt.Errorf("streams: %q: %v", part, err)
		}
		src, p := strings.TrimSpace(src), esr.Phenomenon(strings.TrimSpace(strat))
		if out[src] == nil {
			out[src] = map[esr.Phenomenon]int{}
		}
		if _, dup := out[src][p]; dup {
			return nil, fmt.Errorf("streams: %s/%s given twice", src, p)
		}
		out[src][p] = n
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("streams: empty")
	}
	return out, nil
}

// FormatStreams writes a stream mix as ParseStreams reads it, sources and
// strata in file order.
func FormatStreams(m map[string]map[esr.Phenomenon]int) string {
	var parts []string
	for _, src := range Sources {
		for _, p := range esr.Phenomena {
			if n, ok := m[src][p]; ok {
				parts = append(parts, fmt.Sprintf("%s/%s=%d", src, p, n))
			}
		}
	}
	return strings.Join(parts, ",")
}

// ParseWeights reads comma-separated numbers ("0.355,0.23,0.184,0.115,0.091").
func ParseWeights(s string) ([]float64, error) {
	var out []float64
	for _, part := range strings.Split(s, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil {
			return nil, fmt.Errorf("weights: %q: %v", part, err)
		}
		out = append(out, x)
	}
	return out, nil
}

// ParseRegister reads a register mix, "prose=0.5,code=0.2,log=0.15,quote=0.15"
// (a register left out weighs 0).
func ParseRegister(s string) (*Register, error) {
	r := &Register{}
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		name, num, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("register: %q is not NAME=WEIGHT", part)
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
		if err != nil {
			return nil, fmt.Errorf("register: %q: %v", part, err)
		}
		switch strings.TrimSpace(name) {
		case "prose":
			r.Prose = x
		case "code":
			r.Code = x
		case "log":
			r.Log = x
		case "quote":
			r.Quote = x
		default:
			return nil, fmt.Errorf("register: unknown register %q (want prose, code, log or quote)", name)
		}
	}
	return r, nil
}
