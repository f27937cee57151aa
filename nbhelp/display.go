package nbhelp

import (
	"time"

	"github.com/esrkit/esrkit/internal/report"

	"github.com/janpfeifer/gonb/gonbui"
)

// displayer is where the Show* functions send their output. In a notebook it is
// gonbui; tests swap in a recorder so that no kernel is needed.
type displayer interface {
	HTML(html string)
	UpdateHTML(id, html string)
	Markdown(md string)
	PNG(png []byte)
}

// gonbuiDisplay sends output to the GoNB kernel. gonbui does nothing when the
// program does not run inside a kernel.
type gonbuiDisplay struct{}

func (gonbuiDisplay) HTML(html string)           { gonbui.DisplayHTML(html); flush() }
func (gonbuiDisplay) UpdateHTML(id, html string) { gonbui.UpdateHTML(id, html) }
func (gonbuiDisplay) Markdown(md string)         { gonbui.DisplayMarkdown(md); flush() }
func (gonbuiDisplay) PNG(png []byte)             { gonbui.DisplayPng(png); flush() }

// flushWait bounds how long a display waits for GoNB to acknowledge it.
const flushWait = 5 * time.Second

// flush waits until GoNB has taken every pending display (gonbui.Sync): a
// cell's program that exits right after displaying could otherwise lose its
// output, which happened in executed notebooks. It waits at most flushWait,
// so a kernel that never acknowledges cannot hang a cell.
func flush() {
	if !gonbui.IsNotebook {
		return
	}
	done := make(chan struct{})
	go func() { gonbui.Sync(); close(done) }()
	select {
	case <-done:
	case <-time.After(flushWait):
	}
}

var out displayer = gonbuiDisplay{}

// inNotebook reports whether the program runs inside a GoNB kernel, i.e. whether the
// Show* functions display anything.
func inNotebook() bool { return gonbui.IsNotebook }

// HTML displays raw HTML as the output of the current cell.
func HTML(html string) { out.HTML(html) }

// Markdown displays Markdown (with $…$ and $$…$$ LaTeX math) as the output of the
// current cell. Text from data in md (a question, an answer, a value) must go
// through MarkdownText.
func Markdown(md string) { out.Markdown(md) }

// MarkdownText makes data text (a question, an answer, a value from a
// benchmark or a reader) literal inside Markdown: markup in it (HTML, links,
// emphasis, math, line breaks) shows as its characters instead of acting,
// e.g. nbhelp.Markdown("**" + nbhelp.MarkdownText(qa.Question) + "**"). It is
// the kit's one helper for this (the library's Markdown uses it too).
func MarkdownText(s string) string { return report.MarkdownText(s) }

// newID returns a fresh id for an updatable output block.
func newID() string { return "nbhelp_" + gonbui.UniqueId() }
