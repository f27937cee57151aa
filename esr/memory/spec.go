package memory

import (
	"fmt"
	"strconv"
	"strings"
)

// Class is a memory class without parameters or control switch: one of
// Names, one of DeployedNames, a registered class, or an exec: adapter
// (ExecPrefix + PATH). The class constants (FineLedger, Graphiti, …) are
// untyped, so they serve both as a Class and as the memory name an outcome
// row carries.
type Class string

// Opt is an optional parameter value: Set reports whether the name sets
// it; an unset parameter takes the class's default (ClassParams).
type Opt[T any] struct {
	Value T
	Set   bool
}

// Some is an Opt set to v.
func Some[T any](v T) Opt[T] { return Opt[T]{Value: v, Set: true} }

// Or is the value when set, else def.
func (o Opt[T]) Or(def T) T {
	if o.Set {
		return o.Value
	}
	return def
}

// Params are the parameters a class is built under (see deployedParams for
// what each assumes and ClassParams for which class takes which). A zero
// Params sets none: every parameter takes its default.
type Params struct {
	Assumed
	// Kept (graphrag-abstain only) is the class whose kept atoms
	// graphrag-abstain is built over (ContentMatched).
	Kept Kept
}

// Assumed are the deployed classes' parameters.
type Assumed struct {
	Paraphrase Opt[float64] // deployed classes: probability in [0, 1]
	Dup        Opt[float64] // graphiti, graphiti-current: probability in [0, 1]
	DedupK     Opt[int]     // mem0-*: count ≥ 0, or dedupAll
	CreatedAt  Opt[string]  // mem0-*: CreatedAtEvent or CreatedAtIngestion
	Skip       Opt[float64] // mem0-*: probability in [0, 1]
	Seed       Opt[uint64]  // deployed classes: the draws' seed
}

// Kept is the spec of graphrag-abstain@kept=, held by value so that a Spec
// is comparable (== and map keys). A kept class has no kept= of its own
// (graphrag-abstain reports no kept atoms). The zero Kept is unset.
type Kept struct {
	Class   Class
	Params  Assumed
	Control bool
}

// IsZero reports whether k is unset.
func (k Kept) IsZero() bool { return k.Class == "" }

// Spec is the kept class as a spec.
func (k Kept) Spec() Spec {
	return Spec{Class: k.Class, Params: Params{Assumed: k.Params}, Control: k.Control}
}

// keptOf is s as a Kept; s must set no kept= of its own.
func keptOf(s Spec) (Kept, error) {
	if !s.Params.Kept.IsZero() {
		return Kept{}, fmt.Errorf("%s keeps no atoms of its own (kept= does not nest)", s)
	}
	return Kept{Class: s.Class, Params: s.Params.Assumed, Control: s.Control}, nil
}

// IsZero reports whether p sets no parameter.
func (p Params) IsZero() bool {
	return !p.Paraphrase.Set && !p.Dup.Set && !p.DedupK.Set && !p.CreatedAt.Set &&
		!p.Skip.Set && !p.Seed.Set && p.Kept.IsZero()
}

// Spec is a memory's identity inside the library: its class, the
// parameters it is built under and whether it is the class's render-matched
// control (the same build with Options.MechanismOff). The string form,
//
//	CLASS[@KEY=VALUE]...[~render-only]
//
// (e.g. graphiti@paraphrase=0.3~render-only or
// graphrag-abstain@kept=mem0-v3~render-only), is what the CLI, notebooks
// and outcome rows spell: ParseSpec reads it and String writes it, the
// parameters in the order of ClassParams. A name that writes its
// parameters in another order parses to an equal spec, which String
// writes in that order. render-only is its own class (fine-ledger's
// control under the paper's name); fine-ledger~render-only builds the same
// state under that name. Specs are comparable: == and map keys compare
// them whole.
type Spec struct {
	Class   Class
	Params  Params
	Control bool
}

// SpecOf is the spec of class c with no parameters.
func SpecOf(c Class) Spec { return Spec{Class: c} }

// Specs are the specs of classes cs with no parameters.
func Specs(cs ...Class) []Spec {
	out := make([]Spec, len(cs))
	for i, c := range cs {
		out[i] = SpecOf(c)
	}
	return out
}

