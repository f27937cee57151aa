package browser

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// The methods in this file drive the classic Jupyter Notebook UI (notebook
// 6.x, what Debian ships) through its JavaScript object window.Jupyter.notebook,
// in a tab that has opened a notebook (Navigate to [Jupyter.URL]). Cells are
// numbered as in the .ipynb file: markdown cells count, from 0.
//
// They read the notebook's own state rather than pixels: a code cell is
// running while its element has the class "running" (set by
// CodeCell.execute, removed by the execute reply) and its prompt shows '*';
// the kernel's state is the indicator icon's class (kernel_idle_icon,
// kernel_busy_icon, …), which the UI sets from the kernel's status messages.

// kernelReadyJS is true once the notebook's kernel is connected, has answered
// kernel_info (info_reply is filled) and reports idle.
const kernelReadyJS = `window.Jupyter && Jupyter.notebook && Jupyter.notebook.kernel &&
	Jupyter.notebook.kernel.is_connected() &&
	Object.keys(Jupyter.notebook.kernel.info_reply || {}).length > 0 &&
	document.querySelector("#kernel_indicator_icon").classList.contains("kernel_idle_icon")`

// WaitKernel waits until the notebook's kernel is started, connected and idle.
// The first start of a GoNB kernel on a machine takes several seconds.
func (b *Browser) WaitKernel(timeout time.Duration) error {
	if err := b.WaitJS(kernelReadyJS, timeout); err != nil {
		state, _ := Eval[string](b, `(() => { const i = document.querySelector("#kernel_indicator_icon"); return i ? i.className + " (" + i.title + ")" : "no kernel indicator"; })()`)
		return fmt.Errorf("browser: notebook kernel not ready (indicator: %s): %w", state, err)
	}
	return nil
}

// RunAllCells queues every cell for execution, as Cell > Run All does.
func (b *Browser) RunAllCells() error {
	if err := b.Do(`Jupyter.notebook.execute_all_cells()`); err != nil {
		return fmt.Errorf("browser: running all cells: %w", err)
	}
	return nil
}

// RunCell queues cell i for execution.
func (b *Browser) RunCell(i int) error {
	if err := b.checkCell(i); err != nil {
		return err
	}
	if err := b.Do(fmt.Sprintf(`Jupyter.notebook.execute_cells([%d])`, i)); err != nil {
		return fmt.Errorf("browser: running cell %d: %w", i, err)
	}
	return nil
}

// checkCell fails when the notebook has no cell i.
func (b *Browser) checkCell(i int) error {
	n, err := Eval[int](b, `Jupyter.notebook.ncells()`)
	if err != nil {
		return fmt.Errorf("browser: counting cells: %w", err)
	}
	if i < 0 || i >= n {
		return fmt.Errorf("browser: no cell %d (the notebook has %d)", i, n)
	}
	return nil
}

// cellDoneJS is true when cell %d has finished: a markdown cell always; a code
// cell when it is not running and its prompt is neither '*' (queued or
// running) nor empty (never run) — or when it is blank (nothing to run).
const cellDoneJS = `(() => {
	const c = Jupyter.notebook.get_cell(%d);
	if (!c || c.cell_type !== "code" || c.get_text().trim() === "") return true;
	return !c.element.hasClass("running") && c.input_prompt_number !== "*" && c.input_prompt_number !== null;
})()`

// WaitCell waits until cell i has finished running (see cellDoneJS). A cell
// skipped because an earlier one failed (aborted) counts as finished.
func (b *Browser) WaitCell(i int, timeout time.Duration) error {
	if err := b.checkCell(i); err != nil {
		return err
	}
	if err := b.WaitJS(fmt.Sprintf(cellDoneJS, i), timeout); err != nil {
		return fmt.Errorf("browser: cell %d did not finish: %w\n%s", i, err, b.CellReport())
	}
	return nil
}

// WaitIdle waits until no cell is running or queued and the kernel is idle.
func (b *Browser) WaitIdle(timeout time.Duration) error {
	js := kernelReadyJS + ` && document.querySelectorAll(".cell.running").length === 0`
	if err := b.WaitJS(js, timeout); err != nil {
		return fmt.Errorf("browser: notebook did not become idle: %w\n%s", err, b.CellReport())
	}
	return nil
}

