package experiment

import (
	"strings"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/reader"
)

// ScriptedFamilies are the simulated answer families notebooks use when no
// LLM endpoint is configured: scripted text readers with different reading
// capabilities (see `esr readers`). Their numbers show how a render can
// move a reader's answers; they are not LLM results.
var ScriptedFamilies = []string{"scripted:status-reader", "scripted:time-sorter", "scripted:cautious", "scripted:budgeted", "scripted:majority"}

// DefaultReaders are the notebooks' answer families: every model of
// ESR_LLM_MODELS (one family each) when models are named, the scripted
// (simulated) families otherwise (DefaultReaderSpec). LLM answers come from
// the cache under cacheDir/llm only (NotebookOffline; filled by `esr run
// all`), unless ESR_LLM_ONLINE=1.
func DefaultReaders(cacheDir string) ([]reader.Reader, error) {
	return defaultReaders(cacheDir, nil)
}

// Simulated reports whether any reader is a scripted (simulated) one.
func Simulated(rs []reader.Reader) bool {
	for _, r := range rs {
		if strings.HasPrefix(r.Name(), "scripted:") {
			return true
		}
	}
	return false
}

// asFamily is a reader answering under another reader's family, so its
// rows pair with that family's rows in paired comparisons.
type asFamily struct {
	reader.Reader
	family string
}

func (a asFamily) Family() string { return a.family }

// StrictVariants returns the strict-decode variant of each reader that has
// one, answering under the original family: an LLM reader asks with the
// qa-strict template (abstain whenever the context marks the key
// unresolved); a scripted reader also reads the status column. The oracle
// has none (it already reads the status) and is left out.
func StrictVariants(rs []reader.Reader) []reader.Reader {
	var out []reader.Reader
	for _, r := range rs {
		if l, ok := r.(*reader.LLM); ok {
			if strict, err := l.WithTemplate(llm.TemplateQAStrict); err == nil {
				out = append(out, strict)
			}
			continue
		}
		sc, ok := r.(*reader.Scripted)
		if !ok {
			continue
		}
		caps := sc.Capabilities()
		caps.UsesStatus = true
		strict, err := reader.NewScriptedWith(strings.TrimPrefix(sc.Name(), "scripted:")+"+strict", caps)
		if err != nil {
			continue
		}
		out = append(out, asFamily{Reader: strict, family: r.Family()})
	}
	return out
}

func init() { StrictReaders = StrictVariants }
