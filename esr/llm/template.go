package llm

import (
	"bufio"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"text/template"
)

//go:embed templates/*.tmpl
var templateFS embed.FS

// Template names shipped in templates/.
const (
	TemplateQAAbstain   = "qa-abstain"
	TemplateQANoAbstain = "qa-noabstain"
	TemplateJudge       = "judge"
	// Variants of qa-abstain: the strict decode of the CSC chain and the
	// two other abstain wordings of the paper's Table 19.
	TemplateQAStrict       = "qa-strict"
	TemplateQATerse        = "qa-abstain-terse"
	TemplateQAConservative = "qa-abstain-conservative"
	TemplateExtract        = "extract"
)

// Template is one versioned prompt file: a header of "key: value" lines
// (version is required, description optional and may continue on indented
// lines), then a "--- system" and a "--- user" section, each a text/template
// over the caller's data (with the function join). Its Version, part of every
// cache key, is the declared version plus a short hash of the whole file, so
// an edit without a version bump still never reuses cached answers.
type Template struct {
	Name        string
	Declared    string
	Description string
	hash        string
	system      *template.Template
	user        *template.Template
}

// Version is "DECLARED+HASH8".
func (t *Template) Version() string { return t.Declared + "+" + t.hash }

// Render fills the template with data and returns the chat messages
// (system, user).
func (t *Template) Render(data any) ([]Message, error) {
	var sys, usr strings.Builder
	if err := t.system.Execute(&sys, data); err != nil {
		return nil, fmt.Errorf("template %s: %w", t.Name, err)
	}
	if err := t.user.Execute(&usr, data); err != nil {
		return nil, fmt.Errorf("template %s: %w", t.Name, err)
	}
	msgs := make([]Message, 0, 2)
	if s := strings.TrimSpace(sys.String()); s != "" {
		msgs = append(msgs, Message{Role: "system", Content: s})
	}
	msgs = append(msgs, Message{Role: "user", Content: strings.TrimSpace(usr.String())})
	return msgs, nil
}

// parseTemplate reads a template file's text.
func parseTemplate(name, text string) (*Template, error) {
	t := &Template{Name: name}
	h := sha256.Sum256([]byte(text))
	t.hash = hex.EncodeToString(h[:4])
	sections := map[string]*strings.Builder{}
	var cur *strings.Builder
	var lastKey string
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	for ln := 1; sc.Scan(); ln++ {
		line := sc.Text()
		if strings.HasPrefix(line, "--- ") {
			sec := strings.TrimSpace(line[4:])
			if sec != "system" && sec != "user" {
				return nil, fmt.Errorf("template %s:%d: unknown section %q (want system or user)", name, ln, sec)
			}
			if sections[sec] != nil {
				return nil, fmt.Errorf("template %s:%d: second %q section", name, ln, sec)
			}
			cur = &strings.Builder{}
			sections[sec] = cur
			continue
		}
		if cur != nil {
			cur.WriteString(line)
			cur.WriteByte('\n')
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if (line[0] == ' ' || line[0] == '\t') && lastKey == "description" {
			t.Description += " " + strings.TrimSpace(line)
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("template %s:%d: header line %q is not \"key: value\"", name, ln, line)
		}
		lastKey = strings.TrimSpace(k)
		switch lastKey {
		case "version":
			t.Declared = strings.TrimSpace(v)
		case "description":
			t.Description = strings.TrimSpace(v)
		default:
			return nil, fmt.Errorf("template %s:%d: unknown header %q", name, ln, lastKey)
		}
	}
	if t.Declared == "" {
		return nil, fmt.Errorf("template %s: no version header", name)
	}
	if sections["user"] == nil {
		return nil, fmt.Errorf("template %s: no user section", name)
	}
	funcs := template.FuncMap{"join": strings.Join}
	var err error
	sys := ""
	if sections["system"] != nil {
		sys = sections["system"].String()
	}
	if t.system, err = template.New(name + "/system").Funcs(funcs).Option("missingkey=error").Parse(sys); err != nil {
		return nil, err
	}
	if t.user, err = template.New(name + "/user").Funcs(funcs).Option("missingkey=error").Parse(sections["user"].String()); err != nil {
		return nil, err
	}
	return t, nil
}

var builtin = func() map[string]*Template {
	out := map[string]*Template{}
	entries, err := fs.Glob(templateFS, "templates/*.tmpl")
	if err != nil {
		panic(err)
	}
	for _, p := range entries {
		b, err := templateFS.ReadFile(p)
		if err != nil {
			panic(err)
		}
		name := strings.TrimSuffix(strings.TrimPrefix(p, "templates/"), ".tmpl")
		t, err := parseTemplate(name, string(b))
		if err != nil {
			panic("llm: embedded " + err.Error())
		}
		out[name] = t
	}
	return out
}()

// Builtin returns the embedded template with the given name.
func Builtin(name string) (*Template, error) {
	if t := builtin[name]; t != nil {
		return t, nil
	}
	return nil, fmt.Errorf("llm: no template %q (have %s)", name, strings.Join(templateNames(), ", "))
}

// MustBuiltin is Builtin for names known to exist.
func MustBuiltin(name string) *Template {
	t, err := Builtin(name)
	if err != nil {
		panic(err)
	}
	return t
}

// templateNames lists the embedded templates.
func templateNames() []string {
	out := make([]string, 0, len(builtin))
	for n := range builtin {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// templateText is an embedded template file's text (to show or copy).
func templateText(name string) (string, error) {
	b, err := templateFS.ReadFile("templates/" + name + ".tmpl")
	return string(b), err
}

// QAData is what the QA templates read.
type QAData struct {
	Context   string
	Question  string
	QueryType string
}
