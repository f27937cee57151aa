package sim

import (
	"strconv"

	"github.com/esrkit/esrkit/esr/reader"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/internal/layout"
)

// This file measures what the reader model (the sim: readers) responds to
// in a render: its layout's features, read off the text by the same parser
// the scripted readers use, never from the memory class's name. A class
// the kit has never seen (an exec: adapter, a registered class) gets the
// features of whatever layout it prints.

// RowOrder is the order a layout declares for a key's rows: a property of
// the layout (what its writer promises), never of one render whose rows
// happen to come out sorted.
type RowOrder string

// Row orders.
const (
	OrderNewestFirst   RowOrder = "newest-first"  // a ledger history: newest row on top
	OrderChronological RowOrder = "chronological" // oldest first (graphrag-lite's table, in transaction order)
	OrderUnordered     RowOrder = "unordered"     // a seeded shuffle, a fact list, retrieval order
	OrderSingle        RowOrder = "single"        // one row per key (latest-only)
	// OrderLog is raw event text: lines of a log, whose text order a reader
	// takes as a recency cue (undated lines: the last is the newest) and
	// reads as a history, not as sources in conflict.
	OrderLog RowOrder = "log"
)

// DatePlace is where a layout shows a row's date.
type DatePlace string

// Date placements.
const (
	DatesColumn DatePlace = "column" // a table column of their own (ledger, dated fact table)
	DatesInline DatePlace = "inline" // inside prose ("On 2024-03-01, event e3 recorded ...", "[e3 2024-03-01] ...", "(as of ...)")
	DatesMember DatePlace = "member" // a JSON member ("valid_at": "...", "time": "...")
	DatesAbsent DatePlace = "absent" // no date shown
)

// Grouping is how a layout gathers a key's rows.
type Grouping string

// Groupings.
const (
	GroupedBlock Grouping = "block" // one block per key under a header naming it once
	GroupedFlat  Grouping = "flat"  // flat rows, each repeating entity and attribute
	// GroupedLog is raw event text: each line on its own, the key's lines
	// mixed with others (what that costs is the distractor cost's).
	GroupedLog Grouping = "log"
)

// kindFeatures are what each layout kind declares (layout.Kind*).
var kindFeatures = map[string]struct {
	order RowOrder
	dates DatePlace
	group Grouping
	depth int // JSON nesting depth of a row: 0 plain text, 1 an object, 2 an object in a list, ...
}{
	layout.KindLedger:        {OrderNewestFirst, DatesColumn, GroupedBlock, 0},
	layout.KindLedgerVerbose: {OrderNewestFirst, DatesInline, GroupedBlock, 0},
	layout.KindLedgerJSON:    {OrderNewestFirst, DatesMember, GroupedBlock, 1},
	layout.KindLedgerMinimal: {OrderNewestFirst, DatesAbsent, GroupedBlock, 0},
	layout.KindFacts:         {OrderUnordered, DatesColumn, GroupedFlat, 0},
	layout.KindGrouped:       {OrderChronological, DatesAbsent, GroupedBlock, 0},
	layout.KindGraphiti:      {OrderUnordered, DatesMember, GroupedFlat, 2},
	layout.KindMem0:          {OrderUnordered, DatesMember, GroupedFlat, 3},
	layout.KindLatest:        {OrderSingle, DatesInline, GroupedFlat, 0},
	layout.KindEvent:         {OrderLog, DatesInline, GroupedLog, 0},
}

// declaresNewestFirst reports whether the layout kind (layout.Kind*)
// declares its rows newest first.
func declaresNewestFirst(kind string) bool { return kindFeatures[kind].order == OrderNewestFirst }

// RenderFeatures are the features of one render for one question: the
// asked key's block (the key a reader picks, as the scripted readers pick
// it) and the whole text's length.
type RenderFeatures struct {
	// Order is the declared order of the key's rows.
	Order RowOrder
	// Dates is where the key's rows show their dates (DatesAbsent when none
	// of them carries one).
	Dates DatePlace
	// Grouping is how the key's rows are gathered.
	Grouping Grouping
	// Depth is the JSON nesting depth of the key's rows.
	Depth int
	// Rows is the number of the key's rows: in raw event text, the lines
	// that state a value for the asked key (reader.Input.Stated).
	Rows int
	// Distractors is the number of rows in the render that are not the
	// key's: other keys' rows in a structured render, and in raw event
	// text every line that states nothing for the asked key (lines about
	// other keys and chatter alike: a reader reading by key skips them
	// all). They are what a reader must pass over to find the key's rows.
	Distractors int
	// Tokens is the whole render's length (reader.CountTokens): a reader reads all
	// of it, not only the key's block.
	Tokens int
	// Paraphrased is, in raw event text, the share of the key's lines that
	// name nothing the question names (no content word in common): a line
	// that states the value in other words ("+1, 15 s here as well"), which
	// a reader must connect to the question by meaning (0 in a structured
	// render, whose rows name their key).
	Paraphrased float64
	// RowStatus: some row of the key shows a status a reader can act on
	// (LIVE / DEPRECATED / REFINED / UNRELATED cells, a Graphiti invalid_at
	// of "present" or a date); "neutral" says nothing.
	RowStatus bool
	// KeyStatus: the key's header says "status: unresolved".
	KeyStatus bool
}

