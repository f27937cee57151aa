package eval

import (
	"fmt"
	"strconv"
	"strings"
)

// Variant is the condition a row was evaluated under, typed: a render
// format, a prompt wording, a noise level, or another label (a stage, a
// relation source, a render such as "state-only"). At most one of Format,
// Wording and Label is set, and Noise alone or beside one of them (a run
// under relation-label noise, `esr run --relation-noise`, whose suite
// labels its own conditions); the zero Variant is the main condition. Its
// string form is what the row files carry (json key "condition"), byte for
// byte as before:
//
//	format=F          Format F (the ledger's render format, Table 17)
//	wording=W         Wording W (the prompt wording, Table 19)
//	KIND p=P          Noise{KIND, P}, P written with one decimal (Table 13)
//	OTHER; KIND p=P   one of the above (not a noise) beside Noise{KIND, P}
//	anything else     Label, as written
//
// ParseVariant reads the string form and String writes it; Equal compares
// noise levels at the one decimal the string form keeps.
type Variant struct {
	Format  string
	Wording string
	Noise   Noise
	Label   string
}

// Noise is one level of a noise sweep: the kind of noise (e.g.
// "relation-noise", "atom-dropout") and its probability.
type Noise struct {
	Kind string
	P    float64
}

// Prefixes of the format and wording variants' string forms.
const (
	formatPrefix  = "format="
	wordingPrefix = "wording="
	noiseSep      = " p="
	// besideSep joins a condition and the noise beside it.
	besideSep = "; "
)

// FormatVariant is the variant of render format f.
func FormatVariant(f string) Variant { return Variant{Format: f} }

// WordingVariant is the variant of prompt wording w.
func WordingVariant(w string) Variant { return Variant{Wording: w} }

// NoiseVariant is the variant of noise kind at probability p.
func NoiseVariant(kind string, p float64) Variant { return Variant{Noise: Noise{kind, p}} }

// LabelVariant is a variant named by label alone.
func LabelVariant(label string) Variant { return Variant{Label: label} }

// String writes v's string form (see Variant).
func (v Variant) String() string {
	other := v.other()
	switch {
	case v.Noise.Kind == "":
		return other
	case other == "":
		return v.Noise.Kind + noiseSep + v.Noise.level()
	}
	return other + besideSep + v.Noise.Kind + noiseSep + v.Noise.level()
}

// other is the string form of v's format, wording or label.
func (v Variant) other() string {
	switch {
	case v.Format != "":
		return formatPrefix + v.Format
	case v.Wording != "":
		return wordingPrefix + v.Wording
	}
	return v.Label
}

// level is P as the string form writes it (%.1f).
func (n Noise) level() string { return strconv.FormatFloat(n.P, 'f', 1, 64) }

// ParseVariant reads a condition's string form. Every string is a
// variant: one that is not a format, a wording, a noise level written
// as String writes it, or one of these but a noise beside a noise level,
// is a Label.
func ParseVariant(s string) Variant {
	if i := strings.LastIndex(s, besideSep); i > 0 {
		n, other := parseOne(s[i+len(besideSep):]), parseOne(s[:i])
		if n.kind() == kindNoise && other.Noise.Kind == "" {
			other.Noise = n.Noise
			return other
		}
	}
	return parseOne(s)
}

// parseOne reads a string form without a noise beside another part.
func parseOne(s string) Variant {
	if f, ok := strings.CutPrefix(s, formatPrefix); ok && f != "" {
		return Variant{Format: f}
	}
	if w, ok := strings.CutPrefix(s, wordingPrefix); ok && w != "" {
		return Variant{Wording: w}
	}
	if kind, p, ok := strings.Cut(s, noiseSep); ok && kind != "" && !strings.Contains(kind, " ") {
		if x, err := strconv.ParseFloat(p, 64); err == nil {
			if n := (Noise{kind, x}); n.level() == p {
				return Variant{Noise: n}
			}
		}
	}
	return Variant{Label: s}
}

// Equal reports whether v and w are the same condition (noise levels
// compared at one decimal).
func (v Variant) Equal(w Variant) bool { return v.String() == w.String() && v.kind() == w.kind() }

// The kinds of a variant's parts (kind's bits).
const (
	kindFormat  = 1
	kindWording = 2
	kindNoise   = 4
)

// kind says which parts v has: kindFormat or kindWording (or neither: a
// label or none), plus kindNoise.
func (v Variant) kind() int {
	k := 0
	switch {
	case v.Format != "":
		k = kindFormat
	case v.Wording != "":
		k = kindWording
	}
	if v.Noise.Kind != "" {
		k |= kindNoise
	}
	return k
}

// IsZero reports whether v is the main condition.
func (v Variant) IsZero() bool { return v.String() == "" }

// Beside returns v with noise n beside its format, wording or label (a
// run's relation-label noise, recorded in every row's condition); v must
// carry no noise of its own.
func (v Variant) Beside(n Noise) (Variant, error) {
	if v.Noise.Kind != "" {
		return v, fmt.Errorf("condition %q already carries a noise level; %s p=%s cannot be added beside it", v, n.Kind, n.level())
	}
	v.Noise = n
	return v, v.Validate()
}

// Validate reports whether String writes v as a string ParseVariant reads
// back as v: at most one of format, wording and label, a noise kind
// without spaces, a label that does not read as another kind of variant
// (nor a noise kind that makes the string read as a format or a wording).
func (v Variant) Validate() error {
	set := 0
	for _, s := range []bool{v.Format != "", v.Wording != "", v.Label != ""} {
		if s {
			set++
		}
	}
	switch {
	case set > 1:
		return fmt.Errorf("variant %+v: more than one of format, wording and label", v)
	case v.Noise.Kind != "" && strings.Contains(v.Noise.Kind, " "):
		return fmt.Errorf("variant %+v: a noise kind has no spaces", v)
	case v.Noise.Kind == "" && v.Noise.P != 0:
		return fmt.Errorf("variant %+v: a noise level with no kind", v)
	case !ParseVariant(v.String()).Equal(v):
		return fmt.Errorf("variant %+v: %q reads as another kind of variant", v, v.String())
	}
	return nil
}

// MarshalText writes the string form, so a Variant field encodes as the
// condition string rows carry.
func (v Variant) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads the string form.
func (v *Variant) UnmarshalText(b []byte) error {
	*v = ParseVariant(string(b))
	return nil
}

// Variants keeps rows of the given variants (compared typed: noise levels
// at one decimal).
func Variants(vs ...Variant) Filter {
	return func(o *Outcome) bool {
		v := o.Variant
		for _, w := range vs {
			if v.Equal(w) {
				return true
			}
		}
		return false
	}
}
