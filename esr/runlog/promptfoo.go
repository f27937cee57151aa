package runlog

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/esrkit/esrkit/internal/regfile"
)

// `promptfoo eval -o FILE.json` writes {evalId, results: {version,
// timestamp, prompts, results, stats}, config, metadata}: one entry of
// results.results per test case, prompt and provider, with testIdx,
// promptIdx, provider {id, label}, prompt {raw, label}, vars, response
// {output}, success, score, namedScores, gradingResult {pass, score,
// reason, componentResults: one per assertion, each {pass, score, reason,
// assertion {type, metric, value}}}, error and failureReason (2: the test
// errored).

type pfResult struct {
	TestIdx       *int                       `json:"testIdx"`
	PromptIdx     int                        `json:"promptIdx"`
	Provider      json.RawMessage            `json:"provider"`
	Prompt        pfPrompt                   `json:"prompt"`
	Vars          json.RawMessage            `json:"vars"`
	TestCase      pfTestCase                 `json:"testCase"`
	Response      *pfResponse                `json:"response"`
	Success       *bool                      `json:"success"`
	Score         *float64                   `json:"score"`
	NamedScores   map[string]json.RawMessage `json:"namedScores"`
	GradingResult *pfGrading                 `json:"gradingResult"`
	Error         *string                    `json:"error"`
	FailureReason int                        `json:"failureReason"`
}

type pfPrompt struct {
	Raw   string `json:"raw"`
	Label string `json:"label"`
}

type pfTestCase struct {
	Description string          `json:"description"`
	Vars        json.RawMessage `json:"vars"`
}

type pfResponse struct {
	Output json.RawMessage `json:"output"`
}

type pfGrading struct {
	Pass             *bool    `json:"pass"`
	Score            *float64 `json:"score"`
	Reason           string   `json:"reason"`
	ComponentResults []struct {
		Pass      *bool    `json:"pass"`
		Score     *float64 `json:"score"`
		Reason    string   `json:"reason"`
		Assertion *struct {
			Type   string          `json:"type"`
			Metric string          `json:"metric"`
			Value  json.RawMessage `json:"value"`
		} `json:"assertion"`
	} `json:"componentResults"`
}

// pfErrored is promptfoo's ResultFailureReason.ERROR.
const pfErrored = 2

