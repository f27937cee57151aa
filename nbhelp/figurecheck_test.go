package nbhelp

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/esrkit/esrkit/internal/repo"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// Figure runs the figure check on what it saves: two series drawn on top
// of one another are named on the cell's stderr, with the figure's name;
// a figure that reads at once writes nothing there.
func TestFigureWarnsOfSeriesThatHideOneAnother(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module "+repo.ModulePath+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(rootEnv, root)
	record(t)
	var warn bytes.Buffer
	old := figureWarnings
	figureWarnings = &warn
	t.Cleanup(func() { figureWarnings = old })

	p := plot.New()
	for _, name := range []string{"llama", "mistral"} {
		l, s, err := plotter.NewLinePoints(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 2, Y: 0.5}})
		if err != nil {
			t.Fatal(err)
		}
		p.Add(l, s)
		p.Legend.Add(name, l, s)
	}
	p.Y.Min, p.Y.Max = 0, 1
	Figure(p, "hidden")
	if got := warn.String(); !strings.Contains(got, `figure check, hidden: series "llama" and "mistral" lie on one another`) {
		t.Errorf("stderr: %q", got)
	}
	warn.Reset()
	Figure(testPlot(t), "fine")
	if warn.Len() > 0 {
		t.Errorf("a figure that reads at once warned: %q", warn.String())
	}
}
