package reader

import (
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
// notebooks and Reader.Name spell: ParseSpec reads it and String writes
// it.
type Spec struct {
	Kind Kind
	Name string
}

// String writes KIND or KIND:NAME (a spec with no Kind, of a reader whose
// name is not in the grammar, writes its Name).
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

// SpecOf is the spec of reader r (ParseSpec of its Name); a reader whose
// name is not in the grammar gets a spec with an empty Kind and its name.
func SpecOf(r Reader) Spec { return nameSpec(r.Name()) }

// MarshalText writes the name (String), so a Spec field encodes as the
// reader name rows carry.
func (s Spec) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a name as SpecOf does: a name not in the grammar
// keeps its text as Name.
func (s *Spec) UnmarshalText(b []byte) error {
	*s = nameSpec(string(b))
	return nil
}

// nameSpec is ParseSpec of a name that parses back to it, else a spec
// with no Kind holding the name as written.
func nameSpec(n string) Spec {
	sp, err := ParseSpec(n)
	if err != nil || sp.String() != n {
		return Spec{Name: n}
	}
	return sp
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
