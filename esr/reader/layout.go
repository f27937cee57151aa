package reader

import (
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/esrkit/esrkit/esr"
)

// This file is the scripted reader's eyes: it reads a render's text line by
// line and recognises the layouts the memory classes print (esr/memory),
// without any access to the memory's state. Each line kind is recognised on
// its own, so truncated renders (a token budget) and mixed renders (the
// deployed variant: a structured render, then "raw events (newest first):"
// and the events) parse as far as they go. Every word and marker it looks
// for is the render vocabulary of package esr (esr/render.go), the one the
// writers use.

// record is one value the reader saw for a key.
type record struct {
	key     string // the key as the render labels it; "" for raw event text
	value   string
	time    esr.Time // the visible time (ledger time, valid_at, event date)
	hasTime bool
	// status is the row's status cell (esr.StatusLive, StatusDeprecated,
	// StatusRefined, StatusUnrelated, StatusNeutral), or "" when the layout
	// has none.
	status string
	// live is what a status-reading reader learns: 1 in force (LIVE, or
	// invalid_at "present"), -1 closed (DEPRECATED, REFINED, UNRELATED, or a
	// dated invalid_at), 0 nothing.
	live     int
	closedAt esr.Time // coarse invalid_at of a closed edge
	id       string
	pos      int // order of appearance in the text
	raw      bool
}

// eventLine is one "[id date] text" line of raw event text.
type eventLine struct {
	id      string
	time    esr.Time
	hasTime bool
	text    string
	pos     int
}

// view is what the reader made of a render.
type view struct {
	records   []record
	keyStatus map[string]string // ledger "status:" header per key label
	events    []eventLine       // raw event lines (direct-context, rag-topk, deployed)
	layouts   []string          // layouts recognised, in order of first sight
}

// The line patterns, built from the render vocabulary (quote makes a word
// a literal).
var (
	quote = regexp.QuoteMeta
	// stampRE is a rendered time: esr.DateLayout, optionally with the
	// minutes of esr.MinuteLayout.
	stampRE      = `[0-9]{4}-[0-9]{2}-[0-9]{2}(?: [0-9]{2}:[0-9]{2})?`
	eventLineRE  = regexp.MustCompile(`^` + quote(esr.EventOpen) + `(\S+) (` + stampRE + `|` + quote(esr.UnknownTime) + `)` + quote(esr.EventClose) + ` ?(.*)$`)
	latestLineRE = regexp.MustCompile(`^(.+?)` + quote(esr.KeySep) + `(.+?)` + quote(esr.LatestSep) + `(.*)` + quote(esr.LatestAsOf) + `([^()]*)` + quote(esr.LatestEnd) + `$`)
	keyLineRE    = regexp.MustCompile(`^` + quote(esr.LedgerKeyLabel) + `(.+?)\s+` + quote(esr.LedgerStatusLabel) + `(\S+)\s*$`)
	// verboseRowRE is a ledger row in the "verbose" format.
	verboseRowRE = regexp.MustCompile(`^` + quote(esr.VerboseOn) + `(\S+(?: [0-9]{2}:[0-9]{2})?)` + quote(esr.VerboseEvent) + `(\S+)` +
		quote(esr.VerboseValue) + `(.*)` + quote(esr.VerboseStatus) + `(\S+)` + quote(esr.VerboseEnd) + `$`)
	// jsonRowPrefix opens a ledger row in the "json" format.
	jsonRowPrefix = `{"` + esr.ColTime + `":`
	// The fact table's header rows, dateless and dated (compacted).
	factHeader      = strings.Join([]string{esr.ColID, esr.ColEntity, esr.ColAttribute, esr.ColValue}, esr.CellSep)
	datedFactHeader = factHeader + esr.CellSep + esr.ColTime
	// paddedSep joins the cells of a value the table split (a value that
	// holds the separator).
	paddedSep = " " + esr.CellSep + " "
)

