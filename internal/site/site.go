// Package site builds the index page of the static report (`make report`):
// one card per executed notebook with its title, the paper section it
// covers and a thumbnail of its key figure (the notebook's first PNG
// output), linking to the notebook's HTML page that nbconvert writes.
package site

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/internal/safefile"
)

// Card is one notebook on the index page.
type Card struct {
	Name      string // file stem, e.g. "41-render-confound"
	Title     string // the notebook's first heading, without its section
	Section   string // the part of the heading before "·", e.g. "§4.1"
	Thumbnail string // thumbnail file, relative to the index ("" when the notebook shows no figure)
	Figures   int    // PNG figures the notebook shows
	Minutes   int    // the minutes its first Markdown cell states ("about 25 minutes"), 0 if none
}

type notebook struct {
	Cells []struct {
		Type    string          `json:"cell_type"`
		Source  json.RawMessage `json:"source"`
		Outputs []struct {
			Data map[string]json.RawMessage `json:"data"`
		} `json:"outputs"`
	} `json:"cells"`
}

// text reads a notebook string field: a string or a list of lines.
func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var lines []string
	_ = json.Unmarshal(raw, &lines)
	return strings.Join(lines, "")
}

// figureCall finds a notebook's saved figures: nbhelp.Figure(p, "NAME")
// writes figures/NAME.png.
var figureCall = regexp.MustCompile(`nbhelp\.Figure\(.*,\s*"([^"]+)"\)`)

// ReadCard reads one executed notebook and writes its thumbnail into
// thumbDir: the first figure it saves (figuresDir/NAME.png, from its
// nbhelp.Figure calls), else its first PNG output. Errors name the file.
func ReadCard(path, figuresDir, thumbDir string) (Card, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Card{}, err
	}
	var nb notebook
	if err := json.Unmarshal(b, &nb); err != nil {
		return Card{}, fmt.Errorf("%s: %w", path, err)
	}
	c := Card{Name: strings.TrimSuffix(filepath.Base(path), ".ipynb")}
	c.Title = c.Name
	sawMarkdown := false
	for _, cell := range nb.Cells {
		if cell.Type == "code" {
			for _, m := range figureCall.FindAllStringSubmatch(text(cell.Source), -1) {
				c.Figures++
				if c.Thumbnail != "" {
					continue
				}
				png, err := os.ReadFile(filepath.Join(figuresDir, m[1]+".png"))
				if err != nil {
					return c, fmt.Errorf("%s: figure %s: %w", path, m[1], err)
				}
				if err := writeThumb(thumbDir, c.Name, png); err != nil {
					return c, err
				}
				c.Thumbnail = filepath.Join(filepath.Base(thumbDir), c.Name+".png")
			}
		}
		if cell.Type == "markdown" && !sawMarkdown {
			sawMarkdown = true
			c.Minutes = statedMinutes(text(cell.Source))
		}
		if cell.Type == "markdown" && c.Title == c.Name {
			for _, line := range strings.Split(text(cell.Source), "\n") {
				if h, ok := strings.CutPrefix(line, "# "); ok {
					c.Title = strings.TrimSpace(h)
					if sec, rest, ok := strings.Cut(c.Title, "·"); ok {
						c.Section, c.Title = strings.TrimSpace(sec), strings.TrimSpace(rest)
					}
					break
				}
			}
		}
		for _, o := range cell.Outputs {
			raw, ok := o.Data["image/png"]
			if !ok {
				continue
			}
			c.Figures++
			if c.Thumbnail != "" {
				continue
			}
			png, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(text(raw), "\n", ""))
			if err != nil {
				return c, fmt.Errorf("%s: figure %d: %w", path, c.Figures, err)
			}
			if err := writeThumb(thumbDir, c.Name, png); err != nil {
				return c, err
			}
			c.Thumbnail = filepath.Join(filepath.Base(thumbDir), c.Name+".png")
		}
	}
	return c, nil
}

