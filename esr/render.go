package esr

// The render vocabulary: the words, column names and markers the memory
// classes write into their renders (esr/memory) and the readers' parser
// (esr/reader) reads back. Each is declared here once, grouped by the render
// it belongs to; writers and the parser use these names, so a new status word
// or column is changed in one place. The round-trip test in esr/reader
// (render_roundtrip_test.go) renders every class and parses it back.
//
// The deployed-system renders (Graphiti, Mem0) reproduce the upstream
// systems' own JSON field names and markers; they are declared here too so
// that the reader recognises exactly what the writer prints.

// Times as the kit's own renders show them (the ledger table, the fact
// table, latest-only lines, event lines; Time.Date).
const (
	// DateLayout shows a time at midnight UTC: "2024-03-01".
	DateLayout = "2006-01-02"
	// MinuteLayout shows any other time to the minute, "2024-03-01 15:04",
	// so that same-day events keep a visible order.
	MinuteLayout = "2006-01-02 15:04"
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

// Column names. The ledger table (fine-ledger, render-only) heads its
// columns ColTime | ColEvent | ColValue | ColStatus; its "minimal" format
// ColValue | ColStatus; its "json" format uses the same names as object
// keys. graphrag-abstain's fact table is
// ColID|ColEntity|ColAttribute|ColValue|ColTime (the dateless variant drops
// ColTime); graphrag-lite's grouped tables are | ColID | ColValue |.
const (
	ColTime      = "time"
	ColEvent     = "event"
	ColValue     = "value"
	ColStatus    = "status"
	ColID        = "id"
	ColEntity    = "entity"
	ColAttribute = "attribute"
)

// Ledger layout (fine-ledger, render-only). Each key opens with the line
//
//	LedgerKeyLabel + key + "   " + LedgerStatusLabel + key status
//
// followed by its rows; the render ends with the event index, a line that
// starts with LedgerEventsLabel.
const (
	LedgerKeyLabel    = "key: "
	LedgerStatusLabel = "status: "
	LedgerEventsLabel = "events:"
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

// The ledger's "verbose" format writes each row as one sentence:
//
//	VerboseOn + time + VerboseEvent + event + VerboseValue + value + VerboseStatus + status + VerboseEnd
//
// e.g. "On 2024-03-01, event e3 recorded the value 30 s; status LIVE.".
const (
	VerboseOn     = "On "
	VerboseEvent  = ", event "
	VerboseValue  = " recorded the value "
	VerboseStatus = "; status "
	VerboseEnd    = "."
)

// Tables. CellSep separates the cells of every table layout: bare in
// graphrag-abstain's fact table, with a space either side in the ledger's
// padded table and graphrag-lite's markdown tables. The fact table opens
// with FactsHeading; graphrag-lite opens each key's table with GroupHeading
// + key label (a markdown heading).
const (
	CellSep      = "|"
	FactsHeading = "-----Facts-----"
	GroupHeading = "## "
)

// latest-only writes one line per key:
//
//	key label + LatestSep + value + LatestAsOf + time + LatestEnd
//
// e.g. "bug-123 / proposed_workaround: workaround X (as of 2024-03-01)".
const (
	LatestSep  = ": "
	LatestAsOf = " (as of "
	LatestEnd  = ")"
)

// Raw events (direct-context, rag-topk, and the deployed render's appended
// events) are lines EventOpen + id + " " + time + EventClose + " " + text,
// newest first. DeployedMarker is the line the deployed render puts between
// a class's own render and the raw events.
const (
	EventOpen      = "["
	EventClose     = "]"
	DeployedMarker = "raw events (newest first):"
)

// Graphiti-style facts. coarse-retain and coarse-discard list JSON objects
// {JSONFact, JSONValidAt, JSONInvalidAt} with the kit's dates and
// OpenPresent for a live fact; Graphiti's context string (graphiti,
// graphiti-current) uses the same keys with GraphitiTimeLayout and
// GraphitiPresent. Readers take either spelling of "present" as open.
const (
	JSONFact        = "fact"
	JSONValidAt     = "valid_at"
	JSONInvalidAt   = "invalid_at"
	OpenPresent     = "present"
	GraphitiPresent = "Present"
)

// Graphiti's context string (search_results_to_context_string in
// graphiti_core/search/search_helpers.py) puts its JSON lists between these
// tags; ENTITIES objects are {JSONEntityName, JSONSummary}, EPISODES objects
// {JSONSourceDescription, JSONContent} with the source description
// EpisodeSource + event id + " (" + event kind + ")". The kit builds no
// communities; readers still recognise their tags.
const (
	GraphitiFactsOpen        = "<FACTS>"
	GraphitiFactsClose       = "</FACTS>"
	GraphitiEntitiesOpen     = "<ENTITIES>"
	GraphitiEntitiesClose    = "</ENTITIES>"
	GraphitiEpisodesOpen     = "<EPISODES>"
	GraphitiEpisodesClose    = "</EPISODES>"
	GraphitiCommunitiesOpen  = "<COMMUNITIES>"
	GraphitiCommunitiesClose = "</COMMUNITIES>"

	JSONEntityName        = "entity_name"
	JSONSummary           = "summary"
	JSONSourceDescription = "source_description"
	JSONContent           = "content"
	EpisodeSource         = "event "
)

// Mem0's search result: Mem0Open, one memory object per line with the keys
// below, Mem0Close.
const (
	jsonResults   = "results"
	JSONID        = "id"
	JSONMemory    = "memory"
	JSONHash      = "hash"
	JSONMetadata  = "metadata"
	JSONCreatedAt = "created_at"
	JSONUpdatedAt = "updated_at"
	JSONUserID    = "user_id"

	Mem0Open  = `{"` + jsonResults + `": [`
	Mem0Close = "]}"
)

// Deployed systems' timestamps (UTC): Graphiti prints Python's
// str(datetime), "2024-03-01 00:00:00+00:00"; Mem0 isoformat(),
// "2024-03-01T00:00:00+00:00".
const (
	GraphitiTimeLayout = "2006-01-02 15:04:05-07:00"
	Mem0TimeLayout     = "2006-01-02T15:04:05-07:00"
)
