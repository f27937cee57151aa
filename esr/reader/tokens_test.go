package reader_test

import (
	"math"
	"testing"

	tiktoken "github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/eval"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
)

// TestCountTokensAgreesWithBPE: CountTokens, the reader model's length
// feature, counts within 7% of OpenAI's cl100k_base BPE tokenizer (the
// vocabulary tiktoken ships; its pre-split pattern is the one Llama 3's
// tokenizer uses), summed over every class's renders in every ledger format
// on a sample of the synthetic bench's questions. Reference counts come
// from github.com/pkoukk/tiktoken-go with the vocabulary embedded by
// tiktoken-go-loader (no download).
func TestCountTokensAgreesWithBPE(t *testing.T) {
	if testing.Short() {
		t.Skip("renders a sample of the synthetic bench")
	}
	tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	b, err := bench.Load("../../data/synthetic")
	if err != nil {
		t.Fatal(err)
	}
	mems := append(memory.Specs(append(append([]memory.Class{}, memory.Names...), memory.Graphiti, memory.Mem0V3)...), memory.Spec{Class: memory.CoarseRetain, Control: true})
	n := 0
	sample := func(qa *esr.QA) bool { n++; return n%61 == 0 }
	ours, ref := map[string]float64{}, map[string]float64{}
	for _, f := range memory.LedgerFormats {
		n = 0
		items, err := eval.RenderQAs(b, mems, sample, memory.Options{LedgerFormat: f})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			for mi, in := range it.Inputs {
				k := mems[mi].String() + "/" + f
				ours[k] += float64(reader.CountTokens(in.Context))
				ref[k] += float64(len(enc.Encode(in.Context, nil, nil)))
			}
		}
	}
	if len(ours) != len(mems)*len(memory.LedgerFormats) {
		t.Fatalf("%d class/format cells rendered", len(ours))
	}
	for k, r := range ref {
		if ratio := ours[k] / r; math.Abs(ratio-1) > 0.07 {
			t.Errorf("%s: CountTokens %.0f, cl100k_base %.0f (ratio %.3f)", k, ours[k], r, ratio)
		}
	}
}
