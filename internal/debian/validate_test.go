package debian_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/debian"
)

// A raw changelog whose build would not load (an escape character in a
// distribution, a NUL in a version, an entry over the loader's line limit)
// fails the import with the loader's file:line:field, and the previous
// build stays byte for byte.
func TestImportKeepsPreviousBuildWhenNewOneDoesNotLoad(t *testing.T) {
	out := t.TempDir()
	if _, err := debian.Import(sampleRaw, sampleList, out, debian.Options{}); err != nil {
		t.Fatal(err)
	}
	good := outputs(t, out)
	nano, err := os.ReadFile(filepath.Join(sampleRaw, "nano", "changelog"))
	if err != nil {
		t.Fatal(err)
	}
	const head = "nano (7.2-1+deb12u1) bookworm; urgency=medium\n"
	if !strings.HasPrefix(string(nano), head) {
		t.Fatalf("nano's changelog starts %q", nano[:60])
	}
	body := string(nano[len(head):])
	cases := []struct {
		name, changelog, want string
		big                   bool
	}{
		{"escape in the distribution", "nano (7.2-1+deb12u1) bookworm\x1b[31m; urgency=medium\n" + body, "control character", false},
		{"NUL in the version", "nano (7.2-1+deb12u1\x00) bookworm; urgency=medium\n" + body, "NUL", false},
		{"a 70 MB entry", head + "\n" + strings.Repeat("  * "+strings.Repeat("x", 70)+"\n", 1_000_000) + body, "longer than", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.big && testing.Short() {
				t.Skip("a 70 MB changelog")
			}
			raw := copyTree(t, sampleRaw)
			if err := os.WriteFile(filepath.Join(raw, "nano", "changelog"), []byte(c.changelog), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := debian.Import(raw, sampleList, out, debian.Options{})
			var le *bench.LineError
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one with %q", err, c.want)
			}
			if !errors.As(err, &le) || le.File == "" || le.Line == 0 {
				t.Errorf("error %v does not name a file and line", err)
			}
			after := outputs(t, out)
			for name, b := range good {
				if string(after[name]) != string(b) {
					t.Errorf("%s changed: the previous build was replaced", name)
				}
			}
			if len(after) != len(good) {
				t.Errorf("%d files, want %d", len(after), len(good))
			}
		})
	}
}
