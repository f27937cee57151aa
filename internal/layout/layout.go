// Package layout is the render layout in both directions, the vocabulary
// of package esr (esr/render.go) put to work: write.go holds what the memory
// classes (esr/memory) lay renders out with (Table, EventLines, JSONObject,
// Stamp, the id orders), and this file is the scripted readers' eyes
// (esr/reader): Parse reads a render's text line by line and recognises the
// layouts the classes print, without any access to the memory's state. Each
// line kind is recognised on its own, so truncated renders (a token budget)
// and mixed renders (the deployed variant: a structured render, then "raw
// events (newest first):" and the events) parse as far as they go.
// esr/reader's round-trip test renders every class in every format and
// parses it back here.
package layout

import (
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/esrkit/esrkit/esr"
)

// Record is one value the reader saw for a key.
type Record struct {
	Key     string // the key as the render labels it; "" for raw event text
	Value   string
	Time    esr.Time // the visible time (ledger time, valid_at, event date)
	HasTime bool
	// Status is the row's status cell (esr.StatusLive, StatusDeprecated,
	// StatusRefined, StatusUnrelated, StatusNeutral), or "" when the layout
	// has none.
	Status string
	// Live is what a status-reading reader learns: 1 in force (LIVE, or
	// invalid_at "present"), -1 closed (DEPRECATED, REFINED, UNRELATED, or a
	// dated invalid_at), 0 nothing.
	Live     int
	ClosedAt esr.Time // coarse invalid_at of a closed edge
	ID       string
	Pos      int // order of appearance in the text
	Raw      bool
	// Kind is the layout the record was read from (KindLedger, KindFacts,
	// ...): what the reader model's render features are measured from.
	Kind string
}

// Layout kinds of a Record: which writer's layout the line matched. The
// reader model (esr/reader, features.go) maps a kind to what the layout
// declares (row order, where dates stand, grouping); the parser only says
// what it saw.
const (
	KindLedger        = "ledger"         // ledger table: time | event | value | status
	KindLedgerVerbose = "ledger-verbose" // ledger rows as sentences ("On DATE, event E recorded ...")
	KindLedgerJSON    = "ledger-json"    // ledger rows as JSON objects
	KindLedgerMinimal = "ledger-minimal" // ledger rows as value | status
	KindFacts         = "facts"          // GraphRAG-style flat fact table (id|entity|attribute|value[|time])
	KindGrouped       = "grouped"        // graphrag-lite: a table per key under a heading
	KindGraphiti      = "graphiti"       // Graphiti-style JSON facts with valid_at / invalid_at
	KindMem0          = "mem0"           // Mem0 search results, one JSON memory per line
	KindLatest        = "latest"         // latest-only: one line per key
	KindEvent         = "raw-event"      // a value found in a raw event line
)

// EventLine is one "[id date] text" line of raw event text.
type EventLine struct {
	ID      string
	Time    esr.Time
	HasTime bool
	Text    string
	Pos     int
}

// View is what the reader made of a render.
type View struct {
	Records   []Record
	KeyStatus map[string]string // ledger "status:" header per key label
	Events    []EventLine       // raw event lines (direct-context, rag-topk, deployed)
	Layouts   []string          // layouts recognised, in order of first sight
}

// The line patterns, built from the render vocabulary (quote makes a word
// a literal).
var (
	quote = regexp.QuoteMeta
	// stampRE is a rendered time: esr.DateLayout, optionally with the
	// minutes of MinuteLayout.
	stampRE      = `[0-9]{4}-[0-9]{2}-[0-9]{2}(?: [0-9]{2}:[0-9]{2})?`
	eventLineRE  = regexp.MustCompile(`^` + quote(EventOpen) + `(\S+) (` + stampRE + `|` + quote(esr.UnknownTime) + `)` + quote(EventClose) + ` ?(.*)$`)
	latestLineRE = regexp.MustCompile(`^(.+?)` + quote(esr.KeySep) + `(.+?)` + quote(LatestSep) + `(.*)` + quote(LatestAsOf) + `([^()]*)` + quote(LatestEnd) + `$`)
	keyLineRE    = regexp.MustCompile(`^` + quote(LedgerKeyLabel) + `(.+?)\s+` + quote(LedgerStatusLabel) + `(\S+)\s*$`)
	// verboseRowRE is a ledger row in the "verbose" format.
	verboseRowRE = regexp.MustCompile(`^` + quote(VerboseOn) + `(\S+(?: [0-9]{2}:[0-9]{2})?)` + quote(VerboseEvent) + `(\S+)` +
		quote(VerboseValue) + `(.*)` + quote(VerboseStatus) + `(\S+)` + quote(VerboseEnd) + `$`)
	// jsonRowPrefix opens a ledger row in the "json" format.
	jsonRowPrefix = `{"` + ColTime + `":`
	// The fact table's header rows, dateless and dated (compacted).
	factHeader      = strings.Join([]string{ColID, ColEntity, ColAttribute, ColValue}, CellSep)
	datedFactHeader = factHeader + CellSep + ColTime
	// paddedSep joins the cells of a value the table split (a value that
	// holds the separator).
	paddedSep = " " + CellSep + " "
)

