package report

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

	"github.com/esrkit/esrkit/internal/safefile"
)

// Figure size and PNG resolution of every saved figure (notebooks and
// `esr run` alike). Change them before saving for another size.
var (
	FigureWidth  = 16 * vg.Centimeter
	FigureHeight = 10 * vg.Centimeter
	FigureDPI    = 150
)

// SaveFigure is the kit's one figure saver: it writes p as dir/NAME.png (at
// FigureDPI) and dir/NAME.svg, FigureWidth × FigureHeight, creating dir if
// needed. Each file is written to a temporary file and renamed into place,
// so an interrupted run never leaves a truncated figure. name must be a
// plain file name (a .png or .svg suffix is dropped).
func SaveFigure(p *plot.Plot, dir, name string) (pngPath, svgPath string, err error) {
	if name == "" || name != filepath.Base(name) || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return "", "", fmt.Errorf("report: figure name %q must be a plain file name without folders", name)
	}
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".png"), ".svg")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", fmt.Errorf("report: %w", err)
	}
	png, err := PNG(p, FigureWidth, FigureHeight, FigureDPI)
	if err != nil {
		return "", "", err
	}
	svg, err := SVG(p, FigureWidth, FigureHeight)
	if err != nil {
		return "", "", err
	}
	pngPath, svgPath = filepath.Join(dir, name+".png"), filepath.Join(dir, name+".svg")
	if err := writeFileAtomic(pngPath, png); err != nil {
		return "", "", err
	}
	if err := writeFileAtomic(svgPath, svg); err != nil {
		return "", "", err
	}
	return pngPath, svgPath, nil
}

// PNG renders p as a PNG image of size w×h at dpi dots per inch (96 if dpi <= 0).
func PNG(p *plot.Plot, w, h vg.Length, dpi int) ([]byte, error) {
	if dpi <= 0 {
		dpi = 96
	}
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi))}
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("report: encoding PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// SVG renders p as an SVG document of size w×h.
func SVG(p *plot.Plot, w, h vg.Length) ([]byte, error) {
	wt, err := p.WriterTo(w, h, "svg")
	if err != nil {
		return nil, fmt.Errorf("report: rendering svg: %w", err)
	}
	var buf bytes.Buffer
	if _, err := wt.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("report: rendering svg: %w", err)
	}
	return buf.Bytes(), nil
}

// writeFileAtomic writes data beside path and renames it into place.
func writeFileAtomic(path string, data []byte) error {
	if err := safefile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
