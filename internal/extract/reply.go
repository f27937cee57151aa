package extract

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/esrkit/esrkit/esr"
)

// Candidate is one atom as the model wrote it, before the inventory check.
type Candidate struct {
	Entity     string
	Attribute  string
	Value      string
	Polarity   esr.Polarity
	Confidence float64
	Modality   string
}

var (
	thinkRE = regexp.MustCompile(`(?s)<think>.*?</think>`)
	fenceRE = regexp.MustCompile("(?s)```[a-zA-Z]*\\s*\\n?(.*?)```")
)

// ErrNoJSON is returned by ParseReply for a reply with no JSON in it.
var ErrNoJSON = errors.New("no JSON array or object in the reply")

// ParseReply reads a model's extraction reply: <think> blocks and prose
// around the JSON are ignored, code fences are looked into first, the first
// JSON array found is decoded (an object {"atoms": [...]} is unwrapped), and
// a single object is taken as a one-atom list. Fields: entity, attribute,
// value (a string, number, boolean, or a list joined with ", "), polarity
// ("+" / "-", also positive / negative, affirmed / negated, true / false;
// anything else or missing: "+"), confidence (a number or numeric string,
// clamped to [0, 1]; missing: 1), modality (optional: one of
// esr.Modalities, any case; another value is dropped, and the atom then
// reads as an assertion). Elements that are not objects are skipped.
func ParseReply(reply string) ([]Candidate, error) {
	s := thinkRE.ReplaceAllString(reply, " ")
	var texts []string
	for _, m := range fenceRE.FindAllStringSubmatch(s, -1) {
		texts = append(texts, m[1])
	}
	texts = append(texts, s)
	for _, t := range texts {
		if raw, ok := firstJSON(t, '['); ok {
			return candidates(raw), nil
		}
	}
	for _, t := range texts {
		if raw, ok := firstJSON(t, '{'); ok {
			var wrap map[string]json.RawMessage
			if json.Unmarshal(raw, &wrap) == nil {
				for _, k := range []string{"atoms", "results", "data"} {
					if inner, ok := wrap[k]; ok && len(bytes.TrimSpace(inner)) > 0 && bytes.TrimSpace(inner)[0] == '[' {
						return candidates(inner), nil
					}
				}
			}
			return candidates(append(append([]byte{'['}, raw...), ']')), nil
		}
	}
	return nil, ErrNoJSON
}

// firstJSON finds the first position holding open from which a complete
// JSON value decodes.
func firstJSON(s string, open byte) (json.RawMessage, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != open {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(s[i:]))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			continue
		}
		if open == '[' && !atomList(raw) {
			continue // "[1]" in prose is not the answer
		}
		return raw, true
	}
	return nil, false
}

// atomList reports an empty array or one holding at least one object.
func atomList(raw json.RawMessage) bool {
	var elems []json.RawMessage
	if json.Unmarshal(raw, &elems) != nil {
		return false
	}
	if len(elems) == 0 {
		return true
	}
	for _, e := range elems {
		if t := bytes.TrimSpace(e); len(t) > 0 && t[0] == '{' {
			return true
		}
	}
	return false
}

func candidates(raw json.RawMessage) []Candidate {
	var elems []json.RawMessage
	if json.Unmarshal(raw, &elems) != nil {
		return nil
	}
	out := []Candidate{}
	for _, e := range elems {
		var m map[string]json.RawMessage
		if json.Unmarshal(e, &m) != nil {
			continue
		}
		c := Candidate{Entity: str(m["entity"]), Attribute: str(m["attribute"]), Value: str(m["value"]),
			Polarity: polarity(m["polarity"]), Confidence: confidence(m["confidence"]), Modality: modality(m["modality"])}
		out = append(out, c)
	}
	return out
}

// modality reads a modality of the kit's vocabulary (esr.Modalities),
// case and surrounding space ignored, or "" for anything else: the loader
// refuses a value outside it, and the template does not ask for one.
func modality(raw json.RawMessage) string {
	m := strings.ToLower(strings.TrimSpace(str(raw)))
	if !esr.ValidModality(m) {
		return ""
	}
	return m
}

// str reads a JSON scalar or list as text.
func str(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		var parts []string
		for _, x := range list {
			if p := str(x); p != "" {
				parts = append(parts, p)
			}
		}
		return strings.Join(parts, ", ")
	}
	t := strings.TrimSpace(string(raw))
	if t == "null" || strings.HasPrefix(t, "{") {
		return ""
	}
	return t // numbers and booleans as written
}

func polarity(raw json.RawMessage) esr.Polarity {
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		if b {
			return esr.Positive
		}
		return esr.Negative
	}
	switch strings.ToLower(str(raw)) {
	case "-", "negative", "neg", "negated", "false", "no", "denied", "not":
		return esr.Negative
	}
	return esr.Positive
}

func confidence(raw json.RawMessage) float64 {
	s := str(raw)
	if s == "" {
		return 1
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil {
		return 1
	}
	if strings.HasSuffix(s, "%") || v > 1 && v <= 100 {
		v /= 100
	}
	switch {
	case v < 0:
		return 0
	case v > 1:
		return 1
	}
	return v
}
