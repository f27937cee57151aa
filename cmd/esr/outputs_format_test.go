package main

import "testing"

// Each kind of file output knows its own format and nothing else.
func TestOutputFormatsRecogniseThemselves(t *testing.T) {
	cases := []struct {
		name string
		ours func([]byte) bool
		yes  []string
	}{
		{"requests", isRequests, []string{`{"custom_id":"esr1|ab|t|m","method":"POST"}` + "\n"}},
		{"atoms", isAtomRows, []string{`{"stream_id":"s1","n_atoms":0,"atoms":[]}` + "\n"}},
		{"calibration", isCalibrateOut, []string{"{\n  \"kind\": \"esrkit-sim-calibration/2\",\n", "{\n  \"kind\": \"esrkit-sim-sensitivity/1\",\n  \"params\": [",
			"{\n  \"kind\": \"esrkit-sim-grid/1\",\n  \"fits\": [", "{\n  \"kind\": \"esrkit-sim-validation/1\",\n  \"cells\": ["}},
		{"eval summary", isRunSummary, []string{"{\n  \"run\": \"eval\",\n"}},
	}
	foreign := []string{"my thesis\n", `{"qid":"q1"}` + "\n", `{"kind":"other"}`, "[1,2]", "\x1f\x8b\x08",
		"{\n \"cells\": [\n  {\n   \"cell_type\": \"markdown\",", "{\n  \"params\": [", "[\n  {\n    \"label\": \"x\"", `{"kind":"esrkit-sim-calibration"}`}
	for _, c := range cases {
		for _, y := range c.yes {
			if !c.ours([]byte(y)) {
				t.Errorf("%s: %q not recognised", c.name, y)
			}
		}
		for _, f := range foreign {
			if c.ours([]byte(f)) {
				t.Errorf("%s: foreign %q taken as ours", c.name, f)
			}
		}
	}
}
