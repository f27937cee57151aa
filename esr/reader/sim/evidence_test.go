package sim

import (
	"flag"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/paper"
)

var updateEvidenceReport = flag.Bool("update-evidence-report", false, "rewrite docs/evidence.md from esr/reader/sim/evidence.json")

func TestEvidenceEveryEntryNamesItsSourceTaskValueAndStandIn(t *testing.T) {
	points := ShippedEvidence().Points
	if len(points) == 0 {
		t.Fatal("the registry is empty")
	}
	for _, p := range points {
		for name, v := range map[string]string{
			"source": p.Source, "locator": p.Locator, "task": p.Task, "stand_in": p.StandIn, "model": p.Model,
		} {
			if strings.TrimSpace(v) == "" {
				t.Errorf("%s: no %s", p.ID, name)
			}
		}
		if p.Kind != EvidenceMeasured {
			continue
		}
		if p.X == "" || p.XUnit == "" || p.ValueText == "" || p.ValueUnit == "" {
			t.Errorf("%s: measured point without x (%q), x_unit (%q), value_text (%q) or value_unit (%q)", p.ID, p.X, p.XUnit, p.ValueText, p.ValueUnit)
		}
		// The value as printed by the source parses to the value the
		// registry carries.
		v, err := strconv.ParseFloat(p.ValueText, 64)
		if err != nil || v != p.Value {
			t.Errorf("%s: value_text %q parses to %v (%v), value is %v", p.ID, p.ValueText, v, err, p.Value)
		}
		if slices.Contains(curveSkills, p.Skill) && !p.HasXNum {
			t.Errorf("%s: a %s point without a numeric x", p.ID, p.Skill)
		}
	}
}

func TestEvidenceIDsAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range ShippedEvidence().Points {
		if seen[p.ID] {
			t.Errorf("id %q given twice", p.ID)
		}
		seen[p.ID] = true
	}
}

func TestEvidenceCoversEverySkillOfEveryFamily(t *testing.T) {
	r := ShippedEvidence()
	for _, f := range paper.Families {
		for _, s := range EvidenceSkills {
			if len(r.For(f, s)) == 0 {
				t.Errorf("%s has no %s entry (a published point, or an entry saying none was found and naming the nearest)", f, s)
			}
		}
	}
}

func TestEvidenceNoneEntriesNameTheNearestSource(t *testing.T) {
	for _, p := range ShippedEvidence().Points {
		if p.Kind == EvidenceNone && !strings.Contains(p.Locator, "nearest") {
			t.Errorf("%s: a none entry whose locator does not name the nearest source: %q", p.ID, p.Locator)
		}
	}
}

func TestEvidenceEveryFamilyHasAMeasuredLengthAndRowsCurve(t *testing.T) {
	// The two skills with a published curve for every family: each family
	// needs at least two x values on one series to give a slope.
	r := ShippedEvidence()
	for _, f := range paper.Families {
		for _, s := range []EvidenceSkill{EvidenceLength, EvidenceRows} {
			xs := map[string]map[float64]bool{}
			for _, p := range r.For(f, s) {
				if p.Kind == EvidenceMeasured {
					if xs[p.Series] == nil {
						xs[p.Series] = map[float64]bool{}
					}
					xs[p.Series][p.XNum] = true
				}
			}
			best := 0
			for _, x := range xs {
				best = max(best, len(x))
			}
			if best < 2 {
				t.Errorf("%s: no %s series with two x values", f, s)
			}
		}
	}
}

