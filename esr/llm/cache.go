package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/esrkit/esrkit/internal/safefile"
)

// cacheFile is the cache's file name inside its folder.
const cacheFile = "llm-cache.bolt"

var bucketResponses = []byte("responses")

// Cache is the persistent response cache: a bbolt file in a folder, shared by
// every reader, judge and extractor of the process that opens the same
// folder, and by every process that opens the same file. The file is locked
// only while it is used: reads share it for one transaction (a read-only
// handle, held while reads of this process overlap), writes hold it alone
// for one commit (open, write, close). So several readers, or a notebook
// beside a fill, work at once; an operation that finds the file held
// waits, with one message naming the holder (cacheNotice), up to
// cacheWait. Safe for concurrent use.
type Cache struct {
	path string
	refs int // guarded by cacheMu

	mu      sync.Mutex // guards ro, readers, writing
	cond    *sync.Cond // signalled when readers drop to 0 or a write ends
	ro      *bolt.DB   // shared read-only handle while readers > 0
	readers int
	writing bool

	qmu     sync.RWMutex // Put holds it shared while queueing; Close exclusively
	closed  bool
	queue   chan putReq
	stopped chan struct{}

	flightMu sync.Mutex
	inflight map[string]*call
}

// cacheWait bounds how long a cache operation waits for another process
// that holds the file; cacheNotice receives one message per wait (default:
// standard error), naming the holder.
var (
	cacheWait   = 10 * time.Minute
	cacheNotice = func(msg string) { fmt.Fprintln(os.Stderr, msg) }
)

// open opens the file read-only (shared) or for writing (exclusive),
// waiting for another process that holds it (see cacheWait).
func (c *Cache) open(readOnly bool) (*bolt.DB, error) {
	start := time.Now()
	noted := false
	for {
		db, err := bolt.Open(c.path, 0o600, &bolt.Options{ReadOnly: readOnly, Timeout: 200 * time.Millisecond})
		if err == nil {
			return db, nil
		}
		if !errors.Is(err, bolterrors.ErrTimeout) {
			return nil, fmt.Errorf("llm cache %s: %w", c.path, err)
		}
		holder := safefile.Holder(c.path)
		if holder != "" {
			holder = " (" + holder + ")"
		}
		if time.Since(start) >= cacheWait {
			return nil, fmt.Errorf("llm cache %s has been in use by another process%s for %s (wait for it, or use another --cache)",
				c.path, holder, cacheWait)
		}
		if !noted && cacheNotice != nil {
			cacheNotice(fmt.Sprintf("llm cache %s is in use by another process%s; waiting for it (up to %s)", c.path, holder, cacheWait))
			noted = true
		}
	}
}

// view runs fn in a read transaction on the shared read-only handle; b is
// nil when the file has no responses bucket yet. fn must not write to the
// cache.
func (c *Cache) view(fn func(b *bolt.Bucket) error) error {
	c.mu.Lock()
	for c.writing {
		c.cond.Wait()
	}
	if c.ro == nil {
		db, err := c.open(true)
		if err != nil {
			c.mu.Unlock()
			return err
		}
		c.ro = db
	}
	c.readers++
	db := c.ro
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.readers--
		if c.readers == 0 {
			c.ro.Close() // release the file for writers, here and elsewhere
			c.ro = nil
			c.cond.Broadcast()
		}
		c.mu.Unlock()
	}()
	return db.View(func(tx *bolt.Tx) error { return fn(tx.Bucket(bucketResponses)) })
}

// update runs fn in one write transaction: the reads of this process are
// drained and the file is opened for writing, written and closed.
func (c *Cache) update(fn func(b *bolt.Bucket) error) error {
	c.mu.Lock()
	for c.writing {
		c.cond.Wait()
	}
	c.writing = true
	for c.readers > 0 {
		c.cond.Wait()
	}
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.writing = false
		c.cond.Broadcast()
		c.mu.Unlock()
	}()
	db, err := c.open(false)
	if err != nil {
		return err
	}
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketResponses)
		if err != nil {
			return err
		}
		return fn(b)
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	return err
}

// putReq is one write waiting for the writer goroutine.
type putReq struct {
	key, val []byte
	done     chan error
}

// writer commits queued writes in groups: it takes the first waiting write,
// adds every other write already queued, commits them in one transaction
// (one open, one fsync) and wakes their callers. Unlike bbolt's Batch it
// never waits for more writes to arrive, so a write costs at most about two
// commits.
func (c *Cache) writer() {
	defer close(c.stopped)
	for first := range c.queue {
		group := []putReq{first}
	drain:
		for {
			select {
			case r, ok := <-c.queue:
				if !ok {
					break drain
				}
				group = append(group, r)
			default:
				break drain
			}
		}
		err := c.update(func(b *bolt.Bucket) error {
			for _, r := range group {
				if err := b.Put(r.key, r.val); err != nil {
					return err
				}
			}
			return nil
		})
		for _, r := range group {
			r.done <- err
		}
	}
}

