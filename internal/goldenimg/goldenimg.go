// Package goldenimg tests figures against reference PNGs, gonum/plot's way
// (its cmpimg package and testdata/*_golden.png): a test renders a
// *plot.Plot with the kit's renderer at the size the kit saves figures
// (report.PNG at report.FigureWidth × report.FigureHeight, at DPI) and
// compares it with testdata/golden/NAME.png of its package, pixel by
// pixel, within Delta.
//
// Run a package's tests with -update-golden to rewrite its references
// after an intended change, and review the new PNGs before committing:
//
//	go test ./esr/lab -run Golden -update-golden
//
// It is for tests only: importing it registers the -update-golden flag.
package goldenimg

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/cmpimg"

	"github.com/esrkit/esrkit/internal/report"
)

// Update rewrites the references instead of comparing with them.
var Update = flag.Bool("update-golden", false, "rewrite the reference PNGs under testdata/golden/ instead of comparing with them")

// Delta is the tolerance of the comparison, cmpimg.EqualApprox's
// normalised per-pixel distance in the YIQ colour space (0: identical,
// 1: black against white): every pixel must lie within it. 0.01 is about
// 2.6 grey levels of 255. Measured on this kit's references: a build with
// fused multiply-adds (GOAMD64=v3, as arm64 always fuses) moves
// antialiased pixels of one figure by at most 0.0038 (one grey level; 386
// and amd64 v1 render byte-identical PNGs), while the subtlest change the
// tests plant, one heat-map cell's value moved by 0.02 with its label
// unchanged, is 0.028 away; a moved glyph, line, bar or letter is 0.5 to
// 1. A tolerance of 0 would fail on another architecture, and one above
// 0.028 would miss a colour change.
const Delta = 0.01

// Dir is the folder of the references, relative to the test's package.
var Dir = filepath.Join("testdata", "golden")

// FailedDir is where a failing comparison writes what it rendered
// (NAME.png) and the scaled difference (NAME.diff.png), for review; it is
// ignored by git.
var FailedDir = filepath.Join("testdata", "golden", "failed")

// DPI is the references' resolution: the kit's inline PNGs' (nbhelp's
// ShowPlotPNG), below report.FigureDPI's 150 to keep the committed PNGs
// near 30 KB. gonum/plot lays a figure out in lengths, not pixels, so the
// layout checked is the saved figure's; only the rasterisation is coarser.
const DPI = 96

// Render renders p with the kit's renderer at the size it saves figures:
// report.PNG at report.FigureWidth × report.FigureHeight and DPI.
func Render(p *plot.Plot) ([]byte, error) {
	return report.PNG(p, report.FigureWidth, report.FigureHeight, DPI)
}

// Path is the reference PNG of name ("provenance-plot" → testdata/golden/provenance-plot.png).
func Path(name string) string { return filepath.Join(Dir, name+".png") }

// Equal reports whether the PNG images got and want have the same size
// and every pixel within Delta (cmpimg.EqualApprox).
func Equal(got, want []byte) (bool, error) { return cmpimg.EqualApprox("png", got, want, Delta) }

// Compare renders p and compares it with the reference of name. It
// returns the rendered PNG and whether it matches; an error means the
// figure could not be rendered or the reference read.
func Compare(p *plot.Plot, name string) (got []byte, ok bool, err error) {
	got, err = Render(p)
	if err != nil {
		return nil, false, err
	}
	want, err := os.ReadFile(Path(name))
	if err != nil {
		return got, false, fmt.Errorf("%w (run the test with -update-golden to create it)", err)
	}
	ok, err = Equal(got, want)
	if err != nil {
		return got, false, fmt.Errorf("comparing with %s: %w", Path(name), err)
	}
	return got, ok, nil
}

// Check renders p and fails t unless it matches testdata/golden/NAME.png;
// with -update-golden it writes the reference instead. On a mismatch it
// writes the rendered figure and the difference under FailedDir and names
// them, and how many pixels differ by more than Delta; a match that is not
// byte for byte is logged with its largest distance.
func Check(t testing.TB, p *plot.Plot, name string) {
	t.Helper()
	// A figure must read at a glance before its pixels are compared.
	for _, problem := range report.FigureProblems(p, report.FigureWidth, report.FigureHeight) {
		t.Errorf("%s: %s", name, problem)
	}
	if name == "" || name != filepath.Base(name) || strings.HasSuffix(name, ".png") {
		t.Fatalf("goldenimg: %q must be a plain name without folders or .png", name)
		return
	}
	if *Update {
		got, err := Render(p)
		if err == nil {
			err = os.MkdirAll(Dir, 0o755)
		}
		if err == nil {
			err = os.WriteFile(Path(name), got, 0o644)
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
			return
		}
		t.Logf("wrote %s (%d bytes)", Path(name), len(got))
		return
	}
	got, ok, err := Compare(p, name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
		return
	}
	if ok {
		// Within Delta but not the same bytes (another architecture's
		// floating point): say how far, so the tolerance can be reviewed.
		if want, err := os.ReadFile(Path(name)); err == nil && !bytes.Equal(got, want) {
			if d, _, _, err := Distance(got, want); err == nil {
				t.Logf("%s: matches %s within Delta %g, not byte for byte (largest distance %.4f)", name, Path(name), Delta, d)
			}
		}
		return
	}
	msg := fmt.Sprintf("%s: figure differs from %s", name, Path(name))
	if want, err := os.ReadFile(Path(name)); err == nil {
		if d, n, total, err := Distance(got, want); err == nil {
			msg += fmt.Sprintf(" (%d of %d pixels beyond Delta %g, largest distance %.3f)", n, total, Delta, d)
		}
		if err := writeFailure(name, got, want); err == nil {
			msg += fmt.Sprintf("; got %s, difference %s", filepath.Join(FailedDir, name+".png"), filepath.Join(FailedDir, name+".diff.png"))
		}
	}
	t.Errorf("%s; if the change is intended, rerun with -update-golden and review the PNG", msg)
}

