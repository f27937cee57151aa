package layout

// The render vocabulary: the words, column names and markers the memory
// classes write into their renders (esr/memory) and the scripted readers'
// parser (this package) reads back. Each is declared here once, grouped by
// the render it belongs to; writers and the parser use these names, so a
// new column or marker is changed in one place. The model's own words that
// renders show (atom and key statuses, KeySep) are esr's (esr/render.go).
// TestRenderVocabularyDeclaredOnce checks that no writer or parser file
// spells a word of either itself; the round-trip test in esr/reader/sim
// (render_roundtrip_test.go) renders every class and parses it back.
//
// The deployed-system renders (Graphiti, Mem0) reproduce the upstream
// systems' own JSON field names and markers; they are declared here too so
// that the reader recognises exactly what the writer prints.

// MinuteLayout shows a time that is not midnight UTC to the minute,
// "2024-03-01 15:04", so that same-day events keep a visible order (Stamp;
// a midnight time shows as its date, esr.Time.Date).
const MinuteLayout = "2006-01-02 15:04"

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
