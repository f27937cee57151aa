package memory

import (
	"fmt"
	"slices"
	"sync"

	"github.com/esrkit/esrkit/esr"
)

// BuildFunc builds a memory's state for one stream. A memory whose state
// depends on co-keyed relations must take them from opt.Relator (nil means
// the rule scorer, see Options): that is what lets RegisterRenderMatched
// switch its mechanism off while its layout stays the same.
type BuildFunc func(s *esr.Stream, atoms []esr.Atom, opt Options) State

var (
	registryMu sync.RWMutex
	registry   = map[Class]BuildFunc{}
)

// Register adds memory class c, so that Build, ParseNames, the evaluation
// engine and the CLI's library users can run it (and its render-matched
// control, c~render-only) beside the built-in classes. The class must be
// new and a bare class name: no parameters, no control suffix.
func Register(c Class, build BuildFunc) error {
	if c == "" || build == nil {
		return fmt.Errorf("memory: Register needs a class and a build function")
	}
	if sp, err := ParseSpec(string(c)); err != nil || sp != SpecOf(c) {
		return fmt.Errorf("memory: Register: %q is not a class name (NAME: no %s, no %s)", c, paramSep, ControlSuffix)
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if builtin(c) || registry[c] != nil {
		return fmt.Errorf("memory: class %q already exists", c)
	}
	registry[c] = build
	return nil
}

// RegisterRenderMatched is the render-matched control of a registered
// class (the paper's protocol, §4.1 and Appendix F): the same build
// function with the mechanism switched off (Options.MechanismOff: every
// co-keyed relation SAME_STATE, no supersedes, no contradicts, no
// unresolved status), so the layout and ids stay fixed and only the
// mechanism differs. A ledger built with esr.BuildLedger under the control's
// options says "neutral"; a memory that keeps its own status must read
// opt.MechanismOff. Every registered class has its control; this checks
// that c is registered and returns the control's spec, c~render-only.
func RegisterRenderMatched(c Class) (Spec, error) {
	if registered(c) == nil {
		return Spec{}, fmt.Errorf("memory: %q is not a registered class", c)
	}
	return SpecOf(c).RenderMatched(), nil
}

// Registered lists the registered (non-built-in) classes, sorted.
func registeredClasses() []Class {
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := make([]Class, 0, len(registry))
	for c := range registry {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// lookup is class c's builder: a built-in class's, else a registered
// class's, else nil.
func lookup(c Class) builder {
	if b := builtins[c]; b != nil {
		return b
	}
	if f := registered(c); f != nil {
		return f.build
	}
	return nil
}

// build is f as a builder. A registered class's state does not know its
// name, so its control is wrapped under the control's name.
func (f BuildFunc) build(sp Spec, name string, s *esr.Stream, atoms []esr.Atom, opt Options) (State, error) {
	st := f(s, atoms, opt)
	if sp.Control {
		return named{State: st, name: name}, nil
	}
	return st, nil
}

func registered(c Class) BuildFunc {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return registry[c]
}

// builtin reports whether c is a built-in class (the paper's nine or a
// deployed class) or an exec: adapter.
func builtin(c Class) bool {
	return c.IsExec() && len(c) > len(ExecPrefix) || builtins[c] != nil
}

// named is a registered class's state under its control's name: the
// NAME~render-only control reports its own name, so outcome rows and
// renders' owners say which arm they are.
type named struct {
	State
	name string
}

func (n named) Class() string { return n.name }

// Err is the wrapped state's error (exec: adapters).
func (n named) Err() error { return Err(n.State) }
