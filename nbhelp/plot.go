package nbhelp

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/esrkit/esrkit/internal/report"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Default size of figures shown inline. Saved figures use the one saver,
// report.SaveFigure, at report.FigureWidth × report.FigureHeight and
// report.FigureDPI.
var (
	width  = 16 * vg.Centimeter
	height = 10 * vg.Centimeter
)

// figuresDir is the folder, relative to [Root], that [SaveFigure] writes to.
const figuresDir = "figures"

// plotSVG renders p as an SVG document of size w×h (report.SVG).
func plotSVG(p *plot.Plot, w, h vg.Length) (string, error) {
	b, err := report.SVG(p, w, h)
	return string(b), err
}

// plotPNG renders p as a PNG image of size w×h at dpi dots per inch (96 if
// dpi <= 0; report.PNG).
func plotPNG(p *plot.Plot, w, h vg.Length, dpi int) ([]byte, error) { return report.PNG(p, w, h, dpi) }

// inlineSVG strips what precedes the <svg> element (XML declaration, comments) so
// that the document can sit inside HTML.
func inlineSVG(svg string) string {
	if i := strings.Index(svg, "<svg"); i > 0 {
		svg = svg[i:]
	}
	return "<div>" + svg + "</div>"
}

// showPlot displays p inline as SVG, at [width]×[height].
func showPlot(p *plot.Plot) error {
	svg, err := plotSVG(p, width, height)
	if err != nil {
		return err
	}
	out.HTML(inlineSVG(svg))
	return nil
}

// showPlotPNG displays p inline as a PNG, at [width]×[height] and 96 dpi.
func showPlotPNG(p *plot.Plot) error {
	png, err := plotPNG(p, width, height, 96)
	if err != nil {
		return err
	}
	out.PNG(png)
	return nil
}

// FiguresEnv, when set, names the folder [SaveFigure] writes to instead of
// figures/ under [Root]. The exercise runs (TestExercisesRunAsAStudentDoes)
// set it to their own temporary folder: a notebook run with a student's
// edit writes its figures there, not over the repository's.
const FiguresEnv = "ESRKIT_FIGURES"

// SaveFigure writes p to figures/NAME.png and figures/NAME.svg under [Root]
// (or under $ESRKIT_FIGURES, FiguresEnv) with report.SaveFigure, creating
// the folder if needed. It returns the two paths.
func SaveFigure(p *plot.Plot, name string) (pngPath, svgPath string, err error) {
	if dir := os.Getenv(FiguresEnv); dir != "" {
		return saveFigureIn(dir, p, name)
	}
	root, err := findRoot()
	if err != nil {
		return "", "", err
	}
	return saveFigureIn(filepath.Join(root, figuresDir), p, name)
}

// saveFigureIn is [SaveFigure] writing to dir instead of figures/; it is
// report.SaveFigure, the kit's one figure saver.
func saveFigureIn(dir string, p *plot.Plot, name string) (pngPath, svgPath string, err error) {
	return report.SaveFigure(p, dir, name)
}

// figureWarnings receives what the figure check still finds in a figure
// [Figure] or [FigureRow] saves: the cell's stderr, so the author sees it
// under the figure.
var figureWarnings io.Writer = os.Stderr

// fitFigure fits p to w × h (report.Fit: wrapped title and labels, a
// legend moved off the data) and writes what report.FigureProblems still
// finds, one line per problem, to figureWarnings.
func fitFigure(p *plot.Plot, name string, w, h vg.Length) {
	report.Fit(p, w, h)
	for _, pr := range report.FigureProblems(p, w, h) {
		fmt.Fprintf(figureWarnings, "figure check, %s: %s\n", name, pr)
	}
}
