package safefile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The rule every command that writes follows, so that nothing it did not
// write is lost: an output may not lie inside an input (nor, for a folder,
// hold one), and an existing non-empty output is replaced only when it is
// this command's own earlier output. A file says so by its first bytes (a
// header or format tag, Target.Ours); a folder by MarkerFile naming the
// command, or, for folders written before the marker, by what Target.Legacy
// recognises. Anything else is refused before any work starts, with what to
// do instead.

// MarkerFile, in a folder a command writes, names the command ("esr run")
// so that a rerun of it may write there again.
const MarkerFile = ".esr-output"

// HeadSize is how much of an existing file Target.Ours is shown.
const HeadSize = 64 << 10

// Input is a file or folder a command reads, named by its flag.
type Input struct {
	Flag string // "--bench"
	Path string // "" when the flag is not set
}

// Target is a file or folder a command is about to write.
type Target struct {
	Flag   string // "--out"
	Path   string
	Writer string // the command, "esr cache export": in errors and in MarkerFile
	Inputs []Input
	// Dir says the target is a folder.
	Dir bool
	// Ours (files) reports whether the first HeadSize bytes of an existing
	// non-empty file are this command's output.
	Ours func(head []byte) bool
	// Legacy (folders, optional) recognises a folder without MarkerFile as
	// this command's earlier output (by a manifest of its own, say).
	Legacy func(dir string) bool
	// Owned (folders, optional) accepts an entry of the folder as one the
	// command writes; any other entry is refused.
	Owned func(name string, isDir bool) bool
}

// ForeignError is an existing output the command did not write: it is
// left as it is.
type ForeignError struct {
	Flag, Path, Writer, Reason string
	// Kind, when set, is what the path is instead of what the command
	// writes (Want): "a folder" where "a file" goes. It may be empty, and
	// the message says what it is, not "not empty".
	Kind, Want string
}

func (e *ForeignError) Error() string {
	if e.Kind != "" {
		return fmt.Sprintf("%s %s is %s, and %s writes %s there; it is left as it is: remove it, or choose another %s",
			e.Flag, e.Path, e.Kind, e.Writer, e.Want, e.Flag)
	}
	return fmt.Sprintf("%s %s is not empty and not an earlier output of %s (%s); it is left as it is: remove it, or choose another %s",
		e.Flag, e.Path, e.Writer, e.Reason, e.Flag)
}

// ErrForeign matches every *ForeignError and *InsideError with errors.Is.
var ErrForeign = errors.New("safefile: output is not this command's")

func (e *ForeignError) Is(target error) bool { return target == ErrForeign }

// InsideError is an output inside an input (or, for a folder, an input
// inside the output).
type InsideError struct {
	Flag, Path string
	In         Input
	Holds      bool // the output folder holds the input
}

func (e *InsideError) Error() string {
	if e.Holds {
		return fmt.Sprintf("%s %s holds %s %s: a command never writes over its input; choose an %s elsewhere", e.Flag, e.Path, e.In.Flag, e.In.Path, e.Flag)
	}
	return fmt.Sprintf("%s %s is inside %s %s: a command never writes into its input; choose an %s outside it", e.Flag, e.Path, e.In.Flag, e.In.Path, e.Flag)
}

func (e *InsideError) Is(target error) bool { return target == ErrForeign }

