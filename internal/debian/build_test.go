package debian_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/internal/debian"
)

const bundled = "../../data/debian"

func writeFile(path, text string) error { return os.WriteFile(path, []byte(text), 0o644) }

// copyTree copies the sample's raw folder to a temporary one.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// outputs reads every file of a folder.
func outputs(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = data
	}
	return out
}

// TestDeterministic: the same raw files give the same bytes, from a copy
// of them in another folder, in another output folder.
func TestDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if _, err := debian.Import(sampleRaw, sampleList, a, debian.Options{Relations: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := debian.Import(copyTree(t, sampleRaw), sampleList, b, debian.Options{Relations: true}); err != nil {
		t.Fatal(err)
	}
	fa, fb := outputs(t, a), outputs(t, b)
	if len(fa) < 9 {
		t.Fatalf("only %d files written: %v", len(fa), reflect.ValueOf(fa).MapKeys())
	}
	for name, data := range fa {
		if !bytes.Equal(data, fb[name]) {
			t.Errorf("%s differs between two builds of the same files", name)
		}
	}
	if _, err := bench.Load(a); err != nil {
		t.Errorf("the built sample does not load: %v", err)
	}
	// Without --relations a rebuild removes the relations file it wrote.
	if _, err := debian.Import(sampleRaw, sampleList, a, debian.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(a, bench.RelationsFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("relations.jsonl left behind: %v", err)
	}
}

// TestGoldIgnoresProse: clutter added to every entry's change details (other
// people's names and addresses, versions, distributions, urgencies, a
// trailer-like line, "revert") changes the events' text and no gold field.
func TestGoldIgnoresProse(t *testing.T) {
	list, err := debian.ReadList(sampleList)
	if err != nil {
		t.Fatal(err)
	}
	clean, err := debian.Build(sampleRaw, list)
	if err != nil {
		t.Fatal(err)
	}
	dir := copyTree(t, sampleRaw)
	const clutter = "  * Thanks to Mallory Example <mallory@example.org>: revert 9.9-9 from experimental,\n" +
		"    re-upload to stable-security with urgency=emergency (Closes: #999999).\n" +
		"    -- Eve Impostor <eve@example.org>  Mon, 01 Jan 2030 00:00:00 +0000\n"
	for _, pkg := range list {
		path := filepath.Join(dir, pkg, "changelog")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, line := range strings.Split(string(data), "\n") {
			out = append(out, line)
			if strings.HasPrefix(line, pkg+" (") {
				out = append(out, "", strings.TrimSuffix(clutter, "\n"))
			}
		}
		if err := writeFile(path, strings.Join(out, "\n")); err != nil {
			t.Fatal(err)
		}
	}
	noisy, err := debian.Build(dir, list)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(clean.Bench.QAs, noisy.Bench.QAs) {
		t.Error("questions or gold changed with the prose")
	}
	if !reflect.DeepEqual(clean.Bench.Atoms, noisy.Bench.Atoms) {
		t.Error("atoms changed with the prose")
	}
	changed := 0
	for i, s := range noisy.Bench.Streams {
		for j := range s.Events {
			if s.Events[j].Text != clean.Bench.Streams[i].Events[j].Text {
				changed++
			}
		}
	}
	if changed == 0 {
		t.Error("the clutter did not reach the events' text")
	}
}

// TestBrokenOutputLine: bench.Load names the file, line and field of a
// broken line of the built benchmark.
func TestBrokenOutputLine(t *testing.T) {
	dir := t.TempDir()
	if _, err := debian.Import(sampleRaw, sampleList, dir, debian.Options{}); err != nil {
		t.Fatal(err)
	}
	replaceLine := func(name string, n int, old, new string) func() {
		path := filepath.Join(dir, name)
		orig, _ := os.ReadFile(path)
		lines := strings.Split(string(orig), "\n")
		if !strings.Contains(lines[n-1], old) {
			t.Fatalf("%s:%d has no %q", name, n, old)
		}
		lines[n-1] = strings.Replace(lines[n-1], old, new, 1)
		os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
		return func() { os.WriteFile(path, orig, 0o644) }
	}
	cases := []struct {
		file     string
		line     int
		old, new string
		want     string
	}{
		{bench.AtomsFile, 2, `"facet":"distribution=`, `"facet":"distribution`, `atoms.jsonl:2: field "atoms[3].facet": facet "distribution`},
		{bench.AtomsFile, 3, `"attribute":"uploader","value":"`, `"attribute":"uploader","value":" `, ""},
		{bench.QAFile, 1, `"phenomenon":"`, `"phenomenon":"x`, `qa.jsonl:1: field "phenomenon"`},
		{bench.StreamsFile, 2, `"timestamp":"20`, `"timestamp":"x20`, `streams.jsonl:2: field "events[0].timestamp"`},
	}
	for _, c := range cases {
		restore := replaceLine(c.file, c.line, c.old, c.new)
		_, err := bench.Load(dir)
		restore()
		if c.want == "" {
			if err != nil {
				t.Errorf("a value with a leading space is still a value: %v", err)
			}
			continue
		}
		var le *bench.LineError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &le) {
			t.Errorf("%s:%d %q → %q: error %v, want %q", c.file, c.line, c.old, c.new, err, c.want)
		}
	}
	// A QA asking about a suite no version atom has.
	path := filepath.Join(dir, bench.QAFile)
	data, _ := os.ReadFile(path)
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if strings.Contains(l, `"facet":"distribution=unstable"`) {
			lines[i] = strings.Replace(l, `"facet":"distribution=unstable"`, `"facet":"distribution=trixie"`, 1)
			os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
			_, err := bench.Load(dir)
			want := `qa.jsonl:` + itoa(i+1) + `: field "facet": stream`
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("unknown facet: %v, want %q", err, want)
			}
			break
		}
	}
}

