#!/usr/bin/python3
"""Writes notebooks/00-smoke.ipynb, a tiny GoNB notebook that proves the setup works.

Run from the repository root with Debian's Python (it has nbformat):
    /usr/bin/python3 scripts/gen-smoke-notebook.py
The notebook is written without outputs; `make test` executes it headless.
"""
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

# The first cell of every esrkit notebook: a go.work that joins GoNB's scratch module
# with the esrkit module (GONB_DIR is the notebook's folder, so .. is the repo root).
FIRST_CELL = """\
!*rm -f go.work && go work init && go work use . ${GONB_DIR}/..
%goworkfix"""

cells = [
    new_markdown_cell(
        "# 00 · Smoke test\n\n"
        "Proves that the GoNB kernel runs, reaches the esrkit module and its dependencies, "
        "and shows a plot and a table. `make test` runs it headless."
    ),
    new_code_cell(FIRST_CELL),
    new_code_cell("""\
import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/esrkit/esrkit/nbhelp"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// squares returns the points (x, x²) for x = 0..n-1.
func squares(n int) plotter.XYs {
	xy := make(plotter.XYs, n)
	for i := range xy {
		xy[i].X, xy[i].Y = float64(i), float64(i*i)
	}
	return xy
}

%%
if !nbhelp.InNotebook() {
	panic("nbhelp does not see the GoNB kernel")
}
root := nbhelp.Root()
if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
	panic(err)
}
fmt.Println("esrkit root found; go.mod present")"""),
    new_code_cell("""\
%%
p := plot.New()
p.Title.Text = "y = x²"
p.X.Label.Text, p.Y.Label.Text = "x", "y"
line, err := plotter.NewLine(squares(10))
if err != nil {
	panic(err)
}
p.Add(line, plotter.NewGrid())
if err := nbhelp.ShowPlot(p); err != nil {
	panic(err)
}
// Saving writes both formats; the smoke test saves to a scratch folder, not figures/.
dir, err := os.MkdirTemp("", "esrkit-smoke-")
if err != nil {
	panic(err)
}
defer os.RemoveAll(dir)
pngPath, svgPath, err := nbhelp.SaveFigureIn(dir, p, "smoke")
if err != nil {
	panic(err)
}
fmt.Println("saved", filepath.Base(pngPath), "and", filepath.Base(svgPath))"""),
    new_code_cell("""\
%%
nbhelp.Markdown("**A table** (escaped: `<b>` stays text):")
nbhelp.ShowTable([]string{"x", "x²", "note"}, [][]string{
	{"1", "1", "<b>not bold</b>"},
	{"2", "4", "a & b"},
	{"3", "9", ""},
})
pr := nbhelp.NewProgress("counting", 5)
for i := 1; i <= 5; i++ {
	pr.Set(i)
}
pr.Done()"""),
]

# Fixed cell ids keep the file identical when regenerated.
for i, cell in enumerate(cells):
    cell.id = f"smoke-{i}"

nb = new_notebook(
    cells=cells,
    metadata={
        "kernelspec": {"name": "gonb", "display_name": "Go (gonb)", "language": "go"},
        "language_info": {"name": "go", "file_extension": ".go", "mimetype": "text/x-go"},
    },
)
nbformat.validate(nb)
nbformat.write(nb, "notebooks/00-smoke.ipynb")