// Parse reads text into a view. question is used only to split
// Graphiti-style facts ("ENTITY ATTRIBUTE is VALUE") into key and value.
func Parse(text string) *View {
	v := &View{KeyStatus: map[string]string{}}
	seen := map[string]bool{}
	saw := func(layout string) {
		if !seen[layout] {
			seen[layout] = true
			v.Layouts = append(v.Layouts, layout)
		}
	}
	const (
		none = iota
		ledgerTable
		factTable
		groupTable
		minimalTable
	)
	mode := none
	factTime := false // the fact table has a time column (dated graphrag-abstain)
	curKey := ""
	pos := 0
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimRight(line, " \r")
		trim := strings.TrimSpace(t)
		if trim == "" {
			if mode == ledgerTable || mode == minimalTable {
				mode = none
			}
			continue
		}
		pos++
		if trim == DeployedMarker {
			mode = none
			continue
		}
		if m := eventLineRE.FindStringSubmatch(trim); m != nil {
			saw("events")
			ev := EventLine{ID: m[1], Text: m[3], Pos: pos}
			ev.Time, ev.HasTime = ParseStamp(m[2])
			v.Events = append(v.Events, ev)
			continue
		}
		if m := keyLineRE.FindStringSubmatch(trim); m != nil {
			saw("ledger")
			curKey = m[1]
			v.KeyStatus[curKey] = m[2]
			mode = none
			continue
		}
		if IsLedgerHeader(trim) {
			mode = ledgerTable
			continue
		}
		if c := SplitCells(trim, CellSep); curKey != "" && len(c) == 2 && c[0] == ColValue && c[1] == ColStatus {
			mode = minimalTable
			continue
		}
		if curKey != "" {
			if m := verboseRowRE.FindStringSubmatch(trim); m != nil {
				r := Record{Key: curKey, ID: m[2], Value: m[3], Status: m[4], Pos: pos, Kind: KindLedgerVerbose}
				r.Time, r.HasTime = ParseStamp(m[1])
				r.Live = StatusLive(r.Status)
				v.Records = append(v.Records, r)
				continue
			}
			if strings.HasPrefix(trim, jsonRowPrefix) {
				if jr, ok := JSONStrings(trim, ColTime, ColEvent, ColValue, ColStatus); ok {
					r := Record{Key: curKey, ID: jr[1], Value: jr[2], Status: jr[3], Pos: pos, Kind: KindLedgerJSON}
					r.Time, r.HasTime = ParseStamp(jr[0])
					r.Live = StatusLive(r.Status)
					v.Records = append(v.Records, r)
					continue
				}
			}
		}
		if strings.HasPrefix(trim, LedgerEventsLabel) {
			mode = none
			continue
		}
		if trim == FactsHeading {
			saw("facts")
			continue
		}
		if dated := compactEquals(trim, datedFactHeader); dated || compactEquals(trim, factHeader) {
			saw("facts")
			mode, factTime = factTable, dated
			continue
		}
		if strings.HasPrefix(trim, GroupHeading) {
			saw("grouped")
			curKey = strings.TrimSpace(trim[len(GroupHeading):])
			mode = groupTable
			continue
		}
		if parseDeployedLine(v, trim, pos, saw) {
			continue
		}
		if f, ok := ParseFactLine(trim); ok {
			saw("graphiti")
			r := Record{Key: f.Key, Value: f.Value, ID: "", Pos: pos, Kind: KindGraphiti}
			r.Time, r.HasTime = ParseStamp(f.ValidAt)
			if strings.EqualFold(strings.TrimSpace(f.InvalidAt), OpenPresent) { // either spelling (GraphitiPresent)
				r.Live = 1
			} else if at, ok := ParseStamp(f.InvalidAt); ok {
				r.Live, r.ClosedAt = -1, at
			}
			v.Records = append(v.Records, r)
			continue
		}
		switch mode {
		case ledgerTable:
			cells := SplitCells(trim, CellSep)
			if len(cells) >= 4 {
				r := Record{Key: curKey, ID: cells[1], Value: strings.Join(cells[2:len(cells)-1], paddedSep),
					Status: cells[len(cells)-1], Pos: pos, Kind: KindLedger}
				r.Time, r.HasTime = ParseStamp(cells[0])
				r.Live = StatusLive(r.Status)
				v.Records = append(v.Records, r)
			}
			continue
		case minimalTable:
			cells := SplitCells(trim, CellSep)
			if len(cells) >= 2 {
				r := Record{Key: curKey, Value: strings.Join(cells[:len(cells)-1], paddedSep), Status: cells[len(cells)-1], Pos: pos, Kind: KindLedgerMinimal}
				r.Live = StatusLive(r.Status)
				v.Records = append(v.Records, r)
			}
			continue
		case factTable:
			parts := strings.SplitN(trim, CellSep, 4)
			if len(parts) == 4 {
				r := Record{Key: strings.TrimSpace(parts[1]) + esr.KeySep + strings.TrimSpace(parts[2]),
					ID: strings.TrimSpace(parts[0]), Value: strings.TrimSpace(parts[3]), Pos: pos, Kind: KindFacts}
				if factTime {
					if cut := strings.LastIndex(parts[3], CellSep); cut >= 0 {
						r.Value = strings.TrimSpace(parts[3][:cut])
						r.Time, r.HasTime = ParseStamp(parts[3][cut+len(CellSep):])
					}
				}
				v.Records = append(v.Records, r)
			}
			continue
		case groupTable:
			if strings.HasPrefix(trim, CellSep) {
				cells := SplitCells(strings.Trim(trim, CellSep), CellSep)
				if len(cells) >= 2 && !(cells[0] == ColID && cells[1] == ColValue) && strings.Trim(cells[0], "-: ") != "" {
					v.Records = append(v.Records, Record{Key: curKey, ID: cells[0],
						Value: strings.Join(cells[1:], paddedSep), Pos: pos, Kind: KindGrouped})
				}
				continue
			}
		}
		if m := latestLineRE.FindStringSubmatch(trim); m != nil {
			saw("latest")
			r := Record{Key: m[1] + esr.KeySep + m[2], Value: strings.TrimSpace(m[3]), Pos: pos, Kind: KindLatest}
			r.Time, r.HasTime = ParseStamp(m[4])
			v.Records = append(v.Records, r)
			continue
		}
	}
	return v
}

