package esr

import (
	"fmt"
	"strings"
	"time"
)

// Time is a timestamp read from ISO 8601 text and always held in UTC. It
// accepts full RFC 3339 timestamps, timestamps without a zone (taken as UTC)
// and plain dates, because the released data mixes all three.
type Time struct{ time.Time }

var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05",
	"2006-01-02T15:04",
	"2006-01-02",
}

// ParseTime parses s as ISO 8601 (see Time).
func ParseTime(s string) (Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return Time{t.UTC()}, nil
		}
	}
	return Time{}, fmt.Errorf("%q is not an ISO 8601 timestamp", s)
}

// MustTime is ParseTime for literals in tests and examples; it panics on bad input.
func MustTime(s string) Time {
	t, err := ParseTime(s)
	if err != nil {
		panic("esr: " + err.Error())
	}
	return t
}

// Date formats t as YYYY-MM-DD, the form renders show.
func (t Time) Date() string {
	if t.IsZero() {
		return UnknownTime
	}
	return t.Format(dateLayout)
}

// String is RFC 3339 in UTC.
func (t Time) String() string { return t.Format(time.RFC3339) }

// MarshalJSON writes RFC 3339 (UTC), or null for the zero time.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return []byte(`"` + t.Format(time.RFC3339) + `"`), nil
}

// UnmarshalJSON reads a JSON string in any layout ParseTime accepts; null
// leaves the zero time.
func (t *Time) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		*t = Time{}
		return nil
	}
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return fmt.Errorf("%s is not a timestamp string", s)
	}
	v, err := ParseTime(s[1 : len(s)-1])
	if err != nil {
		return err
	}
	*t = v
	return nil
}
