package esr

import (
	"fmt"
	"strings"
)

// The vocabulary of an atom's modality (atoms.jsonl's `modality`, spec §8):
// how the atom's event states its value. It is declared here once; the
// loader refuses any other value (file:line:field), and memories and
// readers ask Atom.Asserts, never the string.
//
// The spec lists the field without values. The paper's reference pipeline
// (ESR-pipeline, atom_extract.py) writes "modality": "text" for every atom
// it extracts (its docstring calls the field source_modality): the value
// was read off the event's text, as the event states it. This kit's
// generator adds the speech act of a claim: "assert" for a value the event
// states, "hedge" for speculation about a value ("maybe 45 s?") and
// "recall" for a stale value mentioned again ("as noted earlier, 60 s");
// their gold relation to a different value is UNRELATED.
const (
	// ModalityText is the reference pipeline's value: an atom read off
	// its event's text. It asserts its value.
	ModalityText = "text"
	// ModalityAssert is a value its event states. It asserts its value.
	ModalityAssert = "assert"
	// ModalityHedge is speculation about a value: not an assertion.
	ModalityHedge = "hedge"
	// ModalityRecall is a stale value mentioned again: not an assertion
	// of it now.
	ModalityRecall = "recall"
)

// modalities lists the modality values in the order docs/data.md shows
// them; "" (the field absent) reads as an assertion, as in files written
// before the field existed.
var modalities = []string{ModalityText, ModalityAssert, ModalityHedge, ModalityRecall}

// modalityAsserts reports whether an atom of modality m asserts its value:
// "", "text" and "assert" do; "hedge" and "recall" do not. m must be valid
// (ValidModality).
func modalityAsserts(m string) bool {
	return m == "" || m == ModalityText || m == ModalityAssert
}

// ValidModality reports whether m is "" or one of modalities.
func ValidModality(m string) bool {
	if m == "" {
		return true
	}
	for _, v := range modalities {
		if m == v {
			return true
		}
	}
	return false
}

// CheckModality is nil for a valid modality, else an error naming the
// vocabulary.
func CheckModality(m string) error {
	if ValidModality(m) {
		return nil
	}
	return fmt.Errorf("%q is not a modality (want %s, or none)", m, strings.Join(modalities, ", "))
}

// Asserts reports whether the atom asserts its value (modalityAsserts of
// its modality): what every reader of the events' text and every memory
// that reads the value as stated takes from it.
func (a *Atom) Asserts() bool { return modalityAsserts(a.Modality) }
