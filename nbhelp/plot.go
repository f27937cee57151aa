package nbhelp

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Default figure size and the resolution of saved PNG files. Notebooks may change them.
var (
	Width     = 16 * vg.Centimeter
	Height    = 10 * vg.Centimeter
	FigureDPI = 150
)

// FiguresDir is the folder, relative to [Root], that [SaveFigure] writes to.
const FiguresDir = "figures"

// PlotSVG renders p as an SVG document of size w×h.
func PlotSVG(p *plot.Plot, w, h vg.Length) (string, error) {
	b, err := render(p, w, h, "svg")
	return string(b), err
}

// PlotPNG renders p as a PNG image of size w×h at dpi dots per inch (96 if dpi <= 0).
func PlotPNG(p *plot.Plot, w, h vg.Length, dpi int) ([]byte, error) {
	if dpi <= 0 {
		dpi = 96
	}
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))}
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("nbhelp: encoding PNG: %w", err)
	}
	return buf.Bytes(), nil
}

func render(p *plot.Plot, w, h vg.Length, format string) ([]byte, error) {
	wt, err := p.WriterTo(w, h, format)
	if err != nil {
		return nil, fmt.Errorf("nbhelp: rendering %s: %w", format, err)
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("nbhelp: rendering %s: %w", format, err)
	}
	return buf.Bytes(), nil
}

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

// SaveFigure writes p to figures/NAME.png (at [FigureDPI]) and figures/NAME.svg under
// [Root], at [Width]×[Height], creating figures/ if needed. It returns the two paths.
func SaveFigure(p *plot.Plot, name string) (pngPath, svgPath string, err error) {
	root, err := FindRoot()
	if err != nil {
		return "", "", err
	}
	return SaveFigureIn(filepath.Join(root, FiguresDir), p, name)
}

// SaveFigureIn is [SaveFigure] writing to dir instead of figures/.
func SaveFigureIn(dir string, p *plot.Plot, name string) (pngPath, svgPath string, err error) {
	if name == "" || name != filepath.Base(name) || name == "." || name == ".." ||
		strings.ContainsAny(name, `/\`) {
		return "", "", fmt.Errorf("nbhelp: figure name %q must be a plain file name without folders", name)
	}
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".png"), ".svg")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", fmt.Errorf("nbhelp: %w", err)
	}
	png, err := PlotPNG(p, Width, Height, FigureDPI)
	if err != nil {
		return "", "", err
	}
	svg, err := render(p, Width, Height, "svg")
	if err != nil {
		return "", "", err
	}
	pngPath = filepath.Join(dir, name+".png")
	svgPath = filepath.Join(dir, name+".svg")
	if err := writeFileAtomic(pngPath, png); err != nil {
		return "", "", err
	}
	if err := writeFileAtomic(svgPath, svg); err != nil {
		return "", "", err
	}
	return pngPath, svgPath, nil
}

// writeFileAtomic writes data to a temporary file beside path and renames it into
// place, so that an interrupted run never leaves a truncated figure.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("nbhelp: %w", err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp, 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("nbhelp: writing %s: %w", path, werr)
	}
	return nil
}
