package esr

import "sort"

// Event is one item of an evidence stream: an issue comment, a revision, a
// dated fact.
type Event struct {
	ID        string         `json:"event_id"`
	Kind      string         `json:"kind"`
	Timestamp Time           `json:"timestamp"`
	Text      string         `json:"text"`
	Actor     *string        `json:"actor"`
	Role      string         `json:"role"`
	Meta      map[string]any `json:"meta,omitempty"`
}

// ActorName is the event's actor, or "" when it has none.
func (e *Event) ActorName() string {
	if e.Actor == nil {
		return ""
	}
	return *e.Actor
}

// Stream is a time-ordered sequence of events about one subject, with the
// ESR-Bench header fields (spec §8). Fields the source does not have stay zero.
type Stream struct {
	ID            string   `json:"stream_id"`
	Repo          string   `json:"repo,omitempty"`
	IssueNumber   int      `json:"issue_number,omitempty"`
	Title         string   `json:"title,omitempty"`
	CurrentState  string   `json:"current_state,omitempty"`
	CurrentLabels []string `json:"current_labels,omitempty"`
	CreatedAt     Time     `json:"created_at"`
	ClosedAt      Time     `json:"closed_at"`
	NComments     int      `json:"n_comments,omitempty"`
	Source        string   `json:"source,omitempty"`
	Events        []Event  `json:"events"`

	// index maps an event id to its position; built by IndexEvents, read
	// only by Event, so a stream shared by goroutines is never written.
	index map[string]int
}

// SortEvents puts the events in time order, keeping the given order among
// events with equal timestamps (a stable sort), and rebuilds the id index.
func (s *Stream) SortEvents() {
	sort.SliceStable(s.Events, func(i, j int) bool {
		return s.Events[i].Timestamp.Before(s.Events[j].Timestamp.Time)
	})
	s.IndexEvents()
}

// IndexEvents builds the event-id index Event reads. Loaders call it once
// the events are in place and before the stream is shared: Event itself
// never writes (several memories render one stream at once), and without
// an index, or with one left stale by a later change to Events, it scans.
func (s *Stream) IndexEvents() {
	s.index = make(map[string]int, len(s.Events))
	for i := range s.Events {
		s.index[s.Events[i].ID] = i
	}
}

// Event returns the event with the given id, or nil. With ids repeated,
// it is the last event with the id.
func (s *Stream) Event(id string) *Event {
	if i := s.EventIndex(id); i >= 0 {
		return &s.Events[i]
	}
	return nil
}

// EventIndex returns the position of the event with the given id, or -1.
func (s *Stream) EventIndex(id string) int {
	if i, ok := s.index[id]; ok && i < len(s.Events) && s.Events[i].ID == id && len(s.index) == len(s.Events) {
		return i
	}
	for i := len(s.Events) - 1; i >= 0; i-- {
		if s.Events[i].ID == id {
			return i
		}
	}
	return -1
}