// InterruptKernel interrupts the running cell (Kernel > Interrupt). GoNB
// stops the cell's program.
func (b *Browser) InterruptKernel() error {
	if err := b.Do(`Jupyter.notebook.kernel.interrupt()`); err != nil {
		return fmt.Errorf("browser: interrupting the kernel: %w", err)
	}
	return nil
}

// cellsJS returns every cell's index, type, prompt, first source line and
// outputs (nbformat JSON, as the output area holds them).
const cellsJS = `Jupyter.notebook.get_cells().map((c, i) => ({
	index: i,
	type: c.cell_type,
	prompt: c.cell_type === "code" ? String(c.input_prompt_number) : "",
	running: c.element.hasClass("running"),
	source: c.get_text(),
	outputs: c.cell_type === "code" ? c.output_area.outputs.map(o => ({
		type: o.output_type, name: o.name || "",
		text: Array.isArray(o.text) ? o.text.join("") : (o.text || ""),
		ename: o.ename || "", evalue: o.evalue || "",
		traceback: (o.traceback || []).join("\n"),
		mimes: Object.keys(o.data || {}),
	})) : [],
}))`

type cellState struct {
	Index   int    `json:"index"`
	Type    string `json:"type"`
	Prompt  string `json:"prompt"`
	Running bool   `json:"running"`
	Source  string `json:"source"`
	Outputs []struct {
		Type      string   `json:"type"`
		Name      string   `json:"name"`
		Text      string   `json:"text"`
		Ename     string   `json:"ename"`
		Evalue    string   `json:"evalue"`
		Traceback string   `json:"traceback"`
		Mimes     []string `json:"mimes"`
	} `json:"outputs"`
}

func (b *Browser) cells() ([]cellState, error) {
	cs, err := Eval[[]cellState](b, cellsJS)
	if err != nil {
		return nil, fmt.Errorf("browser: reading the notebook's cells: %w", err)
	}
	return cs, nil
}

// CellErrors returns the notebook's error outputs and stderr streams, each as
// "cell N: TEXT" (ANSI colours removed). A notebook whose cells could not be
// read gives one entry saying why, so a test asserting "no errors" fails.
func (b *Browser) CellErrors() []string {
	cs, err := b.cells()
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	for _, c := range cs {
		for _, o := range c.Outputs {
			switch {
			case o.Type == "error":
				text := o.Ename + ": " + o.Evalue
				if tb := stripANSI(o.Traceback); tb != "" {
					text += "\n" + tb
				}
				out = append(out, fmt.Sprintf("cell %d: error %s", c.Index, strings.TrimSpace(text)))
			case o.Type == "stream" && o.Name == "stderr":
				out = append(out, fmt.Sprintf("cell %d: stderr %s", c.Index, strings.TrimSpace(stripANSI(o.Text))))
			}
		}
	}
	return out
}

// CellReport describes every code cell (prompt, running, first source line,
// outputs with their text), for test failure messages.
func (b *Browser) CellReport() string {
	cs, err := b.cells()
	if err != nil {
		return err.Error()
	}
	var s strings.Builder
	for _, c := range cs {
		if c.Type != "code" {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimSpace(c.Source), "\n")
		state := ""
		if c.Running {
			state = " running"
		}
		fmt.Fprintf(&s, "cell %d [%s]%s: %s\n", c.Index, c.Prompt, state, first)
		for _, o := range c.Outputs {
			text := o.Text
			switch o.Type {
			case "error":
				text = o.Ename + ": " + o.Evalue + "\n" + stripANSI(o.Traceback)
			case "display_data", "execute_result":
				text = strings.Join(o.Mimes, ", ")
			}
			text = strings.TrimSpace(stripANSI(text))
			if len(text) > 600 {
				text = text[:600] + "…"
			}
			name := o.Type
			if o.Name != "" {
				name += "/" + o.Name
			}
			fmt.Fprintf(&s, "    %s: %s\n", name, strings.ReplaceAll(text, "\n", "\n      "))
		}
	}
	return s.String()
}

// ansi matches terminal colour codes, which GoNB puts in compiler errors.
var ansi = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

func stripANSI(s string) string { return ansi.ReplaceAllString(s, "") }
