package main

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/judge"
)

// parseJudge picks the judge by name. (The llm judge arrives with the
// readers work; until then only exact is known.)
func parseJudge(name, cacheDir string, concurrency int) (judge.Judge, error) {
	switch name {
	case "exact":
		return judge.Exact{}, nil
	}
	return nil, fmt.Errorf("unknown judge %q (want exact or llm)", name)
}
