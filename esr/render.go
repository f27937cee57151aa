package esr

// The model's words that renders show: an atom's status (AtomStatus's
// names and a ledger row's status cell), a key's status, a key's label
// (KeySep, a facet in brackets) and how a time shows as a date. The renders'
// layout words (column names, headings, markers, the deployed systems' JSON
// keys) are the layout's, declared once in internal/layout (vocab.go), which
// the writers (esr/memory) and the scripted readers' parser share;
// TestRenderVocabularyDeclaredOnce there checks that no writer or parser
// spells one of either file's words itself.

// Times as the kit's renders show a date (Time.Date).
const (
	// dateLayout shows a time as its date: "2024-03-01".
	dateLayout = "2006-01-02"
	// UnknownTime is shown for the zero time.
	UnknownTime = "unknown"
)

// KeySep joins a key's entity and attribute in a key label ("bug-123 /
// proposed_workaround"): Key.String, the ledger's key line, latest-only
// lines and the reader's labels for fact-table rows.
const KeySep = " / "

// facetOpen and facetClose bracket a faceted key's facet after its
// attribute in every render ("version [distribution=experimental]").
const (
	facetOpen  = " ["
	facetClose = "]"
)

// Key status words: the ledger key line's status (KeyLedger.StatusText) and
// every class's memory.Row.Status.
const (
	// KeyStatusOK: the key's live values agree.
	KeyStatusOK = "ok"
	// KeyStatusUnresolved: several different values are live.
	KeyStatusUnresolved = "unresolved"
	// StatusNeutral is the key status and every row's status cell with the
	// mechanism off (the render-matched control shows no status).
	StatusNeutral = "neutral"
)

// Row status words: the status cell of an atom's ledger row (StatusCell),
// also AtomStatus's names.
const (
	StatusLive       = "LIVE"
	StatusDeprecated = "DEPRECATED"
	StatusRefined    = "REFINED"
	// StatusUnrelated is the cell of a set-aside atom (UNRELATED to every
	// live atom when it arrived).
	StatusUnrelated = "UNRELATED"
	// StatusSetAside is AtomStatus.String of a set-aside atom; renders write
	// StatusUnrelated, readers take either as closed.
	StatusSetAside = "SET_ASIDE"
)

// StatusCell is the status cell a ledger row shows for an atom of status s
// (with the mechanism on; with it off every cell is StatusNeutral).
func StatusCell(s AtomStatus) string {
	switch s {
	case Live:
		return StatusLive
	case Deprecated:
		return StatusDeprecated
	case Refined:
		return StatusRefined
	}
	return StatusUnrelated
}
