package sim_test

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/regfile"
	"github.com/esrkit/esrkit/internal/regfile/regfiletest"
)

// A calibration file (esr calibrate --calibration, sim:@FILE#NAME) must
// be a regular file: a FIFO, whose open used to wait for a writer forever,
// and a link to /dev/zero are errors naming the path, returned at once.
func TestLoadCalibrationRefusesAFIFOAndADevice(t *testing.T) {
	dir := t.TempDir()
	fifo, zero := filepath.Join(dir, "cal.fifo"), filepath.Join(dir, "cal.zero")
	regfiletest.FIFO(t, fifo)
	regfiletest.ZeroLink(t, zero)
	for _, p := range []string{fifo, zero} {
		err := regfiletest.Within(t, 10*time.Second, func() error {
			_, err := sim.LoadCalibration(p)
			return err
		}, fifo)
		if !errors.Is(err, regfile.ErrNotRegular) {
			t.Errorf("%s: err = %v, want not a regular file", filepath.Base(p), err)
		}
	}
}
