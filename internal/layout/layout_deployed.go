package layout

import (
	"strings"
	"time"

	"github.com/esrkit/esrkit/esr"
)

// This file reads the renders of the deployed-system classes (esr/memory,
// graphiti.go and mem0.go) for the scripted readers:
//
//   - Graphiti's context string: its FACTS are JSON objects
//     {"fact", "valid_at", "invalid_at"} (the names are esr's render
//     vocabulary, JSONFact, ...) read by parseFactLine (valid_at and
//     invalid_at in Python's str(datetime) form, "2024-03-01
//     00:00:00+00:00", or "Present" for an open fact); ENTITIES lines carry
//     no values; EPISODES lines {"source_description", "content"} are raw
//     episode text with no date, read like raw event lines;
//   - Mem0's search result {"results": [...]}: one memory per line,
//     {"id", "memory", ..., "created_at", "updated_at"}; the memory text
//     "ENTITY ATTRIBUTE is VALUE" (or another wording, splitFact) gives key and value, updated_at (else
//     created_at) its visible time. Mem0 shows no status.

// deployedMarkers are structural lines of those renders.
var deployedMarkers = map[string]string{
	GraphitiFactsOpen: "graphiti", GraphitiFactsClose: "graphiti",
	GraphitiEntitiesOpen: "graphiti", GraphitiEntitiesClose: "graphiti",
	GraphitiEpisodesOpen: "graphiti", GraphitiEpisodesClose: "graphiti",
	GraphitiCommunitiesOpen: "graphiti", GraphitiCommunitiesClose: "graphiti",
	Mem0Open: "mem0", Mem0Close: "mem0",
}

// member is a JSON member name as it appears in a line ("memory" with its
// quotes), for a cheap test before decoding.
func member(name string) string { return `"` + name + `"` }

// parseDeployedLine reads one line of a deployed-system render into v and
// reports whether it was one.
func parseDeployedLine(v *View, trim string, pos int, saw func(string)) bool {
	if layout, ok := deployedMarkers[trim]; ok {
		saw(layout)
		return true
	}
	s := strings.TrimSuffix(strings.TrimSpace(trim), ",")
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return false
	}
	switch {
	case strings.Contains(s, member(JSONMemory)):
		m, ok := JSONStrings(s, JSONMemory, JSONCreatedAt, JSONUpdatedAt)
		if !ok {
			return false
		}
		key, value, ok := SplitFact(m[0])
		if !ok {
			return false
		}
		saw("mem0")
		r := Record{Key: key, Value: value, Pos: pos, Kind: KindMem0}
		if r.Time, r.HasTime = ParseStamp(m[2]); !r.HasTime {
			r.Time, r.HasTime = ParseStamp(m[1])
		}
		v.Records = append(v.Records, r)
		return true
	case strings.Contains(s, member(JSONSourceDescription)):
		e, ok := JSONStrings(s, JSONSourceDescription, JSONContent)
		if !ok {
			return false
		}
		saw("episodes")
		id := strings.TrimPrefix(e[0], EpisodeSource)
		if j := strings.IndexByte(id, ' '); j >= 0 {
			id = id[:j]
		}
		v.Events = append(v.Events, EventLine{ID: id, Text: e[1], Pos: pos})
		return true
	case strings.Contains(s, member(JSONEntityName)):
		saw("entities")
		return true
	}
	return false
}

// parseDeployedStamp reads the timestamps deployed systems print: Python's
// str(datetime) ("2024-03-01 00:00:00+00:00") and isoformat()
// ("2024-03-01T00:00:00+00:00").
func parseDeployedStamp(s string) (esr.Time, bool) {
	for _, layout := range []string{GraphitiTimeLayout, Mem0TimeLayout, time.RFC3339Nano} {
		if t, err := time.Parse(layout, s); err == nil {
			return esr.Time{Time: t.UTC()}, true
		}
	}
	return esr.Time{}, false
}
