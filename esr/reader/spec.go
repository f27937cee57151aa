package reader

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
)

// Kind is the kind of a reader.
type Kind string

// Reader kinds.
const (
	KindOracle   Kind = "oracle"   // the structured read-out (Oracle)
	KindScripted Kind = "scripted" // a scripted profile (NewScripted)
	KindSim      Kind = "sim"      // a simulated profile (ParseSim)
	KindLLM      Kind = "llm"      // a language model (NewLLM)
)

// Spec names a reader, typed: its kind and, for scripted and sim readers,
// the profile (with its own parameters, e.g. "PROFILE@seed=S@CAP=V", see
// ParseSim) or, for llm readers, the model. An empty Name is the bare
// kind: every profile or every configured model (ParseList). The string
// form KIND[:NAME] ("oracle", "sim:fit-gpt", "llm:MODEL") is what the CLI,
// notebooks and row files spell: ParseSpec reads it, once, where it enters,
// and String writes it.
type Spec struct {
	Kind Kind
	Name string
}

// String writes KIND or KIND:NAME (a spec with no Kind, which names no
// reader, writes its Name).
func (s Spec) String() string {
	if s.Kind == "" {
		return s.Name
	}
	if s.Name == "" {
		return string(s.Kind)
	}
	return string(s.Kind) + ":" + s.Name
}

// ParseSpec reads a reader's name. An error names the part that is wrong.
func ParseSpec(s string) (Spec, error) {
	s = strings.TrimSpace(s)
	kind, arg, hasArg := strings.Cut(s, ":")
	arg = strings.TrimSpace(arg)
	switch Kind(kind) {
	case KindOracle:
		if hasArg {
			return Spec{}, fmt.Errorf("reader %q: oracle takes no name", s)
		}
		return Spec{Kind: KindOracle}, nil
	case KindScripted, KindSim, KindLLM:
		if hasArg && arg == "" {
			if Kind(kind) == KindLLM {
				return Spec{}, errors.New("reader llm: empty model name")
			}
			return Spec{}, fmt.Errorf("reader %q: empty profile name", s)
		}
		return Spec{Kind: Kind(kind), Name: arg}, nil
	}
	return Spec{}, fmt.Errorf("unknown reader %q (want oracle, scripted:PROFILE, sim:PROFILE or llm[:MODEL])", s)
}

// MarshalText writes the name (String), so a Spec field encodes as the
// reader name rows carry; the zero Spec (no reader) writes "". Any other
// spec that would not read back as itself (no kind, or a name ParseSpec
// changes) is an error: nothing is written that UnmarshalText refuses.
func (s Spec) MarshalText() ([]byte, error) {
	if s == (Spec{}) {
		return nil, nil
	}
	if back, err := ParseSpec(s.String()); err != nil || back != s {
		return nil, fmt.Errorf("reader spec %+v is not in the grammar KIND[:NAME]", s)
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads a name as ParseSpec does, "" as the zero Spec; a
// name outside the grammar is an error.
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

// Simulated reports whether the spec names a scripted or sim reader.
func (s Spec) Simulated() bool { return s.Kind == KindScripted || s.Kind == KindSim }

// Calibrated reports whether the spec names a calibrated simulated reader:
// a fitted profile (FitPrefix) or one loaded from a calibration file
// (a sim name starting with "@").
func (s Spec) Calibrated() bool {
	return s.Kind == KindSim && (strings.HasPrefix(s.Name, FitPrefix) || strings.HasPrefix(s.Name, "@"))
}

// FitPrefix starts the name of a calibrated profile: "fit-" + the family
// in lower case, e.g. "fit-qwen3-8b".
const FitPrefix = "fit-"

// Family is an answer family: the readers whose answers pair with one
// another in the statistics, named by the spec of the reader that stands
// for them (usually the reader itself; a strict-wording copy of
// sim:careful answers as sim:careful). Rows are compared within a family,
// never across. Pooled stands for every family at once, the zero Family
// for none; no other Family has an empty Kind.
type Family Spec

// Pooled is the family of comparisons pooled over every family in the rows
// (the paper pools over its five answer-LLM families). It names no reader:
// no row carries it.
var Pooled = Family{Name: "pooled"}

// String writes the family as its spec (Spec.String), "pooled" for Pooled
// and "" for the zero Family.
func (f Family) String() string { return Spec(f).String() }

// Simulated reports whether the family is a scripted or sim reader's.
func (f Family) Simulated() bool { return Spec(f).Simulated() }

// Calibrated reports whether the family is a calibrated simulated
// reader's (Spec.Calibrated).
func (f Family) Calibrated() bool { return Spec(f).Calibrated() }

// Compare orders families as their text (String) sorts: -1, 0 or +1.
func (f Family) Compare(g Family) int {
	if f.Kind != "" && g.Kind != "" {
		// No kind's text is a prefix of another's, so kind then name is
		// the text's order, without building it.
		return cmp.Or(strings.Compare(string(f.Kind), string(g.Kind)), strings.Compare(f.Name, g.Name))
	}
	return strings.Compare(f.String(), g.String())
}

// MarshalText writes String: a reader spec (Spec.MarshalText, "" for the
// zero Family) or "pooled".
func (f Family) MarshalText() ([]byte, error) {
	if f == Pooled {
		return []byte(f.String()), nil
	}
	b, err := Spec(f).MarshalText()
	if err != nil {
		return nil, fmt.Errorf("family: %w", err)
	}
	return b, nil
}

// UnmarshalText reads what MarshalText writes; any other text is an error.
func (f *Family) UnmarshalText(b []byte) error {
	if string(b) == Pooled.Name {
		*f = Pooled
		return nil
	}
	var sp Spec
	if err := sp.UnmarshalText(b); err != nil {
		return fmt.Errorf("family: %w", err)
	}
	*f = Family(sp)
	return nil
}
