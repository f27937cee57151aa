package dyknow_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/relate"
	"github.com/esrkit/esrkit/internal/dyknow"
)

const bundled = "../../data/dyknow"

// upstream is DyKnow's own files at the commit data/dyknow was imported
// from (testdata/upstream, MIT, with its licence), or ESR_DYKNOW_SRC when
// set: the import tests run wherever the repository is checked out.
func upstream(t *testing.T) string {
	t.Helper()
	d := os.Getenv("ESR_DYKNOW_SRC")
	if d == "" {
		d = filepath.Join("testdata", "upstream")
	}
	if _, err := os.Stat(filepath.Join(d, "grc_generated.json")); err != nil {
		t.Fatalf("DyKnow's upstream files: %v", err)
	}
	return d
}

func TestParseValue(t *testing.T) {
	v, err := dyknow.ParseValue("Manchester United F.C. |S: +2003-00-00T00:00:00Z |E: +2009-00-00T00:00:00Z")
	if err != nil {
		t.Fatal(err)
	}
	if v.Name != "Manchester United F.C." || v.Start.Precision != dyknow.Year || v.Start.String() != "2003" ||
		!v.Start.Time.Equal(time.Date(2003, 1, 1, 0, 0, 0, 0, time.UTC)) || v.Open() {
		t.Errorf("year-only value parsed as %+v start %v", v, v.Start)
	}
	v, _ = dyknow.ParseValue("Al-Nassr |S: +2023-01-00T00:00:00Z")
	if v.Start.Precision != dyknow.Month || v.Start.String() != "January 2023" || !v.Open() {
		t.Errorf("month-precision open value: %+v %v", v, v.Start)
	}
	v, _ = dyknow.ParseValue("Portugal national association football team |S: +2003-00-00T00:00:00Z |P: +2021-06-27T00:00:00Z")
	if v.Open() || v.Point == nil || v.Point.String() != "2021-06-27" {
		t.Errorf("a |P: value is a point fact, not open: %+v", v)
	}
	v, _ = dyknow.ParseValue("George V |E: +1936-01-20T00:00:00Z")
	if v.When().String() != "1936-01-20" {
		t.Errorf("end-only value placed at %v", v.When())
	}
	for _, bad := range []string{"", "X |Q: +2000-01-01T00:00:00Z", "X", "X |S: 2000/01/01"} {
		if _, err := dyknow.ParseValue(bad); err == nil {
			t.Errorf("ParseValue(%q) accepted", bad)
		}
	}
}

// TestBundled: data/dyknow loads, has the documented counts, and the fine
// ledger under the gold relations answers every QA.
func TestBundled(t *testing.T) {
	b, err := bench.Load(bundled)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Streams) != 123 || len(b.QAs) != 347 {
		t.Errorf("%d streams, %d QAs; want 123, 347", len(b.Streams), len(b.QAs))
	}
	count := map[esr.Phenomenon]map[esr.QueryType]int{}
	for _, q := range b.QAs {
		if q.Source != dyknow.Source {
			t.Errorf("%s: source %q", q.QID, q.Source)
		}
		if count[q.Phenomenon] == nil {
			count[q.Phenomenon] = map[esr.QueryType]int{}
		}
		count[q.Phenomenon][q.Type()]++
	}
	want := map[esr.Phenomenon]map[esr.QueryType]int{
		esr.RevertedRevert: {esr.Snapshot: 30, esr.Provenance: 30, esr.RelationType: 30},
		esr.Monotonic:      {esr.Snapshot: 93, esr.Provenance: 82, esr.RelationType: 82},
	}
	for p, m := range want {
		for qt, n := range m {
			if count[p][qt] != n {
				t.Errorf("%s %s: %d QAs, want %d", p, qt, count[p][qt], n)
			}
		}
	}
	wrong := 0
	for _, q := range b.QAs {
		k, _ := q.Locate(b.Atoms[q.StreamID])
		st := memory.MustBuild(memory.SpecOf(memory.FineLedger), b.Stream(q.StreamID), b.Atoms[q.StreamID], memory.Options{Relator: relate.Oracle{Gold: b.Relations}})
		if a := st.Answer(q.Query(k)); esr.NormalizeValue(a.Value) != esr.NormalizeValue(q.GoldAnswer) {
			wrong++
			t.Logf("%s: %v, gold %q", q.QID, a, q.GoldAnswer)
		}
	}
	if wrong > 0 {
		t.Errorf("fine-ledger/oracle wrong on %d QAs", wrong)
	}
	for _, name := range []string{"LICENSE", "PROVENANCE.md", "exclusions.jsonl", "MANIFEST.json"} {
		if _, err := os.Stat(filepath.Join(bundled, name)); err != nil {
			t.Error(err)
		}
	}
}

