package esr

// AbstainText is how an abstention is written in gold answers and outputs.
const AbstainText = "ABSTAIN"

// Answer is a memory's or reader's answer: a value or an abstention.
type Answer struct {
	Value   string `json:"value"`
	Abstain bool   `json:"abstain"`
}

// Abstain is the abstaining answer.
var Abstain = Answer{Value: AbstainText, Abstain: true}

// Says is the answer with value v.
func Says(v string) Answer { return Answer{Value: v} }

func (a Answer) String() string {
	if a.Abstain {
		return AbstainText
	}
	return a.Value
}