// compactEquals reports whether s with its white space (unicode.IsSpace)
// dropped equals want, without building that copy: it stops at the first rune that differs, so a long line (a
// Graphiti episode holds a whole changelog entry) costs a few bytes.
func compactEquals(s, want string) bool {
	j := 0
	for _, r := range s {
		if unicode.IsSpace(r) {
			continue
		}
		w, n := utf8.DecodeRuneInString(want[j:])
		if n == 0 || w != r {
			return false
		}
		j += n
	}
	return j == len(want)
}

func IsLedgerHeader(s string) bool {
	c := SplitCells(s, CellSep)
	return len(c) == 4 && c[0] == ColTime && c[1] == ColEvent && c[2] == ColValue && c[3] == ColStatus
}

// SplitCells splits a table row on sep and trims each cell.
func SplitCells(s, sep string) []string {
	parts := strings.Split(s, sep)
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// StatusLive is what a status cell says: 1 in force, -1 closed, 0 nothing
// (StatusNeutral, or no status word).
func StatusLive(s string) int {
	switch strings.ToUpper(s) {
	case esr.StatusLive:
		return 1
	case esr.StatusDeprecated, esr.StatusRefined, esr.StatusUnrelated, esr.StatusSetAside:
		return -1
	}
	return 0
}

// ParseStamp reads a rendered time ("2024-03-01", "2024-03-01 15:04", or a
// deployed system's timestamp).
func ParseStamp(s string) (esr.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" || s == esr.UnknownTime || s == OpenPresent {
		return esr.Time{}, false
	}
	if t, err := time.Parse(MinuteLayout, s); err == nil {
		return esr.Time{Time: t.UTC()}, true
	}
	if t, ok := parseDeployedStamp(s); ok {
		return t, true
	}
	t, err := esr.ParseTime(s)
	if err != nil {
		return esr.Time{}, false
	}
	return t, true
}

// FactLine is one Graphiti-style FactLine line.
type FactLine struct {
	Fact, ValidAt, InvalidAt string
	Key, Value               string
}

// ParseFactLine reads one line of a Graphiti-style JSON fact list
// ("[{...},", " {...},", " {...}]") and splits its fact at its first verb
// phrase (SplitFact) into key ("ENTITY ATTRIBUTE") and value.
func ParseFactLine(s string) (FactLine, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "[")
	s = strings.TrimSuffix(s, "]")
	s = strings.TrimSuffix(strings.TrimSpace(s), ",")
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") || !strings.Contains(s, member(JSONFact)) {
		return FactLine{}, false
	}
	v, ok := JSONStrings(s, JSONFact, JSONValidAt, JSONInvalidAt)
	if !ok {
		return FactLine{}, false
	}
	f := FactLine{Fact: v[0], ValidAt: v[1], InvalidAt: v[2]}
	if f.Key, f.Value, ok = SplitFact(f.Fact); !ok {
		return FactLine{}, false
	}
	return f, true
}

// TruncateTokens keeps the longest prefix of whole lines whose CountTokens
// is at most budget: what a reader that reads only budget tokens sees.
func TruncateTokens(text string, budget int) string {
	if budget <= 0 {
		return text
	}
	tokens := 0
	end := 0
	for end < len(text) {
		nl := strings.IndexByte(text[end:], '\n')
		lineEnd := len(text)
		if nl >= 0 {
			lineEnd = end + nl + 1
		}
		t := CountTokens(text[end:lineEnd])
		if tokens+t > budget {
			break
		}
		tokens += t
		end = lineEnd
	}
	return text[:end]
}
