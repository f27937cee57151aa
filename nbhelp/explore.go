package nbhelp

import (
	"fmt"
	"html"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/esrkit/esrkit/esr/lab"

	"github.com/janpfeifer/gonb/gonbui"
	"github.com/janpfeifer/gonb/gonbui/comms"
	"github.com/janpfeifer/gonb/gonbui/dom"
	"github.com/janpfeifer/gonb/gonbui/widgets"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/memory"
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/esr/reader/sim"
	"github.com/esrkit/esrkit/internal/report"
)

// nonInteractiveEnv is the environment variable that marks a run with no
// browser on the other side (scripts/run-notebooks.sh sets it for `make
// reproduce` and `make test`). GoNB's widgets wait for the browser's first
// update, so under headless nbconvert a widget cell would never return;
// with the variable set, [Explore] shows its view statically instead.
const nonInteractiveEnv = "ESRKIT_NONINTERACTIVE"

// interactive reports whether widgets can work: the program runs in a GoNB
// kernel and the run is not marked non-interactive.
func interactive() bool { return gonbui.IsNotebook && os.Getenv(nonInteractiveEnv) == "" }

// widgetWait bounds how long one attempt at the controls waits for the
// browser to answer them, and widgetAttempts how many attempts Explore makes
// before it falls back to the static view: a kernel driven without a
// browser (and without nonInteractiveEnv) must not hang.
//
// Why more than one: GoNB's browser script gives the kernel 500 ms to
// acknowledge its connection and otherwise closes it for good, while the
// kernel believes it is connected. On a loaded machine the acknowledgement
// can be late, and no control then ever answers. A new attempt starts
// after more than a second of silence, so the kernel probes the connection,
// finds it dead and installs the script again.
var (
	widgetWait     = 10 * time.Second
	widgetAttempts = 3
)

// Explore shows the render-confound explorer over ex, opened at s.
//
// Interactive: controls (stratum, query type, the comparisons, ledger
// format, a sim reader profile and its capabilities as sliders, relation
// noise, seed, ◀ ▶ through the questions, Stop), and below them the view
// (decomposition table, interval plot, generated sentence) and the drill-down
// of one question, both redrawn in place at every change. The extra readers
// (e.g. the scripted families) answer in the drill-down beside the sim
// reader. Stop ends the cell, leaving the last view in the notebook.
//
// Headless (see [nonInteractiveEnv]: the executed copies the report is made
// of): a note, the settings and the screenshot of the live explorer, not
// the view again (the notebook's cells above show it). Outside a notebook,
// or with no browser answering: the view and the first question's
// drill-down, statically, for s.
func Explore(ex *lab.Explorer, s lab.Settings, extra ...reader.Reader) error {
	if headless() {
		// The executed notebook already shows this view cell by cell above
		// the explorer: show where the controls would be, not the view again.
		out.HTML(`<p style="font-size:smaller"><i>This run has no browser (` + nonInteractiveEnv + ` is set, as ` +
			"<code>make reproduce</code> and <code>make test</code> do), so the controls are not shown; the view for these settings " +
			`is the one computed in the cells above. Open the notebook in Jupyter to move the controls; the live explorer ` +
			`looks like <code>figures/explorer.png</code> (a screenshot the browser test takes).</i></p>` + exploreSettingsHTML(s))
		if png, err := os.ReadFile(Path("figures", "explorer.png")); err == nil {
			out.PNG(png)
		}
		return exploreSmallMultiple(ex, s)
	}
	if !interactive() {
		return exploreStatic(ex, s, extra, 0, "Static view: this run is not in a notebook, so the controls are not shown.")
	}
	ui := &exploreUI{ex: ex, s: s, extra: extra}
	return ui.run()
}

// staticSweep is the capability and the values the static explorer sets
// side by side: the date-sorting skill, the slider that moves the render
// term most.
var staticSweep = struct {
	cap    string
	values []float64
}{sim.Date, []float64{0, 0.5, 1}}

