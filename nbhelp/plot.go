package nbhelp

import (
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
	Width  = 16 * vg.Centimeter
	Height = 10 * vg.Centimeter
)

// FiguresDir is the folder, relative to [Root], that [SaveFigure] writes to.
const FiguresDir = "figures"

// PlotSVG renders p as an SVG document of size w×h (report.SVG).
func PlotSVG(p *plot.Plot, w, h vg.Length) (string, error) {
	b, err := report.SVG(p, w, h)
	return string(b), err
}

// PlotPNG renders p as a PNG image of size w×h at dpi dots per inch (96 if
// dpi <= 0; report.PNG).
func PlotPNG(p *plot.Plot, w, h vg.Length, dpi int) ([]byte, error) { return report.PNG(p, w, h, dpi) }

// inlineSVG strips what precedes the <svg> element (XML declaration, comments) so
// that the document can sit inside HTML.
func inlineSVG(svg string) string {
	if i := strings.Index(svg, "<svg"); i > 0 {
		svg = svg[i:]
	}
	return "<div>" + svg + "</div>"
}

// ShowPlot displays p inline as SVG, at [Width]×[Height].
func ShowPlot(p *plot.Plot) error {
	svg, err := PlotSVG(p, Width, Height)
	if err != nil {
		return err
	}
	out.HTML(inlineSVG(svg))
	return nil
}

// ShowPlotPNG displays p inline as a PNG, at [Width]×[Height] and 96 dpi.
func ShowPlotPNG(p *plot.Plot) error {
	png, err := PlotPNG(p, Width, Height, 96)
	if err != nil {
		return err
	}
	out.PNG(png)
	return nil
}

// SaveFigure writes p to figures/NAME.png and figures/NAME.svg under [Root]
// with report.SaveFigure, creating figures/ if needed. It returns the two
// paths.
func SaveFigure(p *plot.Plot, name string) (pngPath, svgPath string, err error) {
	root, err := FindRoot()
	if err != nil {
		return "", "", err
	}
	return SaveFigureIn(filepath.Join(root, FiguresDir), p, name)
}

// SaveFigureIn is [SaveFigure] writing to dir instead of figures/; it is
// report.SaveFigure, the kit's one figure saver.
func SaveFigureIn(dir string, p *plot.Plot, name string) (pngPath, svgPath string, err error) {
	return report.SaveFigure(p, dir, name)
}
