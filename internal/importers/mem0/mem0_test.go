package mem0_test

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/internal/importers/mem0"
)

// historyDB writes a Mem0 history table with rows at path (made at a
// plain name, then renamed: the path may hold any character).
func historyDB(t *testing.T, path string, rows [][]any) {
	t.Helper()
	plain := filepath.Join(t.TempDir(), "plain.db")
	db, err := sql.Open("sqlite", plain)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE history (id TEXT PRIMARY KEY, memory_id TEXT, old_memory TEXT, new_memory TEXT,
		event TEXT, created_at DATETIME, updated_at DATETIME, is_deleted INTEGER, actor_id TEXT, role TEXT)`); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if _, err := db.Exec(`INSERT INTO history VALUES (?,?,?,?,?,?,?,?,?,?)`, r...); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	if err := os.Rename(plain, path); err != nil {
		t.Fatal(err)
	}
}

func files(t *testing.T, dir string) []string {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// Finding 11 (Mem0): a database at a path with "?", "#" or "%" is read
// from that file (before, the unescaped file: URI opened, and created,
// another one); a table of NONE rows only is an error, not an empty bench.
func TestImportReadsExactlyTheFile(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "hist?mode=rwc#x%41.db")
	historyDB(t, db, [][]any{{"h1", "m1", nil, "Prefers window seats", "ADD", "2024-01-01T10:00:00+00:00", nil, 0, nil, "user"}})
	rep, err := mem0.Import(db, filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Memories != 1 || rep.Atoms != 1 {
		t.Errorf("report %+v", rep)
	}
	if got := files(t, dir); len(got) != 1 || got[0] != filepath.Base(db) {
		t.Errorf("files beside the database: %q (another file was opened or created)", got)
	}

	none := filepath.Join(t.TempDir(), "none.db")
	historyDB(t, none, [][]any{{"h1", "m1", "a", "a", "NONE", "2024-01-01T10:00:00+00:00", nil, 0, nil, "user"},
		{"h2", "m2", "b", "b", "NONE", "2024-01-02T10:00:00+00:00", nil, 0, nil, "user"}})
	out := filepath.Join(t.TempDir(), "out")
	if _, err := mem0.Import(none, out); err == nil || !strings.Contains(err.Error(), "none.db: table history: all 2 rows are NONE") {
		t.Errorf("only NONE rows: %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("an output folder was made: %v", err)
	}
}
