package judge_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/esrkit/esrkit/esr/judge"
)

var offline = judge.Config{Offline: true, Getenv: func(string) string { return "" }}

// a judge option given twice (the last won) is an error
// naming it.
func TestJudgeOptionGivenTwice(t *testing.T) {
	for _, name := range []string{"llm:m@template=kit@template=strict", "llm:m@template=strict@template=strict"} {
		j, err := judge.Parse(name, offline)
		if err == nil {
			t.Errorf("Parse(%q) = %s, want an error", name, j.Name())
			continue
		}
		if !strings.Contains(err.Error(), "template") || !strings.Contains(err.Error(), "twice") {
			t.Errorf("Parse(%q): %v, want an error naming template given twice", name, err)
		}
	}
}

// FuzzJudgeName: a judge name makes a judge whose name parses back to a
// judge of the same name and configuration, or the error names the judge.
// The seed corpus runs with go test; `go test -fuzz FuzzJudgeName
// ./esr/judge` explores further.
func FuzzJudgeName(f *testing.F) {
	for _, s := range []string{"exact", "exact-lenient", "exact-strict", "llm:m", "llm:m@template=strict", "llm:m@template=kit",
		"llm:m@template=longmemeval", "llm:m@template=kit@template=strict", "llm:m@", "llm:@template=x", "llm", "exact@template=kit", " llm:m "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if !utf8.ValidString(name) {
			return
		}
		j, err := judge.Parse(name, offline)
		if err != nil {
			msg, s := err.Error(), strings.TrimSpace(name)
			if !strings.Contains(msg, strconv.Quote(s)) && !strings.Contains(msg, s) && !strings.HasPrefix(msg, "judge llm") {
				t.Fatalf("Parse(%q): error %q does not name the judge", name, msg)
			}
			return
		}
		defer judge.Close(j)
		again, err := judge.Parse(j.Name(), offline)
		if err != nil {
			t.Fatalf("Parse(%q) is named %q, which does not parse: %v", name, j.Name(), err)
		}
		defer judge.Close(again)
		if again.Name() != j.Name() || config(again) != config(j) {
			t.Fatalf("Parse(%q) = %q %s parses back to %q %s", name, j.Name(), config(j), again.Name(), config(again))
		}
	})
}

func config(j judge.Judge) string {
	if c, ok := j.(interface{ Config() any }); ok {
		return fmt.Sprintf("%+v", c.Config())
	}
	return ""
}
