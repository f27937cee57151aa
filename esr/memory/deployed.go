package memory

import (
	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/internal/layout"
)

// deployed is a state whose render has the raw events appended: the
// "deployed render" of the paper's §4.3, where a system hands the reader its
// memory plus the retrieved raw text. The structured read-out is unchanged.
type deployed struct {
	State
	stream *esr.Stream
}

func (d deployed) Render(q esr.Query) string {
	return d.State.Render(q) + "\n" + layout.DeployedMarker + "\n" + layout.EventLines(d.stream.Events)
}
