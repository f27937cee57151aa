package goldenimg_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/cmpimg"

	"github.com/esrkit/esrkit/internal/goldenimg"
	"github.com/esrkit/esrkit/internal/report"
)

// sample is a small bar plot; value moves its middle bar.
func sample(title string, value float64) *plot.Plot {
	return report.BarPlot(title, "accuracy", []report.IntervalPoint{
		{Label: "coarse-discard", Est: 0.25, Lo: 0.2, Hi: 0.3},
		{Label: "graphrag-abstain", Est: value, Lo: value - 0.05, Hi: value + 0.05, Paper: 0.439, HasPaper: true},
		{Label: "fine-ledger", Est: 0.7, Lo: 0.65, Hi: 0.75},
	})
}

func render(t *testing.T, p *plot.Plot) []byte {
	t.Helper()
	b, err := goldenimg.Render(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The same figure renders to the same bytes twice (gonum/plot embeds its
// fonts and rasterises in Go), and matches its committed reference.
func TestRenderIsByteStable(t *testing.T) {
	a, b := render(t, sample("sample", 0.45)), render(t, sample("sample", 0.45))
	if !bytes.Equal(a, b) {
		t.Fatal("two renders of one figure differ")
	}
	goldenimg.Check(t, sample("sample", 0.45), "sample")
}

// The comparison reports a changed title, a value moved by 0.01 (about 4
// pixels on this axis) and a changed size; it accepts the figure itself.
func TestComparisonNoticesChanges(t *testing.T) {
	base := render(t, sample("sample", 0.45))
	if ok, err := goldenimg.Equal(base, base); !ok || err != nil {
		t.Fatalf("a figure differs from itself (%v)", err)
	}
	small, err := report.PNG(sample("sample", 0.45), report.FigureWidth, report.FigureHeight, report.FigureDPI/2)
	if err != nil {
		t.Fatal(err)
	}
	for name, changed := range map[string][]byte{
		"title":  render(t, sample("sample.", 0.45)),
		"value":  render(t, sample("sample", 0.46)),
		"size":   small,
		"titled": render(t, sample("Sample", 0.45)),
	} {
		ok, err := goldenimg.Equal(changed, base)
		if err != nil {
			t.Fatal(err)
		}
		d, n, total, err := goldenimg.Distance(changed, base)
		if err != nil {
			t.Fatal(err)
		}
		if ok || n == 0 {
			t.Errorf("%s changed: Equal %v, %d of %d pixels beyond Delta", name, ok, n, total)
		}
		t.Logf("%s changed: %d of %d pixels beyond Delta, largest distance %.3f", name, n, total, d)
	}
}

// Distance's largest distance is exactly where cmpimg.EqualApprox switches
// from false to true, and it counts no pixel beyond Delta exactly when
// EqualApprox(Delta) holds.
func TestDistanceAgreesWithCmpimg(t *testing.T) {
	base := render(t, sample("sample", 0.45))
	for _, v := range []float64{0.45, 0.451, 0.46, 0.6} {
		got := render(t, sample("sample", v))
		d, n, _, err := goldenimg.Distance(got, base)
		if err != nil {
			t.Fatal(err)
		}
		atDelta, _ := cmpimg.EqualApprox("png", got, base, goldenimg.Delta)
		if atDelta != (n == 0) {
			t.Errorf("value %g: EqualApprox(Delta) %v but %d pixels beyond Delta", v, atDelta, n)
		}
		atD, _ := cmpimg.EqualApprox("png", got, base, d)
		if !atD {
			t.Errorf("value %g: EqualApprox(%g) false at the largest distance", v, d)
		}
		if d > 0 {
			below, _ := cmpimg.EqualApprox("png", got, base, d*0.999)
			if below {
				t.Errorf("value %g: EqualApprox(%g) true below the largest distance %g", v, d*0.999, d)
			}
		}
	}
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed bool
	msg    string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }
func (r *recorder) Fatal(args ...any)                 { r.Errorf("%s", fmt.Sprint(args...)) }
func (r *recorder) Logf(string, ...any)               {}

// Check fails on a changed figure, names the pixels and writes what it
// rendered and the difference; CheckDiffers fails on the unchanged one.
func TestCheckFailsOnChangedFigure(t *testing.T) {
	if *goldenimg.Update {
		t.Skip("rewriting references")
	}
	dir := t.TempDir()
	old := goldenimg.FailedDir
	goldenimg.FailedDir = dir
	defer func() { goldenimg.FailedDir = old }()

	r := &recorder{TB: t}
	goldenimg.Check(r, sample("sample", 0.46), "sample")
	if !r.failed || !strings.Contains(r.msg, "pixels beyond Delta") {
		t.Errorf("Check on a moved bar: failed %v, %q", r.failed, r.msg)
	}
	for _, f := range []string{"sample.png", "sample.diff.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("no %s after a failure: %v", f, err)
		}
	}
	r = &recorder{TB: t}
	goldenimg.CheckDiffers(r, sample("sample", 0.45), "sample")
	if !r.failed {
		t.Error("CheckDiffers accepted the unchanged figure")
	}
	r = &recorder{TB: t}
	goldenimg.CheckDiffers(r, sample("sample", 0.46), "sample")
	if r.failed {
		t.Errorf("CheckDiffers on a moved bar: %s", r.msg)
	}
	r = &recorder{TB: t}
	goldenimg.Check(r, sample("sample", 0.45), "no-such-figure")
	if !r.failed || !strings.Contains(r.msg, "-update-golden") {
		t.Errorf("Check without a reference: failed %v, %q", r.failed, r.msg)
	}
}
