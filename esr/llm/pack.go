package llm

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	bolt "go.etcd.io/bbolt"
)

// A result pack moves cached responses between machines: a gzip-compressed
// JSON Lines file whose first line is {"manifest": PackManifest} and every
// other line {"key": KEY, "entry": Entry}, in key order. The manifest
// counts the entries per model and per template version and carries the
// SHA-256 of the entry lines, checked on import. Each entry records its
// request (model, template, prompt hash, parameters: Entry.RequestKey), and
// import recomputes the line's key from it, so no reply can be moved to
// another request's key, even by someone who recomputes the content hash.
// No line is longer than maxPackLine: export refuses an entry that import
// could not read. Entries hold no endpoint and no key (see Entry), so a
// pack is safe to publish with a paper.

// packFormat is the manifest's format tag. Format 1 (before entries
// recorded their requests) is refused on import.
const packFormat = "esrkit-llm-pack/2"

// packFormatV1 is the previous format, named in the error import gives it.
const packFormatV1 = "esrkit-llm-pack/1"

// maxPackLine bounds one line of a pack (the manifest or one entry, without
// its newline), on export and on import alike.
const maxPackLine = 64 << 20

// PackManifest describes a pack.
type PackManifest struct {
	Format    string         `json:"format"`
	Entries   int            `json:"entries"`
	Models    map[string]int `json:"models"`
	Templates map[string]int `json:"templates"`
	// ContentSHA256 is the hex SHA-256 of the entry lines (each with its
	// newline), in file order.
	ContentSHA256 string `json:"content_sha256"`
	// Unbound counts the cache's entries left out because they do not
	// record their request (cached by an esrkit before packs checked it):
	// a pack could not tie them to their keys. Ask them again to ship them.
	Unbound int `json:"unbound_left_out,omitempty"`
}

type packHeader struct {
	Manifest *PackManifest `json:"manifest"`
}

type packLine struct {
	Key   string          `json:"key"`
	Entry json.RawMessage `json:"entry"`
}

// ForEach calls fn for every entry with an answer, in key order, in one
// read transaction; fn must not write to the cache.
func (c *Cache) ForEach(fn func(key string, e Entry) error) error {
	return c.view(func(b *bolt.Bucket) error {
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			var e Entry
			if err := json.Unmarshal(v, &e); err != nil {
				return fmt.Errorf("llm cache %s: entry %s: %w", c.path, k, err)
			}
			if e.Response.Empty() {
				return nil // not an answer (see Get)
			}
			return fn(string(k), e)
		})
	})
}

// ExportPack writes the entries of c that keep accepts (nil: all) to w as a
// pack and returns its manifest. The same cache content gives the same
// bytes. Entries that do not record their request are left out and counted
// (PackManifest.Unbound); an entry whose recorded request is not its key (a
// damaged cache), or whose line would exceed maxPackLine, is an error
// naming it.
func ExportPack(w io.Writer, c *Cache, keep func(key string, e Entry) bool) (PackManifest, error) {
	m := PackManifest{Format: packFormat, Models: map[string]int{}, Templates: map[string]int{}}
	var lines [][]byte
	h := sha256.New()
	err := c.ForEach(func(key string, e Entry) error {
		if keep != nil && !keep(key, e) {
			return nil
		}
		rk, ok := e.RequestKey()
		if !ok {
			m.Unbound++
			return nil
		}
		if rk != key {
			return fmt.Errorf("llm cache %s: entry %s (model %s): its recorded request hashes to %s, not its key (damaged cache)", c.path, key, e.Model, rk)
		}
		ej, err := json.Marshal(e)
		if err != nil {
			return err
		}
		l, err := json.Marshal(packLine{Key: key, Entry: ej})
		if err != nil {
			return err
		}
		if len(l) > maxPackLine {
			return fmt.Errorf("llm cache %s: entry %s (model %s) is %.1f MiB as a pack line, over the %d MiB a pack line may hold (import could not read it back)",
				c.path, key, e.Model, float64(len(l))/(1<<20), maxPackLine>>20)
		}
		l = append(l, '\n')
		h.Write(l)
		lines = append(lines, l)
		m.Entries++
		m.Models[e.Model]++
		m.Templates[e.Template]++
		return nil
	})
	if err != nil {
		return m, err
	}
	m.ContentSHA256 = hex.EncodeToString(h.Sum(nil))
	zw := gzip.NewWriter(w) // no name, no mtime: deterministic bytes
	hj, err := json.Marshal(packHeader{Manifest: &m})
	if err != nil {
		return m, err
	}
	zw.Write(append(hj, '\n'))
	for _, l := range lines {
		if _, err := zw.Write(l); err != nil {
			return m, err
		}
	}
	return m, zw.Close()
}