// CheckDiffers fails t if p, a deliberately changed version of the figure
// whose reference is name, matches that reference: the comparison must
// notice the change, or Check proves nothing. It does nothing under
// -update-golden.
func CheckDiffers(t testing.TB, p *plot.Plot, name string) {
	t.Helper()
	if *Update {
		return
	}
	got, ok, err := Compare(p, name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
		return
	}
	if ok {
		t.Errorf("%s: a changed figure matches %s within Delta %g: the comparison would not notice the change", name, Path(name), Delta)
		return
	}
	want, err := os.ReadFile(Path(name))
	if err != nil {
		t.Fatal(err)
		return
	}
	if d, n, _, err := Distance(got, want); err == nil {
		t.Logf("%s: the changed figure differs in %d pixels (largest distance %.3f, Delta %g)", name, n, d, Delta)
	}
}

// Distance measures how far got is from want: the largest per-pixel
// distance, normalised like Delta (so cmpimg.EqualApprox(got, want, d)
// holds exactly when d >= max), and the number of pixels beyond Delta out
// of total. Images of different sizes are apart by 1 at every pixel. The
// distance is cmpimg's (YIQ, Kotsarenko & Ramos), recomputed here because
// cmpimg only says yes or no; TestDistanceAgreesWithCmpimg holds the two
// together.
func Distance(got, want []byte) (max float64, n, total int, err error) {
	a, b, err := decode(got, want)
	if err != nil {
		return 0, 0, 0, err
	}
	r := a.Bounds()
	total = r.Dx() * r.Dy()
	if r != b.Bounds() {
		return 1, total, total, nil
	}
	var worst float64
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			d := yiq(a.At(x, y), b.At(x, y))
			worst = math.Max(worst, d)
			if d > Delta*Delta*yiqMax {
				n++
			}
		}
	}
	return math.Sqrt(worst / yiqMax), n, total, nil
}

// yiqMax is cmpimg's squared distance between black and white.
const yiqMax = 35215.0

// yiq is cmpimg's squared YIQ distance between two colours (8-bit
// channels, alpha ignored; the figures are opaque).
func yiq(c1, c2 color.Color) float64 {
	p := color.RGBAModel.Convert(c1).(color.RGBA)
	q := color.RGBAModel.Convert(c2).(color.RGBA)
	r1, g1, b1 := float64(p.R), float64(p.G), float64(p.B)
	r2, g2, b2 := float64(q.R), float64(q.G), float64(q.B)
	y := (r1*0.29889531 + g1*0.58662247 + b1*0.11448223) - (r2*0.29889531 + g2*0.58662247 + b2*0.11448223)
	i := (r1*0.59597799 - g1*0.27417610 - b1*0.32180189) - (r2*0.59597799 - g2*0.27417610 - b2*0.32180189)
	q2 := (r1*0.21147017 - g1*0.52261711 + b1*0.31114694) - (r2*0.21147017 - g2*0.52261711 + b2*0.31114694)
	return 0.5053*y*y + 0.299*i*i + 0.1957*q2*q2
}

func decode(got, want []byte) (image.Image, image.Image, error) {
	a, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return nil, nil, fmt.Errorf("goldenimg: decoding the rendered figure: %w", err)
	}
	b, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		return nil, nil, fmt.Errorf("goldenimg: decoding the reference: %w", err)
	}
	return a, b, nil
}

// writeFailure writes the rendered figure and cmpimg.Diff of it and the
// reference under FailedDir.
func writeFailure(name string, got, want []byte) error {
	a, b, err := decode(got, want)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(FailedDir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(FailedDir, name+".png"), got, 0o644); err != nil {
		return err
	}
	dst := image.NewRGBA64(a.Bounds().Union(b.Bounds()))
	cmpimg.Diff(dst, a, b)
	var buf bytes.Buffer
	if err := png.Encode(&buf, dst); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(FailedDir, name+".diff.png"), buf.Bytes(), 0o644)
}