func readPromptfoo(l *Log, opt ReadOptions) error {
	b, err := regfile.ReadFile(l.Path, maxLog)
	if err != nil {
		return err
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(cleanNonFinite(b), &doc); err != nil {
		return fmt.Errorf("%s: not a promptfoo output: %v", l.Path, err)
	}
	raw, where := doc["results"], l.Path+": results"
	var inner struct {
		Results *[]json.RawMessage `json:"results"`
	}
	var items []json.RawMessage
	switch {
	case raw == nil:
		return fmt.Errorf("%s: field results is missing: not a promptfoo output (promptfoo eval -o FILE.json)", l.Path)
	case json.Unmarshal(raw, &items) == nil:
	case json.Unmarshal(raw, &inner) == nil && inner.Results != nil:
		items, where = *inner.Results, where+".results"
	default:
		return fmt.Errorf("%s: field results holds neither a list of results nor {results: [...]}", l.Path)
	}
	if len(items) == 0 {
		return fmt.Errorf("%s: %s is empty: the file holds no per-test result (written before its results were loaded?); write it with promptfoo eval -o FILE.json", l.Path, where)
	}
	results := make([]pfResult, len(items))
	prompts := map[string]bool{}
	for i, it := range items {
		if err := json.Unmarshal(it, &results[i]); err != nil {
			return fmt.Errorf("%s[%d]: not a promptfoo result: %v", where, i, err)
		}
		prompts[results[i].Prompt.Label+"\x00"+results[i].Prompt.Raw] = true
	}
	left := map[string]int{}
	repeats := map[string]int{}
	for i := range results {
		repeats[pfCell(&results[i], i)]++
	}
	epochs := false
	for _, n := range repeats {
		epochs = epochs || n > 1
	}
	if epochs {
		left["results of a test case that recurs (promptfoo --repeat), each repeat an epoch in file order: %d"]++
	}
	seen := map[string]int{}
	for i := range results {
		r := &results[i]
		at := fmt.Sprintf("%s[%d]", where, i)
		idx := i
		if r.TestIdx != nil {
			idx = *r.TestIdx
		} else {
			left["results without testIdx, whose position in the file is their test: %d"]++
		}
		model := pfProvider(r.Provider)
		if model == "" {
			return fmt.Errorf("%s: field provider is missing", at)
		}
		if len(prompts) > 1 {
			p := r.Prompt.Label
			if p == "" {
				p = "prompt " + strconv.Itoa(r.PromptIdx)
			}
			model += " · " + p
		}
		cell := pfCell(r, i)
		seen[cell]++
		epoch := 0
		if epochs {
			epoch = seen[cell]
		}
		group, err := groupOf(items[i], opt, at)
		if err != nil {
			return err
		}
		vars := r.Vars
		if len(vars) == 0 {
			vars = r.TestCase.Vars
		}
		base := Score{Sample: "test " + strconv.Itoa(idx), Epoch: epoch, Group: group, Model: model,
			Key: hashOf(canonical(vars)), Input: r.Prompt.Raw}
		if r.Response != nil {
			base.Answer = text(r.Response.Output)
		}
		errored := r.FailureReason == pfErrored || r.Error != nil && r.GradingResult == nil
		if errored {
			left["results that errored (failureReason 2), without a score, left out: %d"]++
			if r.Error != nil {
				base.Explanation = *r.Error
			}
		} else if r.GradingResult != nil {
			base.Explanation = r.GradingResult.Reason
		}
		add := func(scorer string, v float64, ok bool, target string) {
			s := base
			s.Scorer, s.Value, s.Target, s.At = scorer, v, target, at
			if !ok || errored {
				s.Value = nan
			}
			l.Scores = append(l.Scores, s)
		}
		success := r.Success
		if success == nil && r.GradingResult != nil {
			success = r.GradingResult.Pass
		}
		pass, passOK := 0.0, success != nil
		if passOK && *success {
			pass = 1
		}
		add("pass", pass, passOK, "")
		score, scoreOK := 0.0, r.Score != nil
		if scoreOK {
			score = *r.Score
		}
		add("score", score, scoreOK, "")
		for _, name := range sortedKeys(r.NamedScores) {
			v, ok := scalar(r.NamedScores[name])
			add("metric "+name, v, ok, "")
		}
		if r.GradingResult == nil {
			continue
		}
		names := map[string]int{}
		for _, c := range r.GradingResult.ComponentResults {
			if c.Assertion == nil {
				continue // an assert-set's own result: its assertions follow
			}
			name := "assert " + c.Assertion.Type
			if c.Assertion.Metric != "" {
				name += " (" + c.Assertion.Metric + ")"
			}
			names[name]++
			if names[name] > 1 {
				name += " #" + strconv.Itoa(names[name])
			}
			v, ok := 0.0, c.Pass != nil
			if ok && *c.Pass {
				v = 1
			}
			add(name, v, ok, text(c.Assertion.Value))
		}
	}
	l.Notes = append(l.Notes, noteCounts(left)...)
	return nil
}

// pfCell names a result's test, prompt and provider (i: its position, for
// a result without testIdx).
func pfCell(r *pfResult, i int) string {
	idx := i
	if r.TestIdx != nil {
		idx = *r.TestIdx
	}
	return strconv.Itoa(idx) + "\x00" + strconv.Itoa(r.PromptIdx) + "\x00" + pfProvider(r.Provider)
}

// pfProvider is a result's provider: its label, else its id (a string
// provider as it is).
func pfProvider(raw json.RawMessage) string {
	var p struct {
		ID    string `json:"id"`
		Label string `json:"label"`
	}
	if json.Unmarshal(raw, &p) == nil {
		if p.Label != "" {
			return p.Label
		}
		return p.ID
	}
	return text(raw)
}

// canonical is a JSON value with its objects' keys sorted.
func canonical(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
