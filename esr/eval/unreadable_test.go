package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// parserless answers ABSTAIN and says it could not read the layout, as a
// simulated reader does on raw text it has no value pattern for.
type parserless struct{}

func (parserless) Spec() reader.Spec {
	return reader.Spec{Kind: reader.KindScripted, Name: "parserless"}
}
func (p parserless) Family() reader.Family { return reader.Family(p.Spec()) }
func (parserless) Read(context.Context, reader.Input) (reader.Output, error) {
	return reader.Output{Note: "no parser for this layout", Unreadable: true}, nil
}

// A reader's Unreadable flag reaches the row, the row file as a field of
// its own (not a marker in the reason), and the accuracy, which leaves the
// row out.
func TestRunCarriesTheUnreadableFlag(t *testing.T) {
	var sink rowSink
	cfg := Config{Memories: memory.Specs(memory.FineLedger), Readers: []reader.Reader{parserless{}}}
	if err := Run(context.Background(), bench.Figure1Bench(), cfg, &sink); err != nil {
		t.Fatal(err)
	}
	if len(sink.rows) == 0 {
		t.Fatal("no rows")
	}
	for _, o := range sink.rows {
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		if !o.Unreadable || !strings.Contains(string(b), `"reason":"no parser for this layout","unreadable":true,`) {
			t.Errorf("row %s: %s", o.QID, b)
		}
	}
	a := AccuracyBy(sink.rows, cfg.Memories, nil, nil, 0.95)
	if len(a) != 1 || a[0].Measured() || a[0].Unreadable != len(sink.rows) {
		t.Errorf("accuracy %+v, want every row unreadable and none measured", a)
	}
}

// Rows written before the flag existed carried the marker in their reason
// and no field: they load meaning what they meant (unreadable), a row with
// the field loads as written, and a readable row stays readable. Written
// again, an old unreadable row gains the field and keeps every other byte.
func TestOldRowsWithTheMarkerLoadUnreadable(t *testing.T) {
	const head = `{"qid":"q","stream_id":"s","source":"x","phenomenon":"monotonic","query_type":"snapshot","memory":"direct-context","reader":"scripted:time-sorter","family":"scripted:time-sorter","answer":"ABSTAIN","raw_answer":"ABSTAIN","gold":"a","correct":false,"abstained":true,"gold_abstain":false,"context_tokens":3,`
	old := head + `"reason":"scripted:time-sorter: [unreadable layout] raw text marks no values and no value pattern is known for this attribute"}`
	current := head + `"reason":"scripted:time-sorter: [unreadable layout] raw text marks no values and no value pattern is known for this attribute","unreadable":true}`
	flagOnly := head + `"reason":"no parser","unreadable":true}`
	readable := head + `"reason":"scripted:time-sorter: key k: top of 2 rows"}`
	rows, err := DecodeOutcomes(strings.NewReader(old+"\n"+current+"\n"+flagOnly+"\n"+readable+"\n"), "rows.jsonl")
	if err != nil || len(rows) != 4 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	for i, want := range []bool{true, true, true, false} {
		if rows[i].Unreadable != want {
			t.Errorf("row %d: unreadable %v, want %v", i+1, rows[i].Unreadable, want)
		}
	}
	if rows[0] != rows[1] {
		t.Errorf("an old row and its current form differ:\n%+v\n%+v", rows[0], rows[1])
	}
	for i, want := range []string{current, current, flagOnly, readable} {
		if b, err := json.Marshal(rows[i]); err != nil || string(b) != want {
			t.Errorf("row %d written as %s (%v), want %s", i+1, b, err, want)
		}
	}
}

// A row file's reader and family are parsed strictly where the file is
// read: a name outside the reader grammar, or the pooled label, is an
// error naming the file and line, never a spec with an empty kind.
func TestRowReadersParseStrictly(t *testing.T) {
	const row = `{"qid":"q","memory":"fine-ledger","reader":%q,"family":%q}`
	for _, c := range []struct{ reader, family, want string }{
		{"last-line", "scripted:x", `unknown reader "last-line"`},
		{"scripted:x", "gpt:4", `family: unknown reader "gpt:4"`},
		{"oracle:x", "oracle", "oracle takes no name"},
		{"sim:x", "pooled", "family pooled: a row's family is a reader's"},
	} {
		file := fmt.Sprintf(row, "oracle", "oracle") + "\n" + fmt.Sprintf(row, c.reader, c.family) + "\n"
		_, err := DecodeOutcomes(strings.NewReader(file), "rows.jsonl")
		if err == nil || !strings.Contains(err.Error(), "rows.jsonl:2") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("reader %q family %q: %v, want rows.jsonl:2 and %q", c.reader, c.family, err, c.want)
		}
	}
	rows, err := DecodeOutcomes(strings.NewReader(`{"qid":"q","memory":"fine-ledger","reader":"sim:fit-qwen3-8b@seed=2","family":"sim:fit-qwen3-8b"}`+"\n"), "rows.jsonl")
	if err != nil || len(rows) != 1 || rows[0].Reader != (reader.Spec{Kind: reader.KindSim, Name: "fit-qwen3-8b@seed=2"}) ||
		rows[0].Family != (reader.Family{Kind: reader.KindSim, Name: "fit-qwen3-8b"}) || !rows[0].Family.Calibrated() {
		t.Errorf("%+v, %v", rows, err)
	}
}
