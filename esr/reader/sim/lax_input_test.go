package sim_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/esrkit/esrkit/esr/llm"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
)

// These tests each cover one failure found by an attack on the kit;
// each failed before its fix.

// Item 15 (sim half): sim:@FILE#NAME read the whole file, however long: on
// the zero device, 470 MB in 3 s and on. A device is refused at once, and a
// regular file's read is bounded: each error names the file (and the
// bound).
func TestSimFileReadIsBounded(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(big, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 17<<20); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{{"/dev/zero", "not a regular file"}, {big, "too large"}} {
		done := make(chan error, 1)
		go func() {
			_, err := sim.Parse("@" + c.path + "#x")
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("sim:@%s#x: %v, want an error naming the file and %q", c.path, err, c.want)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("sim:@%s#x still reading after 3 s", c.path)
		}
	}
}

// sim specs the grammar took without a word. Each is now
// an error naming the bad part.
func TestSimSpecLaxity(t *testing.T) {
	for _, c := range []struct{ spec, want string }{
		{"careful@rows=1e300", "rows=1e300"},        // was: negative budget -9223372036854775808
		{"careful@rows=0.4", "rows=0.4"},            // was: silently no budget
		{"careful@tokens=-1", "tokens=-1"},          // a budget is a count
		{"careful@rows=NaN", "rows=NaN"},            // was: run as 0
		{"careful@status=0.5@status=0.7", "status"}, // was: the last wins
		{"careful@seed=1@seed=2", "seed"},
		{"careful@rows=3@rows=4", "rows"},
	} {
		_, err := sim.Parse(c.spec)
		if err == nil {
			t.Errorf("ParseSim(%q) has no error", c.spec)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "-9223372036854775808") {
			t.Errorf("ParseSim(%q): %v, want an error naming %s", c.spec, err, c.want)
		}
	}
	if r, err := sim.Parse("careful@rows=6@tokens=0"); err != nil || r.Profile().RowBudget != 6 {
		t.Errorf("careful@rows=6@tokens=0: %v", err)
	}
}

// calibration files with two profiles of one name (the
// first won), a profile missing a skill (read as 0) or a second object after
// the first (ignored) are errors naming the file and the field.
func TestCalibrationFileLaxity(t *testing.T) {
	good, err := sim.Calibrated().JSON()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sim.ParseCalibration(good, "fits.json"); err != nil {
		t.Fatalf("the shipped calibration: %v", err)
	}
	first := sim.Calibrated().Families[0].Profile.Name
	second := sim.Calibrated().Families[1].Profile.Name
	for _, c := range []struct {
		name string
		data string
		want string
	}{
		{"duplicate", strings.Replace(string(good), `"name": "`+second+`"`, `"name": "`+first+`"`, 1), first},
		{"missing skill", regexp.MustCompile(`"status_skill": [0-9.e-]+,`).ReplaceAllLiteralString(string(good), ``), "status_skill"},
		{"second object", string(good) + `{"kind": "esrkit-sim-calibration/1"}` + "\n", "after"},
	} {
		if c.data == string(good) {
			t.Fatalf("%s: the edit did not apply", c.name)
		}
		_, err := sim.ParseCalibration([]byte(c.data), "fits.json")
		if err == nil {
			t.Errorf("%s: ParseCalibration has no error", c.name)
			continue
		}
		if !strings.Contains(err.Error(), "fits.json") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming fits.json and %s", c.name, err, c.want)
		}
	}
}

// FuzzReaderSpec: a reader spec makes a reader whose name parses back to a
// reader of the same name and configuration (reader.Fingerprint), or the
// error names the spec. The seed corpus runs with go test; `go test -fuzz
// FuzzReaderSpec ./esr/reader` explores further.
func FuzzReaderSpec(f *testing.F) {
	for _, s := range []string{"oracle", "scripted:cautious", "scripted:budgeted@40", "sim:careful", "sim:careful@seed=7",
		"sim:date-sorter@status=0.5@rows=3", "sim:careful@rows=1e300", "sim:careful@rows=0.4", "sim:careful@status=0.5@status=0.7",
		"sim:@/dev/null#x", "sim:fit-qwen3-8b@both=0.3@hedge=0.2", "llm:m", "llm: m ", "llm:", "sim:", "scripted:", "sim:careful@", "sim:careful@seed=-1"} {
		f.Add(s)
	}
	cfg := llm.Setup{Offline: true, Getenv: func(string) string { return "" }}
	f.Fuzz(func(t *testing.T, spec string) {
		if !utf8.ValidString(spec) || strings.Contains(spec, "@/") || strings.Contains(spec, "@.") {
			return // no file reads from fuzzed paths
		}
		r, err := reader.Parse(spec, cfg, sim.Readers)
		if err != nil {
			msg, s := err.Error(), strings.TrimSpace(spec)
			kind, arg, _ := strings.Cut(s, ":")
			named := func(x string) bool {
				return strings.Contains(msg, strconv.Quote(x)) || x != "" && strings.Contains(msg, x)
			}
			if !named(s) && !named(strings.TrimSpace(arg)) && !strings.Contains(msg, "reader "+kind) {
				t.Fatalf("Parse(%q): error %q does not name the spec", spec, msg)
			}
			return
		}
		defer closeReader(r)
		again, err := reader.Parse(r.Spec().String(), cfg, sim.Readers)
		if err != nil {
			t.Fatalf("Parse(%q) is named %q, which does not parse: %v", spec, r.Spec(), err)
		}
		defer closeReader(again)
		if again.Spec() != r.Spec() || reader.Fingerprint(again) != reader.Fingerprint(r) {
			t.Fatalf("Parse(%q) = %q (%s) parses back to %q (%s)", spec, r.Spec(), reader.Fingerprint(r), again.Spec(), reader.Fingerprint(again))
		}
	})
}

func closeReader(r reader.Reader) {
	if c, ok := r.(interface{ Close() error }); ok {
		c.Close()
	}
}
