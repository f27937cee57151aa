package graphiti_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/internal/importers/graphiti"
)

const edge1 = `{"uuid": "e1", "source_node_uuid": "svc", "target_node_uuid": "v30", "name": "HAS_TIMEOUT", "fact": "svc timeout is 30 s", "created_at": "2024-01-01T00:00:00Z"}`
const edge2 = `{"uuid": "e2", "source_node_uuid": "svc", "target_node_uuid": "v60", "name": "HAS_TIMEOUT", "fact": "svc timeout is 60 s", "created_at": "2024-02-01T00:00:00Z"}`

// Finding 11 (Graphiti): data after the list and a uuid used twice are
// errors naming the line, not silently accepted edges.
func TestReadRejectsTrailingDataAndDuplicateUUIDs(t *testing.T) {
	cases := map[string]struct{ body, want string }{
		"trailing data":  {"[\n " + edge1 + ",\n " + edge2 + "\n]\n{\"uuid\": \"e3\"}\n", `edges.json:5: unexpected data after the list`},
		"second list":    {"[\n " + edge1 + "\n]\n[]\n", `edges.json:4: unexpected data after the list`},
		"duplicate uuid": {"[\n " + edge1 + ",\n " + strings.Replace(edge2, `"e2"`, `"e1"`, 1) + "\n]\n", `edges.json:3: field "uuid": "e1" is also the uuid of the edge at line 2`},
		"not closed":     {"[\n " + edge1 + ",\n", `edges.json:`},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "edges.json")
			os.WriteFile(p, []byte(c.body), 0o644)
			if _, err := graphiti.Read(p); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
	p := filepath.Join(t.TempDir(), "edges.json")
	os.WriteFile(p, []byte("[\n "+edge1+",\n "+edge2+"\n]\n\n"), 0o644)
	if edges, err := graphiti.Read(p); err != nil || len(edges) != 2 {
		t.Errorf("good list: %d edges, %v", len(edges), err)
	}
}