// IsZero reports whether s is the zero Spec (no memory).
func (s Spec) IsZero() bool { return s == Spec{} }

// Is reports whether s is class c with no parameters and no control switch.
func (s Spec) Is(c Class) bool { return s == SpecOf(c) }

// MarshalText writes the name (String), so a Spec field encodes as the
// memory name rows carry.
func (s Spec) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a name (ParseSpec); "" is the zero Spec, as String
// writes it.
func (s *Spec) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*s = Spec{}
		return nil
	}
	sp, err := ParseSpec(string(b))
	if err != nil {
		return err
	}
	*s = sp
	return nil
}

// paramOrder is the order String writes parameters in: the order of
// ClassParams (kept, which takes the rest of the name, last).
var paramOrder = []string{ParamParaphrase, paramDup, ParamDedupK, ParamCreatedAt, paramSkip, paramSeed, paramKept}

// String writes the spec in the name grammar (see Spec).
func (s Spec) String() string {
	var b strings.Builder
	b.WriteString(string(s.Class))
	for _, k := range paramOrder {
		if v, ok := s.Params.value(k); ok {
			b.WriteString(paramSep + k + "=" + v)
		}
	}
	if s.Control {
		b.WriteString(ControlSuffix)
	}
	return b.String()
}

// value is the printed value of parameter key and whether p sets it.
func (p Params) value(key string) (string, bool) {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	switch key {
	case ParamParaphrase:
		return f(p.Paraphrase.Value), p.Paraphrase.Set
	case paramDup:
		return f(p.Dup.Value), p.Dup.Set
	case paramSkip:
		return f(p.Skip.Value), p.Skip.Set
	case ParamDedupK:
		if p.DedupK.Value == dedupAll {
			return "all", p.DedupK.Set
		}
		return strconv.Itoa(p.DedupK.Value), p.DedupK.Set
	case ParamCreatedAt:
		return p.CreatedAt.Value, p.CreatedAt.Set
	case paramSeed:
		return strconv.FormatUint(p.Seed.Value, 10), p.Seed.Set
	case paramKept:
		if p.Kept.IsZero() {
			return "", false
		}
		return p.Kept.Spec().String(), true
	}
	return "", false
}

// keys lists the parameters p sets, in String's order.
func (p Params) keys() []string {
	var out []string
	for _, k := range paramOrder {
		if _, ok := p.value(k); ok {
			out = append(out, k)
		}
	}
	return out
}

// Equal reports whether s and t are the same spec, the values of unset
// parameters ignored (== compares them too).
func (s Spec) Equal(t Spec) bool {
	sk, tk := s.Params.Kept, t.Params.Kept
	sk.Params, tk.Params = sk.Params.normal(), tk.Params.normal()
	return s.Class == t.Class && s.Control == t.Control && s.Params.Assumed.normal() == t.Params.Assumed.normal() && sk == tk
}

// normal is p with the value of every unset parameter zeroed.
func (p Assumed) normal() Assumed {
	clear := func(o *Opt[float64]) {
		if !o.Set {
			*o = Opt[float64]{}
		}
	}
	clear(&p.Paraphrase)
	clear(&p.Dup)
	clear(&p.Skip)
	if !p.DedupK.Set {
		p.DedupK = Opt[int]{}
	}
	if !p.CreatedAt.Set {
		p.CreatedAt = Opt[string]{}
	}
	if !p.Seed.Set {
		p.Seed = Opt[uint64]{}
	}
	return p
}

// IsExec reports whether the class is an exec: adapter.
func (c Class) IsExec() bool { return strings.HasPrefix(string(c), ExecPrefix) }

