package reader

import (
	"fmt"
	"strings"
)

// Config carries what readers that call out need: where to cache responses
// and how many requests may run at once.
type Config struct {
	CacheDir    string
	Concurrency int
}

// Parse makes the reader named by spec: "oracle", "scripted:PROFILE" or
// "llm[:MODEL]".
func Parse(spec string, cfg Config) (Reader, error) {
	spec = strings.TrimSpace(spec)
	switch {
	case spec == "oracle":
		return Oracle{}, nil
	}
	return nil, fmt.Errorf("unknown reader %q (want oracle, scripted:PROFILE or llm[:MODEL])", spec)
}

// ParseList makes the readers of a comma-separated list of specs.
func ParseList(list string, cfg Config) ([]Reader, error) {
	var out []Reader
	for _, spec := range strings.Split(list, ",") {
		if strings.TrimSpace(spec) == "" {
			continue
		}
		r, err := Parse(spec, cfg)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no reader named")
	}
	return out, nil
}