func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(ja, jb)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestBundled: data/debian loads and holds what it promises: at least 300
// packages, at least 100 reverted-revert questions, version questions per
// suite; MANIFEST.json's counts and hashes describe the files; and the
// vendored sample's streams and questions are exactly data/debian's.
func TestBundled(t *testing.T) {
	b, err := bench.Load(bundled)
	if err != nil {
		t.Fatal(err)
	}
	var rep debian.Report
	data, err := os.ReadFile(filepath.Join(bundled, debian.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if len(b.Streams) < 300 || len(b.Streams) != rep.Streams || len(b.QAs) != rep.QATotal {
		t.Errorf("%d streams (manifest %d), %d QAs (manifest %d); want ≥ 300", len(b.Streams), rep.Streams, len(b.QAs), rep.QATotal)
	}
	rr, faceted := 0, 0
	for _, q := range b.QAs {
		if q.Source != debian.Source {
			t.Errorf("%s: source %q", q.QID, q.Source)
		}
		if q.Phenomenon == esr.RevertedRevert {
			rr++
		}
		if q.Facet != "" {
			faceted++
		}
		if q.Phenomenon == esr.Refinement || q.Phenomenon == esr.CrossSourceConflict {
			t.Errorf("%s: stratum %s, which no gold rule of this benchmark gives", q.QID, q.Phenomenon)
		}
	}
	if rr < 100 || faceted != rep.Faceted {
		t.Errorf("%d reverted-revert questions (want ≥ 100), %d faceted (manifest %d)", rr, faceted, rep.Faceted)
	}
	for name, sum := range rep.SHA256 {
		data, err := os.ReadFile(filepath.Join(bundled, name))
		if err != nil {
			t.Error(err)
			continue
		}
		h := sha256.Sum256(data)
		if hex.EncodeToString(h[:]) != sum {
			t.Errorf("%s does not match MANIFEST.json's sha256", name)
		}
	}
	// Coherence with the model: ⊕ over the atoms in transaction order,
	// relating them as the gold does (relate.Oracle's fallback without a
	// relations file), answers every question that asks about no facet.
	// Faceted questions wait for faceted keys: today's single-valued key
	// answers them with the latest upload of any suite.
	wrong := 0
	for _, q := range b.QAs {
		if q.Facet != "" {
			continue
		}
		k, _ := q.Locate(b.Atoms[q.StreamID])
		st := memory.MustBuild(memory.SpecOf(memory.FineLedger), b.Stream(q.StreamID), b.Atoms[q.StreamID], memory.Options{Relator: relate.Oracle{}})
		if a := st.Answer(q.Query(k)); a.Value != q.GoldAnswer {
			wrong++
			t.Logf("%s: %v, gold %q", q.QID, a, q.GoldAnswer)
		}
	}
	if wrong > 0 {
		t.Errorf("fine-ledger/oracle wrong on %d unfaceted questions", wrong)
	}
	list, err := debian.ReadList(sampleList)
	if err != nil {
		t.Fatal(err)
	}
	sample, err := debian.Build(sampleRaw, list)
	if err != nil {
		t.Fatal(err)
	}
	bundledQA := map[string]esr.QA{}
	for _, q := range b.QAs {
		bundledQA[q.QID] = q
	}
	for _, s := range sample.Bench.Streams {
		bs := b.Stream(s.ID)
		// As JSON: a loaded event's meta holds numbers as float64.
		if bs == nil || !sameJSON(t, bs.Events, s.Events) || !sameJSON(t, b.Atoms[s.ID], sample.Bench.Atoms[s.ID]) {
			t.Errorf("%s: the vendored sample builds another stream than data/debian's", s.ID)
		}
	}
	for _, q := range sample.Bench.QAs {
		if !reflect.DeepEqual(bundledQA[q.QID], q) {
			t.Errorf("%s: the vendored sample builds another question than data/debian's", q.QID)
		}
	}
}

// TestRebuildBundled rebuilds data/debian from the raw files when this
// machine has them (scripts/build-debian.sh --fetch; ESR_DEBIAN_RAW or
// .esr-cache/debian) and compares every file byte for byte.
func TestRebuildBundled(t *testing.T) {
	raw := os.Getenv("ESR_DEBIAN_RAW")
	if raw == "" {
		raw = "../../.esr-cache/debian"
	}
	src := filepath.Join(raw, "src")
	if _, err := os.Stat(src); err != nil {
		t.Skip("no raw files (run scripts/build-debian.sh --fetch)")
	}
	if testing.Short() {
		t.Skip("short mode")
	}
	out := t.TempDir()
	if _, err := debian.Import(src, filepath.Join(bundled, debian.ListFile), out, debian.Options{}); err != nil {
		t.Fatal(err)
	}
	got, want := outputs(t, out), outputs(t, bundled)
	for name, data := range got {
		if !bytes.Equal(data, want[name]) {
			t.Errorf("%s: the rebuild differs from data/debian's", name)
		}
	}
}