var (
	cacheMu sync.Mutex
	caches  = map[string]*Cache{}
)

// OpenCache opens (creating) the cache in dir. Calls with the same folder
// share one handle; each must be matched by a Close. The file is not held
// between operations (see Cache).
func OpenCache(dir string) (*Cache, error) {
	if dir == "" {
		return nil, errors.New("llm: no cache folder given")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path, err := filepath.Abs(filepath.Join(dir, cacheFile))
	if err != nil {
		return nil, err
	}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if c := caches[path]; c != nil {
		c.refs++
		return c, nil
	}
	c := &Cache{path: path, refs: 1, queue: make(chan putReq, 256), stopped: make(chan struct{})}
	c.cond = sync.NewCond(&c.mu)
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		// A new file: make it (with its bucket) once, so reads can open it
		// read-only.
		if err := c.update(func(*bolt.Bucket) error { return nil }); err != nil {
			return nil, err
		}
	}
	go c.writer()
	caches[path] = c
	return c, nil
}

// Path is the cache file.
func (c *Cache) Path() string { return c.path }

// Close releases this handle; the last Close waits for queued writes.
func (c *Cache) Close() error {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if c.refs <= 0 {
		return nil
	}
	c.refs--
	if c.refs > 0 {
		return nil
	}
	delete(caches, c.path)
	c.qmu.Lock()
	c.closed = true
	close(c.queue)
	c.qmu.Unlock()
	<-c.stopped
	return nil
}

// Entry is what the cache keeps per request: the response and what it
// answered (model, template version, the prompt's hash and the parameters:
// everything the cache key hashes), never the endpoint or the key.
type Entry struct {
	Model    string   `json:"model"`
	Template string   `json:"template"`
	Response Response `json:"response"`
	Created  string   `json:"created"`
	// Prompt (hashPrompt of the messages) and Params tie the entry to its
	// request: RequestKey recomputes its cache key from them, so a result
	// pack cannot pair a reply with another request. Empty in entries
	// cached by esrkit versions before result packs checked it.
	Prompt string  `json:"prompt,omitempty"`
	Params *Params `json:"params,omitempty"`
}

// RequestKey is the cache key of the request the entry answers, recomputed
// from its model, template, prompt hash and parameters; ok is false for an
// entry that does not record its request.
func (e Entry) RequestKey() (key string, ok bool) {
	if e.Prompt == "" || e.Params == nil {
		return "", false
	}
	return keyOf(e.Model, e.Template, e.Prompt, *e.Params), true
}

// Get returns the entry stored under key. An entry without an answer (an
// empty reply stored by an older esrkit) is reported as absent, so it is
// asked again.
func (c *Cache) Get(key string) (Entry, bool, error) {
	var e Entry
	var found bool
	err := c.view(func(b *bolt.Bucket) error {
		if b == nil {
			return nil
		}
		v := b.Get([]byte(key))
		if v == nil {
			return nil
		}
		found = true
		return json.Unmarshal(v, &e)
	})
	if err != nil {
		return Entry{}, false, fmt.Errorf("llm cache %s: entry %s: %w", c.path, key, err)
	}
	if found && e.Response.Empty() {
		return Entry{}, false, nil
	}
	return e, found, nil
}

// Put stores e under key and returns once it is committed to disk (writes
// from concurrent callers share transactions; see writer). An entry
// without an answer is refused. Put must not be called after the last
// Close.
func (c *Cache) Put(key string, e Entry) error {
	if e.Response.Empty() {
		return fmt.Errorf("llm cache %s: entry %s: an empty reply is not an answer", c.path, key)
	}
	if e.Created == "" {
		e.Created = time.Now().UTC().Format(time.RFC3339)
	}
	v, err := json.Marshal(e)
	if err != nil {
		return err
	}
	r := putReq{key: []byte(key), val: v, done: make(chan error, 1)}
	c.qmu.RLock()
	if c.closed {
		c.qmu.RUnlock()
		return fmt.Errorf("llm cache %s is closed", c.path)
	}
	c.queue <- r
	c.qmu.RUnlock()
	return <-r.done
}

// Len is the number of cached responses.
func (c *Cache) Len() int {
	n := 0
	c.view(func(b *bolt.Bucket) error {
		if b != nil {
			n = b.Stats().KeyN
		}
		return nil
	})
	return n
}

// Params are the generation parameters that are part of a cache key.
type Params struct {
	Temperature float64 `json:"temperature"`
	MaxTokens   int     `json:"max_tokens"`
	N           int     `json:"n"`
}

// Key is the cache key of a request: hex sha256 of (model, template version,
// sha256 of the messages, params). The endpoint and the API key are not part
// of it.
func cacheKey(model, templateVersion string, messages []Message, p Params) string {
	return keyOf(model, templateVersion, hashPrompt(messages), p)
}