// PackReport is what ImportPack did.
type PackReport struct {
	Manifest PackManifest `json:"manifest"`
	// Imported entries were new; Already ones were in the cache with the
	// same answer; Conflicts were in it with another answer (the cache's is
	// kept); Empty ones had no answer (an empty reply, written by an older
	// esrkit) and were left out.
	Imported  int `json:"imported"`
	Already   int `json:"already_cached"`
	Conflicts int `json:"conflicts"`
	Empty     int `json:"empty_skipped,omitempty"`
}

// readPack reads and checks a pack (manifest counts and content hash)
// and calls fn for each entry once the whole pack has checked out. Errors
// name the file and line.
func readPack(path string, fn func(key string, e Entry) error) (PackManifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return PackManifest{}, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return PackManifest{}, fmt.Errorf("%s: not a result pack (gzip): %w", path, err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), maxPackLine+1) // the line and its newline
	if !sc.Scan() {
		return PackManifest{}, fmt.Errorf("%s:1: empty pack (no manifest line)", path)
	}
	var hd packHeader
	if err := json.Unmarshal(sc.Bytes(), &hd); err != nil || hd.Manifest == nil {
		return PackManifest{}, fmt.Errorf(`%s:1: field "manifest": missing or not an object`, path)
	}
	m := *hd.Manifest
	if m.Format == packFormatV1 {
		return m, fmt.Errorf(`%s:1: field "manifest.format": %q packs were written before entries recorded their requests, so their replies cannot be checked against their keys; export the pack again with this esrkit`, path, m.Format)
	}
	if m.Format != packFormat {
		return m, fmt.Errorf(`%s:1: field "manifest.format": %q is not %q`, path, m.Format, packFormat)
	}
	type kv struct {
		key string
		e   Entry
	}
	var entries []kv
	h := sha256.New()
	models, templates := map[string]int{}, map[string]int{}
	for ln := 2; sc.Scan(); ln++ {
		raw := sc.Bytes()
		h.Write(raw)
		h.Write([]byte{'\n'})
		var l packLine
		if err := json.Unmarshal(raw, &l); err != nil {
			return m, fmt.Errorf("%s:%d: not a pack entry: %v", path, ln, err)
		}
		if b, err := hex.DecodeString(l.Key); err != nil || len(b) != 32 {
			return m, fmt.Errorf(`%s:%d: field "key": not 64 hex digits`, path, ln)
		}
		var e Entry
		if err := json.Unmarshal(l.Entry, &e); err != nil {
			return m, fmt.Errorf(`%s:%d: field "entry": %v`, path, ln, err)
		}
		if e.Model == "" {
			return m, fmt.Errorf(`%s:%d: field "entry.model": missing`, path, ln)
		}
		rk, ok := e.RequestKey()
		if !ok {
			return m, fmt.Errorf(`%s:%d: field "entry": no "prompt" and "params": the entry does not name the request it answers`, path, ln)
		}
		if rk != l.Key {
			return m, fmt.Errorf(`%s:%d: field "key": the entry answers the request %s (its model, template, prompt and params), not this key (a moved or edited entry)`, path, ln, rk)
		}
		models[e.Model]++
		templates[e.Template]++
		entries = append(entries, kv{l.Key, e})
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return m, fmt.Errorf("%s: a line is longer than the %d MiB a pack line may hold", path, maxPackLine>>20)
		}
		return m, fmt.Errorf("%s: %w", path, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != m.ContentSHA256 {
		return m, fmt.Errorf(`%s:1: field "manifest.content_sha256": the entries hash to %s, the manifest says %s (damaged or edited pack)`, path, got, m.ContentSHA256)
	}
	if len(entries) != m.Entries || !sameCounts(models, m.Models) || !sameCounts(templates, m.Templates) {
		return m, fmt.Errorf(`%s:1: field "manifest.entries": the manifest's counts do not match the %d entries`, path, len(entries))
	}
	for _, x := range entries {
		if err := fn(x.key, x.e); err != nil {
			return m, err
		}
	}
	return m, nil
}

func sameCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// ImportPack checks a pack and adds its entries to c (existing entries are
// kept).
func ImportPack(path string, c *Cache) (PackReport, error) {
	var rep PackReport
	m, err := readPack(path, func(key string, e Entry) error {
		if e.Response.Empty() {
			rep.Empty++
			return nil
		}
		old, ok, err := c.Get(key)
		if err != nil {
			return err
		}
		if ok {
			if old.Response == e.Response {
				rep.Already++
			} else {
				rep.Conflicts++
			}
			return nil
		}
		rep.Imported++
		return c.Put(key, e)
	})
	rep.Manifest = m
	return rep, err
}

// sortedCounts lists a count map as "name (n)" items, sorted by name.
func sortedCounts(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, fmt.Sprintf("%s (%d)", k, v))
	}
	sort.Strings(out)
	return out
}