// Features measures a render's features for the question in.
func Features(in reader.Input) RenderFeatures { return featuresOf(in, parseRender(in.Context)) }

// featuresOf is Features of in with its context already parsed (pr, which
// it only reads).
func featuresOf(in reader.Input, pr *parsedRender) RenderFeatures {
	v := pr.view
	f := RenderFeatures{Tokens: pr.tokens, Dates: DatesAbsent}
	var recs []layout.Record
	if len(v.Records) > 0 {
		if k := pr.pickKey(in.Question); k.ok {
			recs = k.recs
			f.KeyStatus = v.KeyStatus[k.label] == esr.KeyStatusUnresolved
		}
	}
	if len(recs) == 0 {
		// Raw event text only, read by key: the lines that state a value
		// for the asked key are its rows, every other line a distractor.
		f.Order, f.Grouping = OrderLog, GroupedLog
		q := contentWords(in.Question)
		other := 0
		for _, e := range v.Events {
			if len(in.Stated[e.ID]) == 0 {
				f.Distractors++
				continue
			}
			f.Rows++
			if e.HasTime {
				f.Dates = DatesInline
			}
			if !sharesWord(e.Text, q) {
				other++
			}
		}
		if f.Rows > 0 {
			f.Paraphrased = float64(other) / float64(f.Rows)
		}
		return f
	}
	kf := kindFeatures[recs[0].Kind]
	f.Order, f.Grouping, f.Depth, f.Rows = kf.order, kf.group, kf.depth, len(recs)
	f.Distractors = len(v.Records) - len(recs)
	if len(recs) == 1 {
		f.Order = OrderSingle
	}
	for _, r := range recs {
		if r.HasTime {
			f.Dates = kindFeatures[r.Kind].dates
		}
		if r.Live != 0 {
			f.RowStatus = true
		}
	}
	return f
}

// sharesWord reports whether text has a word of q.
func sharesWord(text string, q map[string]bool) bool {
	for _, w := range words(text) {
		if q[w] {
			return true
		}
	}
	return false
}

// FeatureChange is one feature of a render that differs in another render
// of the same question: what a reader model responds to that moved.
type FeatureChange struct {
	Feature  string // "row order", "dates", "grouping", "rows", "other keys' rows", "nesting depth", "row status", "key status", "length (tokens)", "lines in other words"
	From, To string
}

// Changes lists the features that differ between f and g, in a fixed
// order: the layout's (order, dates, grouping, rows), then the status the
// render shows, then its length.
func (f RenderFeatures) Changes(g RenderFeatures) []FeatureChange {
	var out []FeatureChange
	add := func(name, a, b string) {
		if a != b {
			out = append(out, FeatureChange{name, a, b})
		}
	}
	shown := func(b bool) string {
		if b {
			return "shown"
		}
		return "none"
	}
	add("row order", string(f.Order), string(g.Order))
	add("dates", string(f.Dates), string(g.Dates))
	add("grouping", string(f.Grouping), string(g.Grouping))
	add("rows", strconv.Itoa(f.Rows), strconv.Itoa(g.Rows))
	add("other keys' rows", strconv.Itoa(f.Distractors), strconv.Itoa(g.Distractors))
	add("nesting depth", strconv.Itoa(f.Depth), strconv.Itoa(g.Depth))
	add("row status", shown(f.RowStatus), shown(g.RowStatus))
	add("key status", shown(f.KeyStatus), shown(g.KeyStatus))
	add("length (tokens)", strconv.Itoa(f.Tokens), strconv.Itoa(g.Tokens))
	add("lines in other words", strconv.FormatFloat(f.Paraphrased, 'f', 2, 64), strconv.FormatFloat(g.Paraphrased, 'f', 2, 64))
	return out
}
