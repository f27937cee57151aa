package sim

import (
	"regexp"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/internal/benchtest"
)

// TestCueBeforeMatchesWholePrefix: cueBefore, which reads only the tail of
// the text before a mention, agrees with the cue pattern run over the whole
// prefix, at every word start of every event of the bundled Debian and
// synthetic benchmarks and on constructed edges (a cue word glued to the
// word before it, long white space, the long s (?i) folds to, a multi-byte
// rune where the window starts).
func TestCueBeforeMatchesWholePrefix(t *testing.T) {
	edges := []string{
		"", "was", " was ", "xwas", "x was\n\n\t  ", "changed from", "changed from\n", "instead of",
		"INSTEAD OF", "inſtead of", "no  longer", "no longer", "replaced", "-replaced", "_replaced", "now", "=", "a:",
		strings.Repeat("é", 40) + " was ", strings.Repeat("日本", 20) + "from", strings.Repeat(" ", 100) + "to" + strings.Repeat("\n", 50),
	}
	for _, e := range edges {
		if got, want := cueBefore(staleCue, e), staleCue.MatchString(e); got != want {
			t.Errorf("stale cue before %q: %v, pattern %v", e, got, want)
		}
		if got, want := cueBefore(newCue, e), newCue.MatchString(e); got != want {
			t.Errorf("new cue before %q: %v, pattern %v", e, got, want)
		}
	}
	checked, cued := 0, 0
	for _, name := range []string{"debian", "synthetic"} {
		b := benchtest.Data(t, name)
		for i, s := range b.Streams {
			if i%8 != 0 { // an eighth of the streams keeps the test short
				continue
			}
			for _, e := range s.Events {
				text := e.Text
				for at := 0; at < len(text); at++ {
					if at > 0 && !(text[at-1] == ' ' || text[at-1] == '\n') {
						continue
					}
					p := text[:at]
					for _, re := range []*regexp.Regexp{staleCue, newCue} {
						got, want := cueBefore(re, p), re.MatchString(p)
						if got != want {
							t.Fatalf("%s %s: cue before %q…%q: %v, pattern %v", s.ID, e.ID, p[:min(len(p), 40)], p[max(0, len(p)-40):], got, want)
						}
						if want {
							cued++
						}
					}
					checked++
				}
			}
		}
	}
	if checked < 40000 || cued < 100 {
		t.Fatalf("checked %d prefixes, %d cued: want at least 40000 and 100", checked, cued)
	}
	t.Logf("%d prefixes, %d with a cue", checked, cued)
}
