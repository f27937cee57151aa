package site

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A notebook fixture that saves one figure: the index gets a card with its
// section and title, and a thumbnail that decodes as the figure.
func TestWriteIndex(t *testing.T) {
	dir := t.TempDir()
	exec, figs, out := filepath.Join(dir, "executed"), filepath.Join(dir, "figures"), filepath.Join(dir, "report")
	for _, d := range []string{exec, figs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, 4, 3))
	img.Set(1, 1, color.RGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(figs, "table2-decomposition.png"), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	nb := map[string]any{"cells": []map[string]any{
		{"cell_type": "markdown", "source": []string{"# §4.1 · Most gain is render\n", "\n", "text"}},
		{"cell_type": "code", "source": "%%\nnbhelp.Figure(lab.DecompositionPlot(cs, \"t\"), \"table2-decomposition\")", "outputs": []any{}},
	}}
	b, _ := json.Marshal(nb)
	if err := os.WriteFile(filepath.Join(exec, "41-render-confound.ipynb"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(exec, "02-esr.ipynb"), []byte(`{"cells":[{"cell_type":"markdown","source":"# §2 · ESR"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	cards, err := WriteIndex(exec, figs, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cards) != 2 || cards[1].Section != "§4.1" || cards[1].Title != "Most gain is render" || cards[1].Figures != 1 || cards[0].Thumbnail != "" {
		t.Fatalf("cards %+v", cards)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`href="41-render-confound.html"`, "§4.1", "Most gain is render", `src="thumbs/41-render-confound.png"`, `href="02-esr.html"`,
		"-minute lab</h2>", `<li><a href="41-render-confound.html">Most gain is render</a> (<span class="minutes">25 min</span>`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("index lacks %q", want)
		}
	}
	f, err := os.Open(filepath.Join(out, "thumbs", "41-render-confound.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := png.Decode(f)
	if err != nil || got.Bounds().Dx() != 4 {
		t.Errorf("thumbnail does not decode as the figure: %v", err)
	}
	// A notebook naming a figure that was never saved is an error naming it.
	if err := os.WriteFile(filepath.Join(exec, "99-bad.ipynb"), []byte(`{"cells":[{"cell_type":"code","source":"nbhelp.Figure(p, \"missing\")"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteIndex(exec, figs, out, nil); err == nil || !strings.Contains(err.Error(), "99-bad.ipynb: figure missing") {
		t.Errorf("missing figure: %v", err)
	}
}
