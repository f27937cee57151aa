package bench_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
)

// writeBench writes a valid Figure 1 bench, then replaces one file's content.
func writeBench(t *testing.T, file, content string) string {
	t.Helper()
	dir := t.TempDir()
	if err := bench.Figure1Bench().Save(dir); err != nil {
		t.Fatal(err)
	}
	if file != "" {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const goodStream = `{"stream_id":"s1","events":[{"event_id":"e1","kind":"comment","timestamp":"2024-01-01","text":"a","actor":"x","role":"r"},{"event_id":"e2","kind":"comment","timestamp":"2024-01-02","text":"b","actor":"y","role":"r"}]}`

func atomLine(field, value string) string {
	fields := map[string]string{"atom_id": `"a1"`, "event_id": `"e1"`, "timestamp": `"2024-01-01"`,
		"entity": `"x"`, "attribute": `"y"`, "value": `"v"`, "polarity": `"+"`, "confidence": `1`}
	fields[field] = value
	var parts []string
	for _, k := range []string{"atom_id", "event_id", "timestamp", "entity", "attribute", "value", "polarity", "confidence"} {
		parts = append(parts, `"`+k+`":`+fields[k])
	}
	return `{"stream_id":"s1","atoms":[{` + strings.Join(parts, ",") + `}]}`
}

// Bad input is an error naming the file, the line and the field.
func TestValidationErrors(t *testing.T) {
	cases := []struct {
		name, streams, atoms, qa string
		want                     string
	}{
		{"malformed line", goodStream + "\n{not json\n", "", "", "streams.jsonl:2: malformed JSON"},
		{"bad timestamp", strings.Replace(goodStream, `"2024-01-02"`, `"next tuesday"`, 1), "", "",
			`streams.jsonl:1: field "events[1].timestamp": "next tuesday" is not an ISO 8601 timestamp`},
		{"duplicate event", strings.Replace(goodStream, `"e2"`, `"e1"`, 1), "", "",
			`streams.jsonl:1: field "events[1].event_id": duplicate event id "e1"`},
		{"duplicate stream", goodStream + "\n" + goodStream, "", "", `streams.jsonl:2: field "stream_id": duplicate stream id "s1"`},
		{"atom without event", goodStream, atomLine("event_id", `"e9"`), "",
			`atoms.jsonl:1: field "atoms[0].event_id": event "e9" is not in stream "s1"`},
		{"bad polarity", goodStream, atomLine("polarity", `"?"`), "",
			`atoms.jsonl:1: field "atoms[0].polarity": polarity "?" is not "+" or "-"`},
		{"duplicate atom", goodStream, strings.Replace(atomLine("", ""), `}]}`, `},{"atom_id":"a1","event_id":"e2","entity":"x","attribute":"y","value":"w","polarity":"+"}]}`, 1), "",
			`atoms.jsonl:1: field "atoms[1].atom_id": duplicate atom id "a1"`},
		{"confidence not a number", goodStream, atomLine("confidence", `"high"`), "",
			`atoms.jsonl:1: field "atoms[0].confidence": string is not a float64`},
		{"unknown stream in QA", goodStream, atomLine("", ""), `{"qid":"q1","stream_id":"s9","question":"?","gold_answer":"v","phenomenon":"monotonic"}`,
			`qa.jsonl:1: field "stream_id": stream "s9" is not in the streams file`},
		{"bad phenomenon", goodStream, atomLine("", ""), `{"qid":"q1","stream_id":"s1","question":"?","gold_answer":"v","phenomenon":"flipflop"}`,
			`qa.jsonl:1: field "phenomenon": "flipflop" is not one of`},
		{"gold event missing", goodStream, atomLine("", ""), `{"qid":"q1","stream_id":"s1","question":"?","gold_answer":"v","phenomenon":"monotonic","gold_supporting_event_ids":["e7"]}`,
			`qa.jsonl:1: field "gold_supporting_event_ids": event "e7" is not in stream "s1"`},
		{"bad query type", goodStream, atomLine("", ""), `{"qid":"q1","stream_id":"s1","question":"?","gold_answer":"v","phenomenon":"monotonic","query_type":"history"}`,
			`qa.jsonl:1: field "query_type":`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			atoms := c.atoms
			if atoms == "" {
				atoms = atomLine("", "")
			}
			os.WriteFile(filepath.Join(dir, bench.StreamsFile), []byte(c.streams), 0o644)
			os.WriteFile(filepath.Join(dir, bench.AtomsFile), []byte(atoms), 0o644)
			if c.qa != "" {
				os.WriteFile(filepath.Join(dir, bench.QAFile), []byte(c.qa), 0o644)
			}
			_, err := bench.Load(dir)
			if err == nil {
				t.Fatalf("no error, want %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q\nwant it to contain %q", err, c.want)
			}
			var le *bench.LineError
			if strings.Contains(c.want, ".jsonl:") && !errors.As(err, &le) {
				t.Errorf("error is not a *LineError: %T", err)
			}
		})
	}
}

func TestRelationsFile(t *testing.T) {
	dir := writeBench(t, bench.RelationsFile, `{"stream_id":"figure1","a":"a1","b":"a2","relation":"SUPERSEDES"}
{"stream_id":"figure1","a":"a2","b":"a3","relation":"SUPERSEDES"}
{"stream_id":"figure1","a":"a1","b":"a3","relation":"SAME_STATE"}
`)
	b, err := bench.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(b.Relations["figure1"]); got != 3 {
		t.Fatalf("%d relations, want 3", got)
	}
	// A cycle of deprecation edges is bad input.
	dir = writeBench(t, bench.RelationsFile, `{"stream_id":"figure1","a":"a1","b":"a2","relation":"SUPERSEDES"}
{"stream_id":"figure1","a":"a2","b":"a1","relation":"SUPERSEDES"}
`)
	if _, err := bench.Load(dir); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("cycle not reported: %v", err)
	}
	dir = writeBench(t, bench.RelationsFile, `{"stream_id":"figure1","a":"a1","b":"a2","relation":"OVERRIDES"}`)
	if _, err := bench.Load(dir); err == nil || !strings.Contains(err.Error(), `relations.jsonl:1: field "relation"`) {
		t.Errorf("bad relation label: %v", err)
	}
}

