//go:build esr_offline

package llm

const httpIncluded = false

// newTransport: a program built with esr_offline has none.
func newTransport(Config) (transport, error) { return nil, ErrNoHTTP }
