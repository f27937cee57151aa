package main

import (
	"github.com/esrkit/esrkit/esr/judge"
)

// parseJudge picks the judge by name: exact, llm or llm:MODEL.
func parseJudge(name, cacheDir string, concurrency int) (judge.Judge, error) {
	return judge.Parse(name, judge.Config{CacheDir: cacheDir, Concurrency: concurrency})
}
