package eval

import (
	"fmt"

	"github.com/esrkit/esrkit/esr/memory"
)

// unnamedAdapter is the adapter that building m would start when it is
// not one of opt.Adapters ("" when m may be built here).
func (opt RunCompareOptions) unnamedAdapter(m memory.Spec) memory.Class {
	c, ok := m.Adapter()
	if !ok {
		return ""
	}
	for _, named := range opt.Adapters {
		if memory.SameAdapter(c, named) {
			return ""
		}
	}
	return c
}

// adapterNote says why a memory of the rows is not built here.
func adapterNote(what string, c memory.Class) string {
	return fmt.Sprintf("%s: %s is named only in the rows, and an adapter runs only when whoever runs the comparison names it (esr compare --adapters %s)", what, c, c)
}
