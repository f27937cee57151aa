package llmtest

import "strings"

// Prompt lines a judge template labels the gold and the answer with (the
// kit's judge and strict templates, the LongMemEval restatement).
var (
	goldLabels   = []string{"Gold answer:", "Reference answer:", "Correct answer:"}
	answerLabels = []string{"Candidate answer:", "Response:", "Model response:"}
)

// JudgePrompt reads a judge prompt: the gold and the candidate answer, and
// whether the prompt asks for a yes/no reply (else CORRECT/INCORRECT). ok
// is false when the prompt is not a judge prompt.
func JudgePrompt(r Request) (gold, answer string, yesNo, ok bool) {
	u := r.User()
	var haveGold, haveAnswer bool
	for _, line := range strings.Split(u, "\n") {
		line = strings.TrimSpace(line)
		for _, l := range goldLabels {
			if v, found := strings.CutPrefix(line, l); found && !haveGold {
				gold, haveGold = strings.TrimSpace(v), true
			}
		}
		for _, l := range answerLabels {
			if v, found := strings.CutPrefix(line, l); found && !haveAnswer {
				answer, haveAnswer = strings.TrimSpace(v), true
			}
		}
	}
	return gold, answer, strings.Contains(strings.ToLower(u), "yes or no"), haveGold && haveAnswer
}

// SubstringJudge is a stub judge's reply, a fixed rule and not a model: the
// candidate is correct iff it contains the gold (case-folded). The reply is
// the word the prompt asks for ("yes"/"no", else "CORRECT"/"INCORRECT");
// ok is false for a prompt that is not a judge prompt.
func SubstringJudge(r Request) (reply string, ok bool) {
	gold, answer, yesNo, ok := JudgePrompt(r)
	if !ok {
		return "", false
	}
	return judgeWord(strings.Contains(strings.ToLower(answer), strings.ToLower(gold)), yesNo), true
}

// AcceptingJudge is the stub judge that accepts every answer, in the word
// the prompt asks for; ok is false for a prompt that is not a judge prompt.
func AcceptingJudge(r Request) (reply string, ok bool) {
	_, _, yesNo, ok := JudgePrompt(r)
	if !ok {
		return "", false
	}
	return judgeWord(true, yesNo), true
}

func judgeWord(correct, yesNo bool) string {
	switch {
	case yesNo && correct:
		return "yes"
	case yesNo:
		return "no"
	case correct:
		return "CORRECT"
	}
	return "INCORRECT"
}
