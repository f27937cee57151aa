//go:build esr_offline

package llm

// httpIncluded reports whether this program can send requests: false when
// it was built with the esr_offline tag.
const httpIncluded = false

// newTransport: a program built with esr_offline has none.
func newTransport(Config) (transport, error) { return nil, ErrNoHTTP }