// hashPrompt is the hex SHA-256 of the messages' JSON: the prompt's part of
// a cache key (Entry.Prompt).
func hashPrompt(messages []Message) string {
	mj, _ := json.Marshal(messages)
	ph := sha256.Sum256(mj)
	return hex.EncodeToString(ph[:])
}

func keyOf(model, templateVersion, promptHash string, p Params) string {
	kj, _ := json.Marshal(struct {
		Model    string `json:"model"`
		Template string `json:"template"`
		Prompt   string `json:"prompt"`
		Params   Params `json:"params"`
	}{model, templateVersion, promptHash, p})
	h := sha256.Sum256(kj)
	return hex.EncodeToString(h[:])
}

// entryFor is the cache entry answering req (under templateVersion) with resp.
func entryFor(req Request, templateVersion string, resp Response) Entry {
	return Entry{Model: req.Model, Template: templateVersion, Response: resp, Prompt: hashPrompt(req.Messages),
		Params: &Params{Temperature: req.Temperature, MaxTokens: req.MaxTokens, N: 1}}
}

// NotCachedError is returned for a request that is not in the cache when
// no endpoint may be called (offline, cache-only readers and judges, such as
// the notebooks' when an endpoint is configured). Its text names the
// command that fills the cache.
type NotCachedError struct {
	Model    string
	Template string
}

// fillCommand is the command NotCachedError tells the user to run.
const fillCommand = "make llm-cache (or: go run ./cmd/esr run all), or import a batch or a result pack (docs/llm-at-scale.md)"

func (e *NotCachedError) Error() string {
	return fmt.Sprintf("llm: model %s: answer not in the response cache, and this run reads the cache only (offline). "+
		"Fill the cache first: %s; `esr run all --dry-run` counts what is missing. Set %s=1 to let notebooks call the endpoint themselves.",
		e.Model, fillCommand, EnvOnline)
}

// ErrNotCached matches every *NotCachedError with errors.Is.
var ErrNotCached = errors.New("llm: answer not cached")

func (e *NotCachedError) Is(target error) bool { return target == ErrNotCached }

// Cached answers a request from the cache or the client, storing a fresh
// response before returning it. hit reports a cache hit. c may be nil (no
// cache); client may be nil (cache only: a miss is a *NotCachedError).
// Concurrent calls for the same request share one HTTP call.
//
// When ctx carries a Plan (WithPlan), nothing is sent: the request is
// recorded in the plan and a miss answers with an empty response (read as
// an abstention).
func Cached(ctx context.Context, client *Client, c *Cache, templateVersion string, req Request) (resp Response, hit bool, err error) {
	key := cacheKey(req.Model, templateVersion, req.Messages, Params{Temperature: req.Temperature, MaxTokens: req.MaxTokens, N: 1})
	var e Entry
	var ok bool
	if c != nil {
		if e, ok, err = c.Get(key); err != nil {
			return Response{}, false, err
		}
	}
	if p := planFrom(ctx); p != nil {
		p.add(key, templateVersion, req, ok)
		return e.Response, ok, nil
	}
	if ok {
		return e.Response, true, nil
	}
	if client == nil {
		return Response{}, false, &NotCachedError{Model: req.Model, Template: templateVersion}
	}
	if c == nil {
		resp, err := client.Chat(ctx, req)
		return resp, false, err
	}
	return c.fetch(ctx, key, client, templateVersion, req)
}

// call is one request in flight, shared by callers asking the same key.
type call struct {
	done chan struct{}
	resp Response
	err  error
}

// fetch sends req once however many callers ask for key at the same time,
// and stores the response.
func (c *Cache) fetch(ctx context.Context, key string, client *Client, templateVersion string, req Request) (Response, bool, error) {
	c.flightMu.Lock()
	if c.inflight == nil {
		c.inflight = map[string]*call{}
	}
	if cl := c.inflight[key]; cl != nil {
		c.flightMu.Unlock()
		select {
		case <-cl.done:
			if cl.err == nil {
				return cl.resp, true, nil
			}
			// The leader failed (perhaps its own context ended): ask again.
			return Cached(ctx, client, c, templateVersion, req)
		case <-ctx.Done():
			return Response{}, false, ctx.Err()
		}
	}
	cl := &call{done: make(chan struct{})}
	c.inflight[key] = cl
	c.flightMu.Unlock()
	defer func() {
		c.flightMu.Lock()
		delete(c.inflight, key)
		c.flightMu.Unlock()
		close(cl.done)
	}()
	resp, err := client.Chat(ctx, req)
	if err != nil {
		cl.err = err
		return Response{}, false, err
	}
	if err := c.Put(key, entryFor(req, templateVersion, resp)); err != nil {
		cl.err = err
		return Response{}, false, fmt.Errorf("llm cache: %w", err)
	}
	cl.resp = resp
	return resp, false, nil
}
