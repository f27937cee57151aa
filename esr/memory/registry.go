package memory

import (
	"fmt"
	"sort"
	"sync"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/relate"
)

// BuildFunc builds a memory's state for one stream. A memory whose state
// depends on co-keyed relations must take them from opt.Relator (nil means
// the rule scorer, see Options): that is what lets RegisterRenderMatched
// switch its mechanism off while its layout stays the same.
type BuildFunc func(s *esr.Stream, atoms []esr.Atom, opt Options) State

var (
	registryMu sync.RWMutex
	registry   = map[string]BuildFunc{}
)

// Register adds a memory class under name, so that Build, ParseNames, the
// evaluation engine and the CLI's library users can run it beside the
// built-in classes. The name must be new.
func Register(name string, build BuildFunc) error {
	if name == "" || build == nil {
		return fmt.Errorf("memory: Register needs a name and a build function")
	}
	if sp, err := ParseSpec(name); err != nil || sp.String() != name {
		return fmt.Errorf("memory: Register: %q is not a class name (NAME or NAME%s, no %s)", name, ControlSuffix, ParamSep)
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if builtin(name) || registry[name] != nil {
		return fmt.Errorf("memory: class %q already exists", name)
	}
	registry[name] = build
	return nil
}

// RegisterRenderMatched registers the render-matched control of a
// registered class (the paper's protocol, §4.1 and Appendix F): the same
// build function with the mechanism switched off (Options.MechanismOff:
// every co-keyed relation SAME_STATE, no supersedes, no contradicts, no
// unresolved status), so the layout and ids stay fixed and only the
// mechanism differs. A ledger built with esr.BuildLedger under the control's
// options says "neutral"; a memory that keeps its own status must read
// opt.MechanismOff. It returns the control's name, NAME~render-only.
func RegisterRenderMatched(name string) (string, error) {
	registryMu.RLock()
	build := registry[name]
	registryMu.RUnlock()
	if build == nil {
		return "", fmt.Errorf("memory: %q is not a registered class", name)
	}
	control := name + "~render-only"
	return control, Register(control, func(s *esr.Stream, atoms []esr.Atom, opt Options) State {
		opt.MechanismOff = true
		opt.Relator, opt.ForceStatus = relate.SameState{}, nil
		return build(s, atoms, opt)
	})
}

// Registered lists the registered (non-built-in) class names, sorted.
func Registered() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func registered(name string) BuildFunc {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return registry[name]
}

func builtin(n string) bool {
	sp, err := ParseSpec(n)
	if err != nil {
		return false
	}
	c := string(sp.Class)
	return !sp.Params.Kept.IsZero() && sp.Class == GraphRAGAbstain || sp.Class.IsExec() && len(c) > len(ExecPrefix) ||
		isDeployed(sp.Class) || builtinClass(sp.Class)
}
