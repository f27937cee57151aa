package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/nbhelp"
)

// TestExplorerLive runs notebooks/40-explorer in a live Jupyter server with
// the GoNB kernel, in headless Chromium: it waits for the explorer's
// controls, changes the stratum select and the status-skill slider, and
// after each change asserts that the page's table shows, cell for cell,
// what the library computes for those settings (lab.Explorer.View);
// it steps the drill-down, saves a screenshot of the explorer as
// figures/explorer.png, presses Stop and checks that no cell failed.
func TestExplorerLive(t *testing.T) {
	RequireChromium(t)
	RequireJupyter(t)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	// A copy in a temporary folder, so that the live server cannot save
	// outputs into the committed notebook. Its first cell finds the module
	// at ${GONB_DIR}/..; the copy finds it at ${ESRKIT_ROOT}, which
	// StartJupyter gives the kernel. Nothing else changes.
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(root, "notebooks", "40-explorer.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "go work use . ${GONB_DIR}/..") {
		t.Fatal("40-explorer's first cell no longer reads `go work use . ${GONB_DIR}/..`: update this test")
	}
	src = []byte(strings.Replace(string(src), "${GONB_DIR}/..", "${ESRKIT_ROOT}", 1))
	if err := os.WriteFile(filepath.Join(dir, "40-explorer.ipynb"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Type   string          `json:"cell_type"`
			Source json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(src, &nb); err != nil {
		t.Fatal(err)
	}
	exploreCell := -1
	for i, c := range nb.Cells {
		if c.Type == "code" && strings.Contains(string(c.Source), "nbhelp.Explore(") {
			exploreCell = i
		}
	}
	if exploreCell < 0 {
		t.Fatal("40-explorer has no cell calling nbhelp.Explore")
	}

	b, err := bench.Load(filepath.Join(root, "data", "synthetic"))
	if err != nil {
		t.Fatal(err)
	}
	ex := lab.NewExplorer(b)

	j := StartJupyterT(t, ctx, dir)
	br := NewT(t, ctx)
	br.Ignore(gonbNoise...)
	if err := br.Navigate(j.URL("40-explorer.ipynb")); err != nil {
		t.Fatal(err)
	}
	if err := br.WaitKernel(2 * time.Minute); err != nil {
		t.Fatal(err)
	}
	// Replay the handshake failure a loaded machine produces (GoNB's script
	// waits 500 ms for the kernel's comm_open_ack, then closes its socket
	// while the kernel believes it is connected): the page drops the
	// acknowledgement on the first GoNB socket, so the explorer must get its
	// controls up on a second connection.
	if err := br.Do(dropFirstCommAck); err != nil {
		t.Fatal(err)
	}
	br.Ignore("comm_open_ack not received in time")
	start := time.Now()
	for i := 0; i <= exploreCell; i++ {
		if err := br.RunCell(i); err != nil {
			t.Fatal(err)
		}
		if i < exploreCell {
			if err := br.WaitCell(i, 2*time.Minute); err != nil {
				t.Fatalf("cell %d: %v\n%s", i, err, br.CellReport())
			}
		}
	}
	if errs := br.CellErrors(); len(errs) > 0 {
		t.Fatalf("cells before the explorer failed:\n%s", strings.Join(errs, "\n"))
	}

	// check waits for the view of s, then compares every table cell and
	// the sentence with the library's view for s.
	check := func(what string, s lab.Settings) {
		t.Helper()
		key := nbhelp.ExploreKey(s)
		if err := br.WaitJS(fmt.Sprintf(`(() => { const v = document.getElementById(%q); return !!v && v.dataset.key === %q })()`,
			nbhelp.ExploreViewID, key), 2*time.Minute); err != nil {
			got, _ := Eval[string](br, fmt.Sprintf(`(document.getElementById(%q) || {dataset: {}}).dataset.key || ""`, nbhelp.ExploreViewID))
			t.Fatalf("%s: the view never showed %q (it shows %q): %v\n%s", what, key, got, err, br.CellReport())
		}
		v, err := ex.View(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Eval[[][]string](br, fmt.Sprintf(`Array.from(document.querySelectorAll("#%s table tbody tr")).map(r => Array.from(r.cells).map(c => c.innerText.trim()))`, nbhelp.ExploreViewID))
		if err != nil {
			t.Fatal(err)
		}
		want := v.Table().Texts()
		if len(got) != len(want) {
			t.Fatalf("%s: page table has %d rows, library %d:\npage %v\nlibrary %v", what, len(got), len(want), got, want)
		}
		for i := range want {
			if !slices.Equal(got[i], want[i]) {
				t.Errorf("%s: row %d\npage    %q\nlibrary %q", what, i, got[i], want[i])
			}
		}
		sentence, err := Eval[string](br, fmt.Sprintf(`document.querySelector("#%s .esr-explorer-sentence").innerText`, nbhelp.ExploreViewID))
		if err != nil || strings.TrimSpace(sentence) != v.Sentence() {
			t.Errorf("%s: sentence\npage    %q\nlibrary %q (%v)", what, sentence, v.Sentence(), err)
		}
	}

	s := lab.DefaultSettings()
	check("opening view", s)
	t.Logf("explorer up %.1fs after the first cell", time.Since(start).Seconds())

	// The stratum select: its option values are indices.
	opts, err := Eval[[]string](br, `Array.from(document.querySelectorAll("#esr-explorer-stratum option")).map(o => o.textContent)`)
	if err != nil {
		t.Fatal(err)
	}
	idx := slices.Index(opts, string(esr.Monotonic))
	if idx < 0 {
		t.Fatalf("stratum options %v lack %s", opts, esr.Monotonic)
	}
	changed := time.Now()
	if err := br.SetSelect("#esr-explorer-stratum", fmt.Sprint(idx)); err != nil {
		t.Fatal(err)
	}
	s.Stratum = string(esr.Monotonic)
	check("stratum → monotonic", s)
	t.Logf("stratum change redrawn in %.2fs", time.Since(changed).Seconds())

	changed = time.Now()
	if err := br.SetRange("#esr-explorer-"+sim.Status, 20); err != nil {
		t.Fatal(err)
	}
	if s, err = s.WithCapability(sim.Status, 0.2); err != nil {
		t.Fatal(err)
	}
	check("status skill → 0.2", s)
	t.Logf("slider change redrawn in %.2fs", time.Since(changed).Seconds())

	qids, err := ex.QIDs(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := br.Click("#esr-explorer-next", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := br.WaitJS(fmt.Sprintf(`(() => { const d = document.getElementById(%q); return !!d && d.dataset.qid === %q })()`, nbhelp.ExploreDrillID, qids[1]), time.Minute); err != nil {
		got, _ := Eval[string](br, fmt.Sprintf(`(document.getElementById(%q) || {dataset: {}}).dataset.qid || ""`, nbhelp.ExploreDrillID))
		br.Screenshot(filepath.Join(ShotDir(t), "explorer-next-failed.png"))
		t.Fatalf("next ▶ did not drill into %s (the drill-down shows %q): %v", qids[1], got, err)
	}
	marks, err := Eval[int](br, fmt.Sprintf(`document.querySelectorAll("#%s mark").length`, nbhelp.ExploreDrillID))
	if err != nil || marks == 0 {
		t.Errorf("drill-down highlights nothing (%d marks, %v)", marks, err)
	}

	// The screenshot for the README: the explorer cell with its controls and
	// view, the output unscrolled and the (long) drill-down hidden for it.
	if err := br.Do(fmt.Sprintf(`(() => {
		const cell = document.getElementById(%q).closest(".cell");
		cell.id = "esr-explorer-cell";
		Jupyter.notebook.get_cell(%d).output_area.unscroll_area();
		document.getElementById(%q).style.display = "none";
	})()`, nbhelp.ExploreViewID, exploreCell, nbhelp.ExploreDrillID)); err != nil {
		t.Fatal(err)
	}
	h, err := Eval[int64](br, `Math.ceil(document.getElementById("esr-explorer-cell").getBoundingClientRect().height) + 400`)
	if err != nil {
		t.Fatal(err)
	}
	if err := br.SetViewport(WindowWidth, max(h, WindowHeight)); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(root, "figures", "explorer.png")
	if err := br.ScreenshotElement("#esr-explorer-cell", shot, 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := br.SetViewport(WindowWidth, WindowHeight); err != nil {
		t.Fatal(err)
	}
	if err := br.Do(fmt.Sprintf(`document.getElementById(%q).style.display = ""`, nbhelp.ExploreDrillID)); err != nil {
		t.Fatal(err)
	}

	if err := br.Click("#esr-explorer-stop", 10*time.Second); err != nil {
		t.Fatal(err)
	}
	if err := br.WaitCell(exploreCell, time.Minute); err != nil {
		t.Fatalf("Stop did not end the explorer cell: %v\n%s", err, br.CellReport())
	}
	if errs := br.CellErrors(); len(errs) > 0 {
		t.Errorf("cell errors:\n%s", strings.Join(errs, "\n"))
	}
	if p := br.Problems(); len(p) > 0 {
		t.Errorf("page problems:\n%s", strings.Join(p, "\n"))
	}
	checkHandshakeReplayed(t, br)
}

// dropFirstCommAck wraps the page's WebSocket constructor so that the first
// socket opened after it (GoNB's gonb_comm: Jupyter's own sockets are open
// by then) never delivers the "#comm_open_ack" message; window.esrDroppedAcks
// counts what it dropped.
const dropFirstCommAck = `(() => {
	const Real = window.WebSocket;
	const onmessage = Object.getOwnPropertyDescriptor(Real.prototype, "onmessage");
	let first = true;
	function Wrapped(url, protocols) {
		const ws = protocols === undefined ? new Real(url) : new Real(url, protocols);
		if (first) {
			first = false;
			Object.defineProperty(ws, "onmessage", {
				get() { return onmessage.get.call(ws); },
				set(f) {
					onmessage.set.call(ws, (ev) => {
						if (typeof ev.data === "string" && ev.data.includes("#comm_open_ack")) {
							window.esrDroppedAcks = (window.esrDroppedAcks || 0) + 1;
							return;
						}
						return f(ev);
					});
				},
			});
		}
		return ws;
	}
	Wrapped.prototype = Real.prototype;
	for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Wrapped[k] = Real[k];
	window.WebSocket = Wrapped;
})()`