func writeThumb(dir, name string, png []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return safefile.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
}

// WriteIndex reads every executed notebook in executedDir and writes
// outDir/index.html with one card per notebook (sorted by name), each
// linking to NAME.html beside it, and the thumbnails under outDir/thumbs
// (copied from figuresDir), and a section linking comparisons (copied into
// outDir by CopyComparisons) when there are any.
func WriteIndex(executedDir, figuresDir, outDir string, comparisons []Comparison) ([]Card, error) {
	paths, err := filepath.Glob(filepath.Join(executedDir, "*.ipynb"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s: no executed notebooks (run make notebooks first)", executedDir)
	}
	sort.Strings(paths)
	var cards []Card
	for _, p := range paths {
		c, err := ReadCard(p, figuresDir, filepath.Join(outDir, "thumbs"))
		if err != nil {
			return nil, err
		}
		cards = append(cards, c)
	}
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><head><meta charset="utf-8">` + indexMark + `<title>esrkit report</title><style>
body{font-family:sans-serif;margin:2em;max-width:1100px}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:16px}
.card{border:1px solid #ccc;border-radius:6px;padding:12px;text-decoration:none;color:inherit}
.card img{width:100%;border:1px solid #eee}.sec{color:#555;font-size:smaller}
</style></head><body><h1>esrkit: the paper's notebooks, executed</h1>
<p>Each card opens one executed notebook as a static page, with every table and figure inline. Reader families are
simulated readers (calibrated to the paper's per-family numbers) unless a notebook says otherwise.</p>`)
	writeLabPath(&b, cards)
	b.WriteString(`<h2>Every notebook</h2><div class="cards">`)
	for _, c := range cards {
		fmt.Fprintf(&b, `<a class="card" href="%s.html"><div class="sec">%s</div><h3>%s</h3>`,
			html.EscapeString(c.Name), html.EscapeString(c.Section), html.EscapeString(c.Title))
		if c.Thumbnail != "" {
			fmt.Fprintf(&b, `<img src="%s" alt="%s: key figure">`, html.EscapeString(filepath.ToSlash(c.Thumbnail)), html.EscapeString(c.Title))
		}
		fmt.Fprintf(&b, `<div class="sec">%s · %d figure(s)</div></a>`, html.EscapeString(c.Name), c.Figures)
	}
	b.WriteString("</div>")
	writeComparisons(&b, comparisons)
	b.WriteString("</body></html>\n")
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	return cards, safefile.WriteFile(filepath.Join(outDir, "index.html"), []byte(b.String()), 0o644)
}

// indexMark is in the head of every index page WriteIndex writes.
const indexMark = `<meta name="generator" content="esr report">`

// IsIndex reports whether path is missing or an index page WriteIndex
// wrote (now with indexMark, before it with its title): esr report
// replaces no other index.html.
func IsIndex(path string) bool {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return true
	}
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 512)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	// The tags without their ">": esr report's last steps (SanitizePages,
	// LinkPages) write the page out again as x/net/html renders it, with
	// "<meta charset="utf-8"/>".
	return bytes.HasPrefix(head, []byte(`<!DOCTYPE html><html><head><meta charset="utf-8"`)) &&
		(bytes.Contains(head, []byte(generatorMark)) || bytes.Contains(head, []byte(`<title>esrkit report</title>`)))
}

// generatorMark is indexMark without its closing ">", as it reads both as
// written and as x/net/html writes it again ("/>").
const generatorMark = `<meta name="generator" content="esr report"`

// IsOwnDocs reports whether dir holds only what LinkPages writes there:
// folders and .html pages marked as esr report's (MarkdownPage), so that a
// rerun may replace them.
func IsOwnDocs(dir string) bool {
	own := true
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), ".html") || !IsIndex(p) {
			own = false
			return filepath.SkipAll
		}
		return nil
	})
	return own && err == nil
}
