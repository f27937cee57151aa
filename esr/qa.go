package esr

import "fmt"

// QueryType is the kind of question (spec §4).
type QueryType string

const (
	// Snapshot asks for the value currently in force, or ABSTAIN.
	Snapshot QueryType = "snapshot"
	// Provenance asks for the value in force immediately before the current one.
	Provenance QueryType = "provenance"
	// RelationType asks whether the last change refined or replaced the prior value.
	RelationType QueryType = "relation-type"
)

// QueryTypes lists the query types in the order tables show them.
var QueryTypes = []QueryType{Snapshot, Provenance, RelationType}

// ParseQueryType reads a query type name.
func ParseQueryType(s string) (QueryType, error) {
	for _, q := range QueryTypes {
		if string(q) == s {
			return q, nil
		}
	}
	return "", fmt.Errorf("%q is not a query type (want snapshot, provenance or relation-type)", s)
}

// Answers to relation-type questions.
const (
	AnswerRefines  = "refines"
	AnswerReplaces = "replaces"
)

// Phenomenon is a QA's stratum label.
type Phenomenon string

const (
	Monotonic           Phenomenon = "monotonic"
	Refinement          Phenomenon = "refines"
	RevertedRevert      Phenomenon = "reverted_revert"
	CrossSourceConflict Phenomenon = "cross_source_conflict"
)

// Phenomena lists the strata in the paper's table order.
var Phenomena = []Phenomenon{RevertedRevert, Monotonic, CrossSourceConflict, Refinement}

// ValidPhenomenon reports whether p is one of Phenomena.
func ValidPhenomenon(p Phenomenon) bool {
	for _, q := range Phenomena {
		if p == q {
			return true
		}
	}
	return false
}

// QA is one benchmark question (spec §8) with this project's additions:
// QueryType (default snapshot), Source, and optionally the Entity/Attribute
// key the question is about (when absent, the key is located from the
// question's words, never from the gold fields; see QA.Locate).
type QA struct {
	QID                    string     `json:"qid"`
	StreamID               string     `json:"stream_id"`
	Question               string     `json:"question"`
	GoldAnswer             string     `json:"gold_answer"`
	GoldSupportingEventIDs []string   `json:"gold_supporting_event_ids"`
	GoldDeprecatedEventIDs []string   `json:"gold_deprecated_event_ids"`
	Phenomenon             Phenomenon `json:"phenomenon"`
	Confidence             float64    `json:"confidence,omitempty"`
	Rationale              string     `json:"rationale,omitempty"`
	QueryType              QueryType  `json:"query_type,omitempty"`
	Source                 string     `json:"source,omitempty"`
	Entity                 string     `json:"entity,omitempty"`
	Attribute              string     `json:"attribute,omitempty"`
	Aliases                []string   `json:"aliases,omitempty"`
	// Facet, when not empty, is the facet "NAME=VALUE" the question asks
	// about ("the version in experimental"); atoms of its key with that
	// facet hold the answer (see Atom.Facet).
	Facet string `json:"facet,omitempty"`
}

// Type is the QA's query type, snapshot when unset.
func (q *QA) Type() QueryType {
	if q.QueryType == "" {
		return Snapshot
	}
	return q.QueryType
}

// GoldAbstain reports whether the gold answer is an abstention.
func (q *QA) GoldAbstain() bool { return q.GoldAnswer == AbstainText }

// Query is what a memory is asked: the question, its type and the key it is
// about.
type Query struct {
	Type     QueryType
	Key      Key
	Question string
}
