package debian_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/internal/debian"
)

const twoEntries = `hello (2.10-3) unstable; urgency=MEDIUM (bug fixes only)

  * Upload to unstable. Thanks to Mallory for the patch.
    -- not a trailer: indented
  * Revert the upload to experimental; urgency=high was wrong.

 -- Santiago Vila <sanvila@debian.org>  Sun, 19 Feb 2023 13:46:40 +0100

hello (2.10-2~exp1) experimental; urgency=low

  * Try a new build system.

 -- Jane Doe <jane@example.org>  Mon, 2 Jan 2023 09:00:00 -0500

# Older entries have been removed from this changelog.
# To read the complete changelog use ` + "`apt changelog hello`" + `.
`

func TestParseChangelog(t *testing.T) {
	es, err := debian.ParseChangelog("changelog", strings.NewReader(twoEntries), func(debian.Entry) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2 {
		t.Fatalf("%d entries, want 2", len(es))
	}
	e := es[0]
	// Expected values read off the text above by hand.
	if e.Package != "hello" || e.Version != "2.10-3" || e.Distribution != "unstable" || e.Urgency != "medium" ||
		e.Name != "Santiago Vila" || e.Email != "sanvila@debian.org" || e.Line != 1 ||
		!e.Time.Equal(time.Date(2023, 2, 19, 12, 46, 40, 0, time.UTC)) {
		t.Errorf("first entry %+v", e)
	}
	if !strings.HasPrefix(e.Text, "hello (2.10-3)") || !strings.HasSuffix(e.Text, "+0100") || !strings.Contains(e.Text, "Thanks to Mallory") {
		t.Errorf("first entry's text %q", e.Text)
	}
	if f := es[1]; f.Distribution != "experimental" || f.Urgency != "low" || f.Name != "Jane Doe" || f.Line != 9 ||
		!f.Time.Equal(time.Date(2023, 1, 2, 14, 0, 0, 0, time.UTC)) {
		t.Errorf("second entry %+v", f)
	}
	// more stops the reading after the first entry.
	es, err = debian.ParseChangelog("changelog", strings.NewReader(twoEntries), func(debian.Entry) bool { return false })
	if err != nil || len(es) != 1 {
		t.Errorf("stopped reading: %d entries, %v", len(es), err)
	}
}

// Bad input is an error naming the file, the line and the field.
func TestParseChangelogErrors(t *testing.T) {
	const trailer = " -- A B <a@b.org>  Sun, 19 Feb 2023 13:46:40 +0100"
	cases := []struct{ name, text, want string }{
		{"no urgency", "hello (1-1) unstable; priority=low\n\n  * x\n\n" + trailer + "\n",
			`changelog:1: field "urgency": header "hello (1-1) unstable; priority=low" has no urgency`},
		{"no version", "hello unstable; urgency=low\n",
			`changelog:1: field "package": header "hello unstable; urgency=low" does not start with "PACKAGE ("`},
		{"no distribution", "hello (1-1); urgency=low\n",
			`changelog:1: field "distribution": header "hello (1-1); urgency=low" names no distribution`},
		{"bad date", "hello (1-1) unstable; urgency=low\n\n  * x\n\n -- A B <a@b.org>  19/02/2023\n",
			`changelog:5: field "date": "19/02/2023" is not an RFC 5322 date`},
		{"no email", "hello (1-1) unstable; urgency=low\n\n  * x\n\n -- A B  Sun, 19 Feb 2023 13:46:40 +0100\n",
			`changelog:5: field "maintainer": trailer`},
		{"missing trailer", "hello (1-2) unstable; urgency=low\n\n  * x\n\nhello (1-1) unstable; urgency=low\n\n  * y\n\n" + trailer + "\n",
			`changelog:1: field "trailer": the entry for hello 1-2 has no trailer before the next header (line 5)`},
		{"unterminated", "hello (1-1) unstable; urgency=low\n\n  * x\n",
			`changelog:1: field "trailer": the entry for hello 1-1 has no trailer`},
		{"junk between entries", "hello (1-1) unstable; urgency=low\n\n  * x\n\n" + trailer + "\n\n  * stray detail\n",
			`changelog:7: "  * stray detail" is neither an entry header nor a blank or comment line`},
		{"not UTF-8", "hello (1-1) unstable; urgency=low\n\n  * caf\xe9\n\n" + trailer + "\n",
			`changelog:3: not UTF-8`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := debian.ParseChangelog("changelog", strings.NewReader(c.text), func(debian.Entry) bool { return true })
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want %q", err, c.want)
			}
			var le *bench.LineError
			if !errors.As(err, &le) {
				t.Errorf("not a *bench.LineError: %T", err)
			}
		})
	}
}

func TestParseDate(t *testing.T) {
	// Dates in the forms deb-changelog(5) and RFC 5322 §3.3 allow; the
	// UTC values are the offsets applied by hand.
	cases := []struct {
		in   string
		want time.Time
	}{
		{"Sun, 19 Feb 2023 13:46:40 +0100", time.Date(2023, 2, 19, 12, 46, 40, 0, time.UTC)},
		{"Mon,  2 Jan 2023 09:00:00 -0500", time.Date(2023, 1, 2, 14, 0, 0, 0, time.UTC)},
		{"Mon, 02 Jan 2023 09:00:00 -0500", time.Date(2023, 1, 2, 14, 0, 0, 0, time.UTC)},
		{"2 Jan 2023 09:00:00 +0000", time.Date(2023, 1, 2, 9, 0, 0, 0, time.UTC)},
		{"Mon, 2 Jan 2023 09:00:00 +0200 (EET)", time.Date(2023, 1, 2, 7, 0, 0, 0, time.UTC)},
	}
	for _, c := range cases {
		got, err := debian.ParseDate(c.in)
		if err != nil || !got.Equal(c.want) || got.Location() != time.UTC {
			t.Errorf("ParseDate(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "yesterday", "2023-01-02T09:00:00Z", "Mon, 2 Jan 2023"} {
		if _, err := debian.ParseDate(bad); err == nil {
			t.Errorf("ParseDate(%q) accepted", bad)
		}
	}
}

func TestReadListErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{"# list\nbash\nBash\n", `packages.txt:3: "Bash" is not a Debian package name`},
		{"bash\ncoreutils\nbash\n", `packages.txt:3: "bash" already on line 1`},
		{"# nothing\n", "packages.txt: no packages"},
	} {
		path := dir + "/packages.txt"
		if err := writeFile(path, c.text); err != nil {
			t.Fatal(err)
		}
		if _, err := debian.ReadList(path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadList(%q): %v, want %q", c.text, err, c.want)
		}
	}
}