// parseRender reads text into a view. question is used only to split
// Graphiti-style facts ("ENTITY ATTRIBUTE is VALUE") into key and value.
func parseRender(text string) *view {
	v := &view{keyStatus: map[string]string{}}
	seen := map[string]bool{}
	saw := func(layout string) {
		if !seen[layout] {
			seen[layout] = true
			v.layouts = append(v.layouts, layout)
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
		if trim == esr.DeployedMarker {
			mode = none
			continue
		}
		if m := eventLineRE.FindStringSubmatch(trim); m != nil {
			saw("events")
			ev := eventLine{id: m[1], text: m[3], pos: pos}
			ev.time, ev.hasTime = parseStamp(m[2])
			v.events = append(v.events, ev)
			continue
		}
		if m := keyLineRE.FindStringSubmatch(trim); m != nil {
			saw("ledger")
			curKey = m[1]
			v.keyStatus[curKey] = m[2]
			mode = none
			continue
		}
		if isLedgerHeader(trim) {
			mode = ledgerTable
			continue
		}
		if c := splitCells(trim, esr.CellSep); curKey != "" && len(c) == 2 && c[0] == esr.ColValue && c[1] == esr.ColStatus {
			mode = minimalTable
			continue
		}
		if curKey != "" {
			if m := verboseRowRE.FindStringSubmatch(trim); m != nil {
				r := record{key: curKey, id: m[2], value: m[3], status: m[4], pos: pos}
				r.time, r.hasTime = parseStamp(m[1])
				r.live = statusLive(r.status)
				v.records = append(v.records, r)
				continue
			}
			if strings.HasPrefix(trim, jsonRowPrefix) {
				if jr, ok := jsonStrings(trim, esr.ColTime, esr.ColEvent, esr.ColValue, esr.ColStatus); ok {
					r := record{key: curKey, id: jr[1], value: jr[2], status: jr[3], pos: pos}
					r.time, r.hasTime = parseStamp(jr[0])
					r.live = statusLive(r.status)
					v.records = append(v.records, r)
					continue
				}
			}
		}
		if strings.HasPrefix(trim, esr.LedgerEventsLabel) {
			mode = none
			continue
		}
		if trim == esr.FactsHeading {
			saw("facts")
			continue
		}
		if h := compact(trim); h == factHeader || h == datedFactHeader {
			saw("facts")
			mode, factTime = factTable, h == datedFactHeader
			continue
		}
		if strings.HasPrefix(trim, esr.GroupHeading) {
			saw("grouped")
			curKey = strings.TrimSpace(trim[len(esr.GroupHeading):])
			mode = groupTable
			continue
		}
		if parseDeployedLine(v, trim, pos, saw) {
			continue
		}
		if f, ok := parseFactLine(trim); ok {
			saw("graphiti")
			r := record{key: f.key, value: f.value, id: "", pos: pos}
			r.time, r.hasTime = parseStamp(f.ValidAt)
			if strings.EqualFold(strings.TrimSpace(f.InvalidAt), esr.OpenPresent) { // either spelling (esr.GraphitiPresent)
				r.live = 1
			} else if at, ok := parseStamp(f.InvalidAt); ok {
				r.live, r.closedAt = -1, at
			}
			v.records = append(v.records, r)
			continue
		}
		switch mode {
		case ledgerTable:
			cells := splitCells(trim, esr.CellSep)
			if len(cells) >= 4 {
				r := record{key: curKey, id: cells[1], value: strings.Join(cells[2:len(cells)-1], paddedSep),
					status: cells[len(cells)-1], pos: pos}
				r.time, r.hasTime = parseStamp(cells[0])
				r.live = statusLive(r.status)
				v.records = append(v.records, r)
			}
			continue
		case minimalTable:
			cells := splitCells(trim, esr.CellSep)
			if len(cells) >= 2 {
				r := record{key: curKey, value: strings.Join(cells[:len(cells)-1], paddedSep), status: cells[len(cells)-1], pos: pos}
				r.live = statusLive(r.status)
				v.records = append(v.records, r)
			}
			continue
		case factTable:
			parts := strings.SplitN(trim, esr.CellSep, 4)
			if len(parts) == 4 {
				r := record{key: strings.TrimSpace(parts[1]) + esr.KeySep + strings.TrimSpace(parts[2]),
					id: strings.TrimSpace(parts[0]), value: strings.TrimSpace(parts[3]), pos: pos}
				if factTime {
					if cut := strings.LastIndex(parts[3], esr.CellSep); cut >= 0 {
						r.value = strings.TrimSpace(parts[3][:cut])
						r.time, r.hasTime = parseStamp(parts[3][cut+len(esr.CellSep):])
					}
				}
				v.records = append(v.records, r)
			}
			continue
		case groupTable:
			if strings.HasPrefix(trim, esr.CellSep) {
				cells := splitCells(strings.Trim(trim, esr.CellSep), esr.CellSep)
				if len(cells) >= 2 && !(cells[0] == esr.ColID && cells[1] == esr.ColValue) && strings.Trim(cells[0], "-: ") != "" {
					v.records = append(v.records, record{key: curKey, id: cells[0],
						value: strings.Join(cells[1:], paddedSep), pos: pos})
				}
				continue
			}
		}
		if m := latestLineRE.FindStringSubmatch(trim); m != nil {
			saw("latest")
			r := record{key: m[1] + esr.KeySep + m[2], value: strings.TrimSpace(m[3]), pos: pos}
			r.time, r.hasTime = parseStamp(m[4])
			v.records = append(v.records, r)
			continue
		}
	}
	return v
}

// compact drops white space.
func compact(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

func isLedgerHeader(s string) bool {
	c := splitCells(s, esr.CellSep)
	return len(c) == 4 && c[0] == esr.ColTime && c[1] == esr.ColEvent && c[2] == esr.ColValue && c[3] == esr.ColStatus
}

// splitCells splits a table row on sep and trims each cell.
func splitCells(s, sep string) []string {
	parts := strings.Split(s, sep)
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// statusLive is what a status cell says: 1 in force, -1 closed, 0 nothing
// (StatusNeutral, or no status word).
func statusLive(s string) int {
	switch strings.ToUpper(s) {
	case esr.StatusLive:
		return 1
	case esr.StatusDeprecated, esr.StatusRefined, esr.StatusUnrelated, esr.StatusSetAside:
		return -1
	}
	return 0
}

// parseStamp reads a rendered time ("2024-03-01", "2024-03-01 15:04", or a
// deployed system's timestamp).
func parseStamp(s string) (esr.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" || s == esr.UnknownTime || s == esr.OpenPresent {
		return esr.Time{}, false
	}
	if t, err := time.Parse(esr.MinuteLayout, s); err == nil {
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

// fact is one Graphiti-style fact line.
type fact struct {
	Fact, ValidAt, InvalidAt string
	key, value               string
}

// parseFactLine reads one line of a Graphiti-style JSON fact list
// ("[{...},", " {...},", " {...}]") and splits its fact at its first verb
// phrase (splitFact) into key ("ENTITY ATTRIBUTE") and value.
func parseFactLine(s string) (fact, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "[")
	s = strings.TrimSuffix(s, "]")
	s = strings.TrimSuffix(strings.TrimSpace(s), ",")
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") || !strings.Contains(s, member(esr.JSONFact)) {
		return fact{}, false
	}
	v, ok := jsonStrings(s, esr.JSONFact, esr.JSONValidAt, esr.JSONInvalidAt)
	if !ok {
		return fact{}, false
	}
	f := fact{Fact: v[0], ValidAt: v[1], InvalidAt: v[2]}
	if f.key, f.value, ok = splitFact(f.Fact); !ok {
		return fact{}, false
	}
	return f, true
}

// truncateTokens keeps the longest prefix of whole lines whose CountTokens
// is at most budget: what a reader that reads only budget tokens sees.
func truncateTokens(text string, budget int) string {
	if budget <= 0 {
		return text
	}
	words := 0
	end := 0
	for end < len(text) {
		nl := strings.IndexByte(text[end:], '\n')
		lineEnd := len(text)
		if nl >= 0 {
			lineEnd = end + nl + 1
		}
		w := len(strings.Fields(text[end:lineEnd]))
		if (words+w)*4+2 > budget*3+2 { // CountTokens(words+w) > budget
			break
		}
		words += w
		end = lineEnd
	}
	return text[:end]
}
