package lab

import (
	"path/filepath"
	"strings"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// calibratedFamilies are the answer families notebooks use when no LLM
// endpoint is configured: one simulated reader per paper family
// (sim:fit-llama-3.1-8b, …), its skills fitted to the paper's published
// per-family numbers (Tables 16 and 17; sim.Calibrated). They are
// simulations calibrated to a few numbers, not the LLMs; every table they
// feed says so.
func calibratedFamilies() []string {
	var out []string
	for _, p := range sim.CalibratedProfiles() {
		out = append(out, "sim:"+p.Name)
	}
	return out
}

// scriptedFamilies are deterministic simulated answer families: scripted
// text readers with all-or-nothing reading capabilities (see `esr
// readers`). They show how a render can move a reader's answers; they are
// not LLM results. Run a notebook with them by passing
// nbhelp.ScriptedReaders() to nbhelp.RunWith.
var scriptedFamilies = []string{"scripted:status-reader", "scripted:time-sorter", "scripted:cautious", "scripted:budgeted", "scripted:majority"}

// simFamilies are the stochastic simulated answer families (`esr readers`
// lists them as sim:*): the scripted reader's rules with each capability a
// probability drawn per question, seeded per (seed, profile, question). Use
// them like scriptedFamilies (e.g. reader.ParseList(strings.Join(
// simFamilies, ","), llm.Setup{}, sim.Readers)); unlike the scripted families, their
// per-family intervals do not collapse to a point. They are not the
// notebooks' default readers.
var simFamilies = []string{"sim:careful", "sim:date-sorter", "sim:status-reader", "sim:skimmer", "sim:hedger"}

// DefaultReaders are the notebooks' answer families: every model of
// ESR_LLM_MODELS (one family each) when models are named, the calibrated
// simulated families otherwise (DefaultReaderSpec). LLM answers come from
// the cache under cacheDir/llm only (notebookOffline; filled by `esr run
// all`), unless ESR_LLM_ONLINE=1.
func DefaultReaders(cacheDir string) ([]reader.Reader, error) {
	return defaultReadersEnv(cacheDir, nil)
}

// Simulated reports whether any reader is a scripted or sim (simulated)
// one.
func Simulated(rs []reader.Reader) bool {
	for _, r := range rs {
		if r.Spec().Simulated() {
			return true
		}
	}
	return false
}

// Calibrated reports whether every reader is a calibrated simulated reader
// (sim:fit-*, or a profile loaded from a calibration file).
func Calibrated(rs []reader.Reader) bool {
	for _, r := range rs {
		if !r.Spec().Calibrated() {
			return false
		}
	}
	return len(rs) > 0
}

// asFamily is a reader answering under another reader's family, so its
// rows pair with that family's rows in paired comparisons.
type asFamily struct {
	reader.Reader
	family reader.Family
}

func (a asFamily) Family() reader.Family { return a.family }

// strictVariants returns the strict-decode variant of each reader that has
// one, answering under the original family: an LLM reader asks with the
// qa-strict template (abstain whenever the context marks the key
// unresolved); a scripted reader also reads the status column, a sim reader
// always does (row and key status skills 1, same draws otherwise; render
// difficulty still scales the row status, as it scales every reading). The oracle
// has none (it already reads the status) and is left out.
func strictVariants(rs []reader.Reader) []reader.Reader {
	var out []reader.Reader
	for _, r := range rs {
		if l, ok := r.(*reader.LLM); ok {
			if strict, err := l.WithTemplate(llm.TemplateQAStrict); err == nil {
				out = append(out, strict)
			}
			continue
		}
		if sm, ok := r.(*sim.Sim); ok {
			p := sm.Profile()
			p.StatusSkill = 1
			p.KeyStatusSkill = sim.Skill(1)
			if strict, err := sim.New(p, sm.Seed()); err == nil {
				out = append(out, asFamily{Reader: renameSim(strict, sm.Spec().Name+"+strict"), family: r.Family()})
			}
			continue
		}
		sc, ok := r.(*sim.Scripted)
		if !ok {
			continue
		}
		caps := sc.Capabilities()
		caps.UsesStatus = true
		strict, err := sim.NewScriptedWith(sc.Spec().Name+"+strict", caps)
		if err != nil {
			continue
		}
		out = append(out, asFamily{Reader: strict, family: r.Family()})
	}
	return out
}

// simRenamed is a sim reader under another spec (its draws do not depend on
// the name).
type simRenamed struct {
	*sim.Sim
	spec reader.Spec
}

func (s simRenamed) Spec() reader.Spec { return s.spec }

// DefaultReaderSpec is the reader list of the notebooks and `esr run`'s
// default: "llm" (every model of ESR_LLM_MODELS) when models are named or
// ESR_LLM_BASE_URL is set, else the calibrated simulated families
// (calibratedFamilies: one sim reader per paper family, fitted to the
// paper's Tables 16–17).
func DefaultReaderSpec(getenv func(string) string) string {
	g := llm.Getenv(getenv)
	if len(llm.SplitModels(g(llm.EnvModels))) > 0 || strings.TrimSpace(g(llm.EnvBaseURL)) != "" {
		return "llm"
	}
	return strings.Join(calibratedFamilies(), ",")
}

// notebookOffline reports whether notebooks read LLM answers from the
// cache only: always, unless ESR_LLM_ONLINE=1. A notebook cell that finds
// an answer missing then stops at once with an *llm.NotCachedError naming
// the command to run, instead of sending requests for hours under the
// runner's cell timeout.
func notebookOffline(getenv func(string) string) bool {
	return strings.TrimSpace(llm.Getenv(getenv)(llm.EnvOnline)) != "1"
}

// defaultReadersEnv is DefaultReaders with the environment given.
func defaultReadersEnv(cacheDir string, getenv func(string) string) ([]reader.Reader, error) {
	cfg := llm.Setup{CacheDir: filepath.Join(cacheDir, "llm"), Offline: notebookOffline(getenv), Getenv: getenv}
	return reader.ParseList(DefaultReaderSpec(getenv), cfg, sim.Readers)
}

// asFamilyOf returns r answering under family, so its rows pair with that
// family's rows in paired comparisons.
func asFamilyOf(r reader.Reader, family reader.Family) reader.Reader {
	return asFamily{Reader: r, family: family}
}

// renameSim returns the sim reader s under another profile name, as
// sim:NAME (its draws do not depend on the name).
func renameSim(s *sim.Sim, name string) reader.Reader {
	return simRenamed{s, reader.Spec{Kind: reader.KindSim, Name: name}}
}