// Check applies the rule to t; nil means writing t may go ahead.
func (t Target) Check() error {
	for _, in := range t.Inputs {
		if in.Path == "" {
			continue
		}
		inside, err := Inside(t.Path, in.Path)
		if err != nil {
			return err
		}
		if inside {
			return &InsideError{Flag: t.Flag, Path: t.Path, In: in}
		}
		if t.Dir {
			if holds, err := Inside(in.Path, t.Path); err != nil {
				return err
			} else if holds {
				return &InsideError{Flag: t.Flag, Path: t.Path, In: in, Holds: true}
			}
		}
	}
	fi, err := os.Stat(t.Path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	foreign := func(reason string) error {
		return &ForeignError{Flag: t.Flag, Path: t.Path, Writer: t.Writer, Reason: reason}
	}
	// An output of the wrong kind is refused for what it is, empty or not.
	wrongKind := func(kind, want string) error {
		return &ForeignError{Flag: t.Flag, Path: t.Path, Writer: t.Writer, Kind: kind, Want: want}
	}
	if !t.Dir {
		switch {
		case fi.IsDir():
			return wrongKind("a folder", "a file")
		case !fi.Mode().IsRegular():
			return wrongKind("not a regular file (a FIFO, device or socket)", "a file")
		case fi.Size() == 0:
			return nil
		}
		head, err := readHead(t.Path)
		if err != nil {
			return err
		}
		if t.Ours == nil || !t.Ours(head) {
			return foreign("its content is not what " + t.Writer + " writes")
		}
		return nil
	}
	if !fi.IsDir() {
		return wrongKind("a file", "a folder")
	}
	ents, err := os.ReadDir(t.Path)
	if err != nil {
		return err
	}
	if len(ents) == 0 {
		return nil
	}
	switch w, err := os.ReadFile(filepath.Join(t.Path, MarkerFile)); {
	case err == nil && strings.TrimSpace(string(w)) == t.Writer:
	case err == nil:
		return foreign(fmt.Sprintf("its %s says %s wrote it", MarkerFile, strings.TrimSpace(string(w))))
	case !errors.Is(err, os.ErrNotExist):
		return err
	case t.Legacy == nil || !t.Legacy(t.Path):
		return foreign("it holds " + listNames(ents, 5) + " and no " + MarkerFile + " naming " + t.Writer)
	}
	if t.Owned != nil {
		if other := Foreign(t.Path, t.Owned); len(other) > 0 {
			return foreign("it holds " + strings.Join(other, ", ") + ", which " + t.Writer + " does not write")
		}
	}
	return nil
}

// Foreign lists the entries of dir (but MarkerFile) that owned does not
// accept, sorted; a folder that cannot be read has none.
func Foreign(dir string, owned func(name string, isDir bool) bool) []string {
	ents, _ := os.ReadDir(dir)
	var other []string
	for _, e := range ents {
		if e.Name() != MarkerFile && !owned(e.Name(), e.IsDir()) {
			other = append(other, e.Name())
		}
	}
	sort.Strings(other)
	return other
}

// Mark writes MarkerFile into the folder t (made if missing), naming
// t.Writer: a later Check of the same writer accepts the folder.
func (t Target) Mark() error {
	if err := os.MkdirAll(t.Path, 0o755); err != nil {
		return err
	}
	return WriteFile(filepath.Join(t.Path, MarkerFile), []byte(t.Writer+"\n"), 0o644)
}

// readHead reads up to HeadSize bytes of path.
func readHead(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, HeadSize))
}

// Inside reports whether path is dir or lies inside it, with both made
// absolute and their symbolic links resolved as far as they exist.
func Inside(path, dir string) (bool, error) {
	d, err := resolve(dir)
	if err != nil {
		return false, err
	}
	p, err := resolve(path)
	if err != nil {
		return false, err
	}
	rel, err := filepath.Rel(d, p)
	if err != nil {
		return false, nil
	}
	return rel == "." || rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)), nil
}

// resolve is p made absolute with the links of its longest existing
// prefix resolved.
func resolve(p string) (string, error) {
	p, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(append([]string{p}, rest...)...), nil
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
}

// listNames names up to max entries, sorted, and how many more there are.
func listNames(ents []os.DirEntry, max int) string {
	names := make([]string, 0, len(ents))
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	if len(names) > max {
		return strings.Join(names[:max], ", ") + fmt.Sprintf(" and %d more", len(names)-max)
	}
	return strings.Join(names, ", ")
}