// ParseSpec reads a memory name (see Spec). It checks the grammar, that the
// class takes each parameter given (ClassParams) and each value's type and
// range; an error names the part that is wrong. Whether the class exists
// (a registered class, an exec: adapter's file, a kept class that reports
// its atoms) is checked by ParseNames and Build. exec: names are taken
// whole, with no parameters: their path is taken as written.
func ParseSpec(name string) (Spec, error) {
	c, err := splitName(name)
	if err != nil {
		return Spec{}, err
	}
	if c.Base == "" {
		return Spec{}, fmt.Errorf("memory class %q: no class name", name)
	}
	sp := Spec{Class: Class(c.Base), Control: c.Control}
	if len(c.Params) == 0 {
		if strings.HasSuffix(c.Base, ControlSuffix) {
			return Spec{}, fmt.Errorf("memory class %q: %s given twice", name, ControlSuffix)
		}
		return sp, nil
	}
	docs := ClassParams(Class(c.Base))
	for _, q := range c.Params {
		if !takes(docs, q.Key) {
			if len(docs) == 0 {
				return Spec{}, fmt.Errorf("memory class %q: %s takes no parameters (got %s)", name, c.Base, q.Key)
			}
			return Spec{}, fmt.Errorf("memory class %q: unknown parameter %s (%s takes %s)", name, q.Key, c.Base, paramKeys(docs))
		}
		if err := sp.Params.set(q.Key, q.Value); err != nil {
			if q.Key == paramKept {
				return Spec{}, fmt.Errorf("memory class %q: kept: %w", name, err)
			}
			return Spec{}, fmt.Errorf("memory class %q: parameter %s=%s: %w", name, q.Key, q.Value, err)
		}
	}
	return sp, nil
}

// MustParseSpec is ParseSpec for names known to be valid; it panics
// otherwise.
func MustParseSpec(name string) Spec {
	sp, err := ParseSpec(name)
	if err != nil {
		panic("memory: " + err.Error())
	}
	return sp
}

// Validate reports whether String writes s as a name ParseSpec reads back
// as s: a class name the grammar can carry, only parameters the class
// takes, values in range, and no control switch beside kept (kept= takes
// the rest of the name, so the switch would belong to the kept class).
func (s Spec) Validate() error {
	c := string(s.Class)
	switch {
	case c == "":
		return fmt.Errorf("memory spec: no class")
	case strings.HasSuffix(c, ControlSuffix):
		return fmt.Errorf("memory spec %q: the class name ends in %s (set Control instead)", c, ControlSuffix)
	case !s.Class.IsExec() && strings.Contains(c, paramSep):
		return fmt.Errorf("memory spec %q: %s in a class name", c, paramSep)
	case !s.Class.IsExec() && s.Params.IsZero() && strings.Contains(c, ControlSuffix):
		// fine: "a~render-onlyb" is a name with no parameters
	case !s.Class.IsExec() && strings.Contains(c, ControlSuffix):
		return fmt.Errorf("memory spec %q: parameters go before %s", c, ControlSuffix)
	}
	docs := ClassParams(s.Class)
	for _, k := range s.Params.keys() {
		if !takes(docs, k) {
			return fmt.Errorf("memory spec %s: %s does not take %s", s.Class, s.Class, k)
		}
		v, _ := s.Params.value(k)
		if k == paramKept {
			if err := s.Params.Kept.Spec().Validate(); err != nil {
				return fmt.Errorf("memory spec %s: kept: %w", s.Class, err)
			}
			continue
		}
		var q Params
		if err := q.set(k, v); err != nil {
			return fmt.Errorf("memory spec %s: parameter %s=%s: %w", s.Class, k, v, err)
		}
	}
	if !s.Params.Kept.IsZero() && s.Control {
		return fmt.Errorf("memory spec %s: kept= takes the rest of the name, so it has no control switch", s.Class)
	}
	if p := s.Params; p.DedupK.Set && p.DedupK.Value < 0 && p.DedupK.Value != dedupAll {
		return fmt.Errorf("memory spec %s: dedup-k %d", s.Class, p.DedupK.Value)
	}
	return nil
}