// Saving and loading is the identity on the bytes (deterministic output).
func TestSaveIsDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if err := bench.Figure1Bench().Save(a); err != nil {
		t.Fatal(err)
	}
	loaded, err := bench.Load(a)
	if err != nil {
		t.Fatal(err)
	}
	if err := loaded.Save(b); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{bench.StreamsFile, bench.AtomsFile, bench.QAFile} {
		x, _ := os.ReadFile(filepath.Join(a, f))
		y, _ := os.ReadFile(filepath.Join(b, f))
		if string(x) != string(y) {
			t.Errorf("%s differs after a round trip:\n%s\n%s", f, x, y)
		}
	}
}

// FuzzLoad: arbitrary bytes in any of the three files never panic the
// reader; they load or give an error.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(goodStream), []byte(atomLine("", "")), []byte(`{"qid":"q","stream_id":"s1","question":"?","gold_answer":"v","phenomenon":"monotonic"}`))
	f.Add([]byte("{}"), []byte("[]"), []byte("\n\n"))
	f.Fuzz(func(t *testing.T, streams, atoms, qa []byte) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, bench.StreamsFile), streams, 0o644)
		os.WriteFile(filepath.Join(dir, bench.AtomsFile), atoms, 0o644)
		os.WriteFile(filepath.Join(dir, bench.QAFile), qa, 0o644)
		b, err := bench.Load(dir)
		if err == nil && b == nil {
			t.Fatal("nil bench without error")
		}
	})
}
