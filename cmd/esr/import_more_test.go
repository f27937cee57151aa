package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	_ "modernc.org/sqlite"
)

func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestImportVDyKnowFixture(t *testing.T) {
	src := t.TempDir()
	writeFile(t, filepath.Join(src, "LICENSE"), "MIT fixture\n")
	writeFile(t, filepath.Join(src, "wikidata_combined.json"), `{
 "athletes": {"Kim Player": {"Sports Team": {"answers": [
    "Club A |S: +2010-00-00T00:00:00Z |E: +2012-00-00T00:00:00Z",
    "Club B |S: +2012-00-00T00:00:00Z |E: +2015-06-30T00:00:00Z",
    "Club A |S: +2015-07-01T00:00:00Z |E: "],
    "text_only_questions": {"generic": "For which club does Kim Player currently play for?"}},
   "images": {"picture": "x.jpg"}}},
 "countries": {"Freedonia": {"President of Freedonia": {"answers": [
    "Ann |S: +2001-01-01T00:00:00Z |E: +2005-01-01T00:00:00Z", "Bob |S: +2005-01-01T00:00:00Z |E: "]}}}}`)
	out := t.TempDir()
	stdout, errOut, code := dataRun(t, "import", "vdyknow", "--src", src, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(stdout, `"slots_with_a_returning_value": 1`) {
		t.Errorf("report: %s", stdout)
	}
	b, err := bench.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	strata := map[string]string{}
	for _, q := range b.QAs {
		if q.Type() == "snapshot" {
			strata[q.StreamID] = string(q.Phenomenon) + " " + q.GoldAnswer
		}
	}
	if strata["vdyknow-athletes-kim-player"] != "reverted_revert Club A" || strata["vdyknow-countries-freedonia-president-of-freedonia"] != "monotonic Bob" {
		t.Errorf("strata %v", strata)
	}
	writeFile(t, filepath.Join(src, "wikidata_combined.json"), `{"countries": {"X": {"Head": {"answers": ["Ann |S: +2001-13-01T00:00:00Z"]}}}}`)
	if _, errOut, code := dataRun(t, "import", "vdyknow", "--src", src, "--out", t.TempDir()); code == 0 || !strings.Contains(errOut, `wikidata_combined.json: countries/X/Head: field "answers[0]"`) {
		t.Errorf("bad date: exit %d: %s", code, errOut)
	}
}

func mem0DB(t *testing.T, rows [][]any) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "history.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE history (id TEXT PRIMARY KEY, memory_id TEXT, old_memory TEXT, new_memory TEXT,
		event TEXT, created_at DATETIME, updated_at DATETIME, is_deleted INTEGER, actor_id TEXT, role TEXT)`); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if _, err := db.Exec(`INSERT INTO history VALUES (?,?,?,?,?,?,?,?,?,?)`, r...); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func TestImportMem0Fixture(t *testing.T) {
	db := mem0DB(t, [][]any{
		{"h1", "m1", nil, "Prefers window seats", "ADD", "2024-01-01T10:00:00+00:00", nil, 0, nil, "user"},
		{"h2", "m1", "Prefers window seats", "Prefers aisle seats", "UPDATE", "2024-01-01T10:00:00+00:00", "2024-02-01T10:00:00+00:00", 0, nil, "user"},
		{"h3", "m1", "Prefers aisle seats", "Prefers window seats", "UPDATE", "2024-01-01T10:00:00+00:00", "2024-03-01T10:00:00+00:00", 0, nil, "user"},
		{"h4", "m2", nil, "Lives in Oslo", "ADD", "2024-01-05T00:00:00+00:00", nil, 0, "alice", "user"},
		{"h5", "m2", "Lives in Oslo", nil, "DELETE", "2024-01-05T00:00:00+00:00", "2024-04-01T00:00:00+00:00", 1, nil, "user"},
	})
	out := t.TempDir()
	stdout, errOut, code := dataRun(t, "import", "mem0", "--db", db, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(stdout, `"deletes": 1`) || !strings.Contains(stdout, `"atoms": 5`) {
		t.Errorf("report: %s", stdout)
	}
	b, err := bench.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	gold := map[string]string{}
	for _, q := range b.QAs {
		gold[q.StreamID] = string(q.Phenomenon) + " " + q.GoldAnswer
	}
	if gold["mem0-m1"] != "reverted_revert Prefers window seats" || gold["mem0-m2"] != "monotonic ABSTAIN" {
		t.Errorf("gold %v", gold)
	}
	if a := b.Atoms["mem0-m2"]; len(a) != 2 || a[1].Polarity != "-" || a[1].Value != "Lives in Oslo" {
		t.Errorf("DELETE atom %+v", a)
	}
	bad := mem0DB(t, [][]any{{"h1", "m1", nil, "x", "MERGE", "2024-01-01", nil, 0, nil, nil}})
	if _, errOut, code := dataRun(t, "import", "mem0", "--db", bad, "--out", t.TempDir()); code == 0 || !strings.Contains(errOut, `history.db: row 1: field "event"`) {
		t.Errorf("bad event: exit %d: %s", code, errOut)
	}
	bad = mem0DB(t, [][]any{{"h1", "m1", nil, "x", "ADD", "yesterday", nil, 0, nil, nil}})
	if _, errOut, code := dataRun(t, "import", "mem0", "--db", bad, "--out", t.TempDir()); code == 0 || !strings.Contains(errOut, `row 1: field "created_at"`) {
		t.Errorf("bad time: exit %d: %s", code, errOut)
	}
}

func TestImportGraphitiFixture(t *testing.T) {
	dir := t.TempDir()
	edges := filepath.Join(dir, "edges.json")
	// A → B → A where the restored fact reuses A's edge (the fast path):
	// Graphiti's record keeps A closed and B open.
	writeFile(t, edges, `[
 {"uuid": "e1", "source_node_uuid": "svc", "target_node_uuid": "v30", "name": "HAS_TIMEOUT", "fact": "svc timeout is 30 s",
  "episodes": ["ep1", "ep3"], "created_at": "2024-01-01T00:00:00Z", "expired_at": "2024-02-01T00:00:01Z",
  "valid_at": "2024-01-01T00:00:00Z", "invalid_at": "2024-02-01T00:00:00Z"},
 {"uuid": "e2", "source_node_uuid": "svc", "target_node_uuid": "v60", "name": "HAS_TIMEOUT", "fact": "svc timeout is 60 s",
  "episodes": ["ep2"], "created_at": "2024-02-01T00:00:00Z", "expired_at": null, "valid_at": "2024-02-01T00:00:00Z", "invalid_at": null}
]`)
	out := t.TempDir()
	stdout, errOut, code := dataRun(t, "import", "graphiti", "--edges", edges, "--out", out)
	if code != 0 || !strings.Contains(stdout, `"atoms": 2`) {
		t.Fatalf("exit %d: %s %s", code, stdout, errOut)
	}
	b, err := bench.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.QAs) != 1 || b.QAs[0].GoldAnswer != "svc timeout is 60 s" {
		t.Errorf("QAs %+v", b.QAs)
	}
	writeFile(t, edges, "[\n {\"uuid\": \"e1\", \"source_node_uuid\": \"svc\", \"target_node_uuid\": \"v\", \"name\": \"N\", \"fact\": \"f\", \"created_at\": \"2024-01-01\"},\n {\"uuid\": \"e2\", \"source_node_uuid\": \"svc\", \"target_node_uuid\": \"v\", \"name\": \"N\", \"fact\": \"f\",\n  \"created_at\": \"2024-01-01\", \"valid_at\": \"soon\"}\n]")
	if _, errOut, code := dataRun(t, "import", "graphiti", "--edges", edges, "--out", t.TempDir()); code == 0 || !strings.Contains(errOut, `edges.json:3: field "valid_at"`) {
		t.Errorf("bad valid_at: exit %d: %s", code, errOut)
	}
}