// set parses value into parameter key.
func (p *Params) set(key, value string) error {
	prob := func() (Opt[float64], error) {
		f, err := strconv.ParseFloat(value, 64)
		if err != nil || !(f >= 0 && f <= 1) { // NaN fails too
			return Opt[float64]{}, fmt.Errorf("want a probability in [0, 1]")
		}
		return Some(f), nil
	}
	var err error
	switch key {
	case ParamParaphrase:
		p.Paraphrase, err = prob()
	case paramDup:
		p.Dup, err = prob()
	case paramSkip:
		p.Skip, err = prob()
	case ParamDedupK:
		if value == "all" {
			p.DedupK = Some(dedupAll)
			return nil
		}
		k, e := strconv.Atoi(value)
		if e != nil || k < 0 {
			return fmt.Errorf("want a count of memories (0, 1, …) or all")
		}
		p.DedupK = Some(k)
	case ParamCreatedAt:
		if value != CreatedAtEvent && value != CreatedAtIngestion {
			return fmt.Errorf("want %s or %s", CreatedAtEvent, CreatedAtIngestion)
		}
		p.CreatedAt = Some(value)
	case paramSeed:
		s, e := strconv.ParseUint(value, 10, 64)
		if e != nil {
			return fmt.Errorf("want a non-negative integer")
		}
		p.Seed = Some(s)
	case paramKept:
		k, e := ParseSpec(value)
		if e != nil {
			return e
		}
		if p.Kept, e = keptOf(k); e != nil {
			return e
		}
	default:
		return fmt.Errorf("unknown parameter %s", key)
	}
	return err
}

// deployed is p with the defaults of ClassParams filled in.
func (p Params) deployed() deployedParams {
	d := defaultDeployedParams()
	d.Paraphrase = p.Paraphrase.Or(d.Paraphrase)
	d.Dup = p.Dup.Or(d.Dup)
	d.DedupK = p.DedupK.Or(d.DedupK)
	d.CreatedAt = p.CreatedAt.Or(d.CreatedAt)
	d.Skip = p.Skip.Or(d.Skip)
	d.Seed, d.seedSet = p.Seed.Value, p.Seed.Set
	return d
}

// RenderMatched is the render-matched control of s: render-only for
// fine-ledger, s with Control set otherwise.
func (s Spec) RenderMatched() Spec {
	if s.Class == FineLedger && s.Params.IsZero() && !s.Control {
		return SpecOf(RenderOnly)
	}
	s.Control = true
	return s
}

// ContentMatched is the content-matched d-blind baseline of s:
// graphrag-abstain over the atoms s's render-matched control kept,
// graphrag-abstain@kept=CONTROL. Against it the deployed decomposition
// separates content from layout: content = ContentMatched − graphrag-abstain
// (what the atoms the control dropped at ingestion were worth to the
// d-blind baseline), render = control − ContentMatched (the class's layout
// over the same atoms), mechanism = class − control. The control's kept
// atoms, not the class's, are used so that the render term holds the atoms
// fixed: atoms the mechanism itself drops (an UNRELATED hedge, an UPDATE)
// stay in the mechanism term.
func (s Spec) ContentMatched() Spec {
	k := s.RenderMatched()
	return Spec{Class: GraphRAGAbstain, Params: Params{Kept: Kept{Class: k.Class, Params: k.Params.Assumed, Control: k.Control}}}
}

// Assumptions lists the parameters s is built under, every one with its
// value (defaults filled in, the seed resolved from opt), e.g.
// "paraphrase=0.5, dup=1, seed=0"; for graphrag-abstain@kept=X it names X
// with X's assumptions. It is "" for a class that takes no parameters.
func (s Spec) Assumptions(opt Options) string {
	if k := s.Params.Kept; !k.IsZero() {
		inner := k.Spec().Assumptions(opt)
		if inner != "" {
			inner = ", " + inner
		}
		return "atoms kept by " + k.Spec().String() + inner
	}
	if s.Class == GraphRAGAbstain {
		return ""
	}
	dp := s.Params.deployed()
	var parts []string
	for _, d := range ClassParams(s.Class) {
		parts = append(parts, d.Key+"="+dp.value(d.Key, opt))
	}
	return strings.Join(parts, ", ")
}

// With returns s with parameter key set to value (the name grammar's
// value, e.g. "0.3" or "all"), checked as ParseSpec checks it.
func (s Spec) With(key, value string) (Spec, error) {
	if !takes(ClassParams(s.Class), key) {
		return Spec{}, fmt.Errorf("memory class %s: unknown parameter %s", s, key)
	}
	if err := s.Params.set(key, value); err != nil {
		return Spec{}, fmt.Errorf("memory class %s: parameter %s=%s: %w", s, key, value, err)
	}
	return s, nil
}

// Strings are the specs' names (String), in order: a table's columns.
func Strings(ms []Spec) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}