func TestParseEvidenceRejectsABadEntryNamingFileLineAndField(t *testing.T) {
	const head = `{
 "about": "test",
 "families": ["Llama-3.1-8B", "Mistral-7B", "Qwen2.5-7B", "Qwen3-8B", "Qwen3-14B"],
 "sources": [{"key": "s", "citation": "c", "where": "w", "measures": "m", "read": "r"}],
 "entries": [
`
	good := `  {"id": "s/a/1", "kind": "measured", "skill": "length", "family": ["Qwen3-8B"], "model": "m", "source": "s", "locator": "l", "task": "t", "x": "1K", "x_num": 1, "x_unit": "K tokens", "value": 93.6, "value_text": "93.6", "value_unit": "percent", "stand_in": "n"}`
	if _, err := ParseEvidence([]byte(head+good+"\n ]\n}\n"), "reg.json"); err != nil {
		t.Fatalf("a good registry is refused: %v", err)
	}
	cases := []struct {
		name, entry, field string
	}{
		{"value text differs", strings.Replace(good, `"value_text": "93.6"`, `"value_text": "93.5"`, 1), "value_text"},
		{"unknown skill", strings.Replace(good, `"skill": "length"`, `"skill": "speed"`, 1), "skill"},
		{"not a paper family", strings.Replace(good, `["Qwen3-8B"]`, `["Qwen3-32B"]`, 1), "family"},
		{"no task", strings.Replace(good, `"task": "t"`, `"task": ""`, 1), "task"},
		{"no stand-in", strings.Replace(good, `"stand_in": "n"`, `"stand_in": " "`, 1), "stand_in"},
		{"curve without x_num", strings.Replace(good, `"x_num": 1, `, ``, 1), "x_num"},
		{"percent above 100", strings.Replace(strings.Replace(good, `93.6`, `936`, 1), `"93.6"`, `"936"`, 1), "value"},
		{"none with a value", strings.Replace(good, `"kind": "measured"`, `"kind": "none"`, 1), "value"},
		{"unknown field", strings.Replace(good, `"task": "t"`, `"task": "t", "tsak": "t"`, 1), "tsak"},
	}
	for _, c := range cases {
		data := head + good + ",\n" + c.entry + "\n ]\n}\n"
		_, err := ParseEvidence([]byte(data), "reg.json")
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		// The bad entry is the second, on line 7.
		if msg := err.Error(); !strings.HasPrefix(msg, "reg.json:7:") || !strings.Contains(msg, c.field) {
			t.Errorf("%s: error %q does not name reg.json:7 and field %s", c.name, msg, c.field)
		}
	}
	dup := head + good + ",\n" + good + "\n ]\n}\n"
	if _, err := ParseEvidence([]byte(dup), "reg.json"); err == nil || !strings.Contains(err.Error(), "reg.json:7:") || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("a repeated id: error %v, want it named at reg.json:7", err)
	}
	orphan := strings.Replace(good, `"id": "s/a/1"`, `"id": "q/a/1"`, 1)
	if _, err := ParseEvidence([]byte(head+orphan+"\n ]\n}\n"), "reg.json"); err == nil || !strings.Contains(err.Error(), `"q"`) {
		t.Errorf("an id whose source key is not in sources: error %v", err)
	}
}

func TestEvidenceReportIsCurrent(t *testing.T) {
	want := EvidenceReport(ShippedEvidence())
	const path = "../../../docs/evidence.md"
	if *updateEvidenceReport {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("docs/evidence.md is out of date: run %s", evidenceReportCommand)
	}
	for _, s := range ShippedEvidence().Sources {
		if !strings.Contains(want, s.Key) {
			t.Errorf("the report does not list source %q", s.Key)
		}
	}
	if !strings.Contains(want, "SIMULATED") {
		t.Error("the report does not say the readers it feeds are SIMULATED")
	}
}

func TestEvidenceReportEscapesRegistryText(t *testing.T) {
	r := &EvidenceRegistry{
		About:    "a <script> | b",
		Families: paper.Families,
		Sources:  []EvidenceSource{{Key: "k", Citation: "c*", Where: "w", Measures: "m", Read: "r"}},
		Points: []EvidencePoint{{ID: "k/x", Kind: EvidenceMeasured, Skill: EvidenceLength, Family: []string{"Qwen3-8B"},
			Model: "m|<b>", Source: "s", Locator: "l", Task: "t", StandIn: "n_", Series: "k/x"}},
	}
	out := EvidenceReport(r)
	for _, raw := range []string{"<script>", "m|<b>", "c*"} {
		if strings.Contains(out, raw) {
			t.Errorf("the report carries %q unescaped", raw)
		}
	}
}