// TestOutcomes: the real model outputs have the documented counts and pair
// clean with noisy per question.
func TestOutcomes(t *testing.T) {
	outs, err := dyknow.LoadOutcomes(bundled)
	if err != nil {
		t.Fatal(err)
	}
	n := map[[2]string]int{}
	correct := map[[2]string]int{}
	for _, o := range outs {
		k := [2]string{o.Family, o.Condition}
		n[k]++
		if o.Correct {
			correct[k]++
		}
		if o.Correct != (o.Label == "correct") {
			t.Errorf("%s: correct %v with label %q", o.QID, o.Correct, o.Label)
		}
	}
	for k, want := range map[[2]string][2]int{
		{"Llama-2-7b-chat-hf", dyknow.Clean}: {192, 164}, {"Llama-2-7b-chat-hf", dyknow.Noisy}: {192, 160},
		{"Mistral-7B-Instruct-v0.1", dyknow.Clean}: {164, 159}, {"Mistral-7B-Instruct-v0.1", dyknow.Noisy}: {164, 154},
	} {
		if n[k] != want[0] || correct[k] != want[1] {
			t.Errorf("%v: %d outcomes, %d correct; want %d, %d", k, n[k], correct[k], want[0], want[1])
		}
	}
	p := dyknow.PairedByModel(outs, false)
	for fam, want := range map[string]int{"Llama-2-7b-chat-hf": 192, "Mistral-7B-Instruct-v0.1": 164} {
		pd := p[fam]
		if pd == nil || len(pd.QIDs) != want || len(pd.Clean) != want || len(pd.Noisy) != want {
			t.Fatalf("%s: paired %v, want %d", fam, pd, want)
		}
	}
	inBench := dyknow.PairedByModel(outs, true)
	if got := len(inBench["Llama-2-7b-chat-hf"].QIDs); got >= 192 || got == 0 {
		t.Errorf("in-bench pairing kept %d of 192 (the excluded athletes should drop out)", got)
	}
}

// TestLabelsMatchAnswerSheets: the clean analysis labels agree with
// DyKnow's answer sheets.
func TestLabelsMatchAnswerSheets(t *testing.T) {
	src := upstream(t)
	sheets, err := dyknow.ReadAnswerSheets(src)
	if err != nil {
		t.Fatal(err)
	}
	outs, err := dyknow.LoadOutcomes(bundled)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, o := range outs {
		if o.Condition != dyknow.Clean {
			continue
		}
		l, ok := sheets[o.Family][o.QID]
		if !ok {
			t.Errorf("%s %s: not in the answer sheet", o.Family, o.QID)
			continue
		}
		if l != o.Label {
			t.Errorf("%s %s: analysis %q, sheet %q", o.Family, o.QID, o.Label, l)
		}
		checked++
	}
	if checked != 192+164 {
		t.Errorf("checked %d clean labels, want %d", checked, 192+164)
	}
}

// TestRegenerates: importing the upstream checkout reproduces data/dyknow
// byte for byte (go run ./cmd/esr import dyknow --src DIR --out data/dyknow).
func TestRegenerates(t *testing.T) {
	src := upstream(t)
	dir := t.TempDir()
	if _, err := dyknow.Import(src, dir); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		got, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		want, err := os.ReadFile(filepath.Join(bundled, e.Name()))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("data/dyknow/%s is stale or missing: rerun esr import dyknow", e.Name())
		}
	}
}