// exploreSmallMultiple shows, without a kernel, what moving one slider
// does: the view at each of staticSweep's values side by side, with the
// sentence that reads them.
func exploreSmallMultiple(ex *lab.Explorer, s lab.Settings) error {
	sw, err := ex.SweepCapability(Ctx, s, staticSweep.cap, staticSweep.values)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<p><b>What the %s slider does</b> (every other setting as above):</p><div style="display:flex;gap:8px;flex-wrap:wrap">`, html.EscapeString(staticSweep.cap))
	for i, v := range sw.Views {
		p := v.Plot()
		p.Title.Text = fmt.Sprintf("%s = %g", staticSweep.cap, sw.Values[i])
		report.Fit(p, width*0.6, height*0.75)
		svg, err := plotSVG(p, width*0.6, height*0.75)
		if err != nil {
			return err
		}
		b.WriteString(`<div style="flex:1;min-width:260px">` + inlineSVG(svg) + `</div>`)
	}
	b.WriteString(`</div><p class="esr-explorer-sweep">` + html.EscapeString(sw.Sentence()) + `</p>`)
	out.HTML(b.String())
	return nil
}

// exploreStatic shows the view and the drill-down of question qi for s
// under a note.
func exploreStatic(ex *lab.Explorer, s lab.Settings, extra []reader.Reader, qi int, note string) error {
	out.HTML(`<p style="font-size:smaller"><i>` + note + `</i></p>` + exploreSettingsHTML(s))
	view, drill, err := exploreBlocks(ex, s, extra, qi)
	if err != nil {
		return err
	}
	out.HTML(view)
	out.HTML(drill)
	return nil
}

// exploreBlocks computes the view and the drill-down of question qi (wrapped
// into range) for s.
func exploreBlocks(ex *lab.Explorer, s lab.Settings, extra []reader.Reader, qi int) (view, drill string, err error) {
	v, err := ex.View(Ctx, s)
	if err != nil {
		return exploreErrorHTML(s, err), "", err
	}
	if view, err = exploreViewHTML(v); err != nil {
		return "", "", err
	}
	qids, err := ex.QIDs(s)
	if err != nil {
		return view, "", err
	}
	qi = ((qi % len(qids)) + len(qids)) % len(qids)
	w, err := ex.Drill(Ctx, s, qids[qi], extra...)
	if err != nil {
		return view, "", err
	}
	return view, fmt.Sprintf(`<div id="%s" data-qid="%s">%s</div>`, ExploreDrillID, html.EscapeString(w.QA.QID), DrillHTML(w, qi, len(qids))), nil
}

// ScriptedReaders are the scripted (deterministic, SIMULATED) reader
// families, for the explorer's drill-down (sim.AllScripted).
func ScriptedReaders() []reader.Reader { return sim.AllScripted() }

// The explorer's controls: selects over fixed options, sliders in percent
// (capabilities and noise) or units (row budget, seed).
var (
	exploreStrata  = append([]string{lab.AllStrata}, phenomenaNames()...)
	exploreQueries = []string{string(esr.Snapshot), string(esr.Provenance)}
	exploreSliders = []exploreSlider{
		{sim.Status, "status-reading skill", 0, 100, 100},
		{sim.Date, "date-sorting skill", 0, 100, 100},
		{sim.DateDecay, "date-sort decay per row", 0, 100, 100},
		{sim.Order, "reads newest-first order", 0, 100, 100},
		{sim.FirstRow, "first-row bias", 0, 100, 100},
		{sim.Abstain, "abstains on conflict", 0, 100, 100},
		{sim.Lapse, "lapse (answers another shown value)", 0, 100, 100},
		{sim.Rows, "row budget (0 = all)", 0, 20, 1},
		{"noise", "relation noise p", 0, 100, 100},
		{"seed", "seed", 1, 100, 1},
	}
)

// exploreSlider is a slider control: integer positions min..max, the value
// being position/scale.
type exploreSlider struct {
	key, label string
	min, max   int
	scale      float64
}

func phenomenaNames() []string {
	var out []string
	for _, p := range esr.Phenomena {
		out = append(out, string(p))
	}
	return out
}

func termSetNames() []string {
	var out []string
	for _, t := range lab.TermSets {
		out = append(out, t.Name)
	}
	return out
}

func profileNames() []string {
	var out []string
	for _, p := range append(sim.CalibratedProfiles(), sim.Profiles()...) {
		out = append(out, p.Name)
	}
	return append(out, lab.CustomProfile)
}

// value is the slider's value under s.
func (c exploreSlider) value(s lab.Settings) float64 {
	switch c.key {
	case "noise":
		return s.NoiseP
	case "seed":
		return float64(s.Seed)
	}
	x, _ := s.Reader.Get(c.key)
	return x
}

// apply returns s with the slider at position pos.
func (c exploreSlider) apply(s lab.Settings, pos int) (lab.Settings, error) {
	v := float64(pos) / c.scale
	switch c.key {
	case "noise":
		s.NoiseP = v
		return s, nil
	case "seed":
		s.Seed = uint64(pos)
		return s, nil
	}
	return s.WithCapability(c.key, v)
}

// exploreEvent is one control's new value.
type exploreEvent struct {
	key string
	v   int
}

// exploreUI is the live explorer: its settings, question index and widgets.
type exploreUI struct {
	ex    *lab.Explorer
	s     lab.Settings
	extra []reader.Reader
	qi    int
	drawn string // the settings and question last drawn

	selects map[string]*widgets.SelectBuilder
	sliders map[string]*widgets.SliderBuilder
	events  chan exploreEvent
	chans   []func()
}

const (
	exploreCtrlDisplay  = "esr_explorer_controls_display"
	exploreViewDisplay  = "esr_explorer_view_display"
	exploreDrillDisplay = "esr_explorer_drill_display"
)

func (ui *exploreUI) run() error {
	ui.events = make(chan exploreEvent, 256)
	if !ui.connect() {
		out.UpdateHTML(exploreCtrlDisplay, "")
		return exploreStatic(ui.ex, ui.s, ui.extra, 0, fmt.Sprintf("Static view: no browser answered the explorer's controls (%d attempts of %v each).", widgetAttempts, widgetWait))
	}
	defer func() {
		for _, c := range ui.chans {
			c()
		}
	}()
	ui.redraw()
	for ev := range ui.events {
		// A dragged slider sends a burst: take the latest value of each control.
		batch := []exploreEvent{ev}
		for drained := false; !drained; {
			select {
			case e := <-ui.events:
				batch = append(batch, e)
			case <-time.After(30 * time.Millisecond):
				drained = true
			}
		}
		for _, e := range batch {
			if e.key == "stop" {
				return ui.stop()
			}
			ui.apply(e)
		}
		ui.redraw()
	}
	return nil
}

// connect shows the controls, in up to widgetAttempts attempts of
// widgetWait each (see widgetWait for why), and reports whether the browser
// answered them.
func (ui *exploreUI) connect() bool {
	for attempt := 0; attempt < widgetAttempts; attempt++ {
		// A fresh, empty container: what a failed attempt appended goes.
		out.UpdateHTML(exploreCtrlDisplay, fmt.Sprintf(`<div id="%s" style="display:grid;grid-template-columns:max-content max-content max-content;gap:4px 12px;align-items:center"></div>`, exploreControlsID))
		comms.Start()
		stale := make(chan struct{})
		built := make(chan *exploreControls, 1)
		go func() { built <- ui.build(stale) }()
		select {
		case c := <-built:
			if c != nil {
				ui.selects, ui.sliders, ui.chans = c.selects, c.sliders, c.chans
				return true
			}
		case <-time.After(widgetWait):
			close(stale)
		}
	}
	return false
}

// exploreControls are one attempt's widgets and their listeners' closers.
type exploreControls struct {
	selects map[string]*widgets.SelectBuilder
	sliders map[string]*widgets.SliderBuilder
	chans   []func()
}

// build shows the controls; each widget's Done waits for the browser. Once
// stale is closed (the attempt timed out) it appends and listens to nothing
// more and returns nil: a later attempt owns the container.
func (ui *exploreUI) build(stale <-chan struct{}) *exploreControls {
	c := &exploreControls{selects: map[string]*widgets.SelectBuilder{}, sliders: map[string]*widgets.SliderBuilder{}}
	gone := func() bool {
		select {
		case <-stale:
			return true
		default:
			return false
		}
	}
	abandon := func() *exploreControls {
		for _, f := range c.chans {
			f()
		}
		return nil
	}
	listen := func(key string, ch *comms.AddressChan[int]) {
		c.chans = append(c.chans, ch.Close)
		ui.listen(key, ch)
	}
	sel := func(key, label string, options []string, cur string) {
		if gone() {
			return
		}
		idx := max(slices.Index(options, cur), 0)
		dom.Append(exploreControlsID, fmt.Sprintf(`<label for="esr-explorer-%s">%s</label>`, key, label))
		w := widgets.Select(options).WithHtmlId("esr-explorer-" + key).SetDefault(idx).AppendTo(exploreControlsID).Done()
		if gone() {
			return
		}
		dom.Append(exploreControlsID, "<span></span>")
		c.selects[key] = w
		listen(key, w.Listen())
	}
	sel("stratum", "stratum", exploreStrata, ui.s.Stratum)
	sel("query", "query type", exploreQueries, string(ui.s.QueryType))
	sel("terms", "memories compared", termSetNames(), ui.s.Terms)
	sel("format", "ledger format", memory.LedgerFormats, ui.s.Format)
	sel("profile", "simulated reader", profileNames(), ui.s.Reader.Name)
	for _, sl := range exploreSliders {
		if gone() {
			return abandon()
		}
		pos := int(sl.value(ui.s)*sl.scale + 0.5)
		dom.Append(exploreControlsID, fmt.Sprintf(`<label for="esr-explorer-%s">%s</label>`, sl.key, sl.label))
		w := widgets.Slider(sl.min, sl.max, pos).WithHtmlId("esr-explorer-" + sl.key).AppendTo(exploreControlsID).Done()
		if gone() {
			return abandon()
		}
		dom.Append(exploreControlsID, fmt.Sprintf(`<span id="esr-explorer-%s-value">%g</span>`, sl.key, sl.value(ui.s)))
		c.sliders[sl.key] = w
		listen(sl.key, w.Listen())
	}
	if gone() {
		return abandon()
	}
	dom.Append(exploreControlsID, `<label>question</label><span id="esr-explorer-buttons"></span><span></span>`)
	for _, b := range []struct{ key, label string }{{"prev", "◀ previous"}, {"next", "next ▶"}, {"stop", "■ Stop"}} {
		w := widgets.Button(b.label).WithHtmlId("esr-explorer-" + b.key).AppendTo("esr-explorer-buttons").Done()
		if gone() {
			return abandon()
		}
		listen(b.key, w.Listen())
	}
	return c
}

// listen forwards a control's updates to the event loop.
func (ui *exploreUI) listen(key string, c *comms.AddressChan[int]) {
	ui.chans = append(ui.chans, c.Close)
	go func() {
		for v := range c.C {
			ui.events <- exploreEvent{key, v}
		}
	}()
}

// apply changes the settings for one control event; an invalid value is
// ignored (the slider ranges keep values valid).
func (ui *exploreUI) apply(e exploreEvent) {
	old := ui.s
	scope := func() {
		if exploreScope(old) != exploreScope(ui.s) {
			ui.qi = 0
		}
	}
	pick := func(options []string) (string, bool) {
		if e.v < 0 || e.v >= len(options) {
			return "", false
		}
		return options[e.v], true
	}
	switch e.key {
	case "stratum":
		if v, ok := pick(exploreStrata); ok {
			ui.s.Stratum = v
		}
	case "query":
		if v, ok := pick(exploreQueries); ok {
			ui.s.QueryType = esr.QueryType(v)
		}
	case "terms":
		if v, ok := pick(termSetNames()); ok {
			ui.s.Terms = v
		}
	case "format":
		if v, ok := pick(memory.LedgerFormats); ok {
			ui.s.Format = v
		}
	case "profile":
		if v, ok := pick(profileNames()); ok && v != lab.CustomProfile {
			if s, err := ui.s.WithProfile(v); err == nil {
				ui.s = s
				ui.syncSliders()
			}
		}
	case "prev":
		ui.qi--
	case "next":
		ui.qi++
	default:
		for _, c := range exploreSliders {
			if c.key == e.key {
				if s, err := c.apply(ui.s, e.v); err == nil {
					ui.s = s
					dom.SetInnerText("esr-explorer-"+c.key+"-value", strconv.FormatFloat(c.value(s), 'g', -1, 64))
					if w := ui.selects["profile"]; w != nil {
						w.SetValue(max(slices.Index(profileNames(), s.Reader.Name), 0))
					}
				}
			}
		}
	}
	scope()
}

// syncSliders moves the capability sliders to the current profile.
func (ui *exploreUI) syncSliders() {
	for _, c := range exploreSliders {
		if w := ui.sliders[c.key]; w != nil {
			w.SetValue(int(c.value(ui.s)*c.scale + 0.5))
			dom.SetInnerText("esr-explorer-"+c.key+"-value", strconv.FormatFloat(c.value(ui.s), 'g', -1, 64))
		}
	}
}

// exploreScope is what selects the questions a drill-down steps through.
func exploreScope(s lab.Settings) string { return s.Stratum + "|" + string(s.QueryType) }

// redraw recomputes and replaces the view and drill-down blocks.
func (ui *exploreUI) redraw() {
	// GoNB delivers each front-end message on its own goroutine, so a burst
	// can repeat values; draw only what changed.
	key := fmt.Sprintf("%s|q%d", ExploreKey(ui.s), ui.qi)
	if key == ui.drawn {
		return
	}
	ui.drawn = key
	view, drill, err := exploreBlocks(ui.ex, ui.s, ui.extra, ui.qi)
	if err != nil && view == "" {
		view = exploreErrorHTML(ui.s, err)
	}
	out.UpdateHTML(exploreViewDisplay, view)
	out.UpdateHTML(exploreDrillDisplay, drill)
}

// stop removes the controls and leaves the last view as ordinary output,
// which the saved notebook keeps.
func (ui *exploreUI) stop() error {
	out.UpdateHTML(exploreCtrlDisplay, "")
	out.UpdateHTML(exploreViewDisplay, "")
	out.UpdateHTML(exploreDrillDisplay, "")
	return exploreStatic(ui.ex, ui.s, ui.extra, ui.qi, "The explorer was stopped; its last view:")
}
