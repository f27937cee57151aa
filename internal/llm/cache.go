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
)

// CacheFile is the cache's file name inside its folder.
const CacheFile = "llm-cache.bolt"

var bucketResponses = []byte("responses")

// Cache is the persistent response cache: a bbolt file in a folder, shared by
// every reader, judge and extractor of the process that opens the same
// folder (bbolt allows one process per file; a second process waits up to a
// second, then fails with a clear error). Safe for concurrent use.
type Cache struct {
	path    string
	db      *bolt.DB
	refs    int          // guarded by cacheMu
	mu      sync.RWMutex // Put holds it shared while queueing; Close exclusively
	closed  bool
	queue   chan putReq
	stopped chan struct{}

	flightMu sync.Mutex
	inflight map[string]*call
}

// putReq is one write waiting for the writer goroutine.
type putReq struct {
	key, val []byte
	done     chan error
}

// writer commits queued writes in groups: it takes the first waiting write,
// adds every other write already queued, commits them in one transaction
// (one fsync) and wakes their callers. Unlike bbolt's Batch it never waits
// for more writes to arrive, so a write costs at most about two commits.
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
		err := c.db.Update(func(tx *bolt.Tx) error {
			b := tx.Bucket(bucketResponses)
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
// share one handle; each must be matched by a Close.
func OpenCache(dir string) (*Cache, error) {
	if dir == "" {
		return nil, errors.New("llm: no cache folder given")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path, err := filepath.Abs(filepath.Join(dir, CacheFile))
	if err != nil {
		return nil, err
	}
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if c := caches[path]; c != nil {
		c.refs++
		return c, nil
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return nil, fmt.Errorf("llm cache %s is in use by another process (wait for it or use another --cache)", path)
		}
		return nil, fmt.Errorf("llm cache %s: %w", path, err)
	}
	if err := db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucketIfNotExists(bucketResponses)
		return err
	}); err != nil {
		db.Close()
		return nil, err
	}
	c := &Cache{path: path, db: db, refs: 1, queue: make(chan putReq, 256), stopped: make(chan struct{})}
	go c.writer()
	caches[path] = c
	return c, nil
}

// Path is the cache file.
func (c *Cache) Path() string { return c.path }

// Close releases this handle; the file closes with the last one.
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
	c.mu.Lock()
	c.closed = true
	close(c.queue)
	c.mu.Unlock()
	<-c.stopped
	return c.db.Close()
}

// Entry is what the cache keeps per request: the response and what it
// answered (model and template version), never the endpoint or the key.
type Entry struct {
	Model    string   `json:"model"`
	Template string   `json:"template"`
	Response Response `json:"response"`
	Created  string   `json:"created"`
}

// Get returns the entry stored under key.
func (c *Cache) Get(key string) (Entry, bool, error) {
	var e Entry
	var found bool
	err := c.db.View(func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketResponses).Get([]byte(key))
		if v == nil {
			return nil
		}
		found = true
		return json.Unmarshal(v, &e)
	})
	if err != nil {
		return Entry{}, false, fmt.Errorf("llm cache %s: entry %s: %w", c.path, key, err)
	}
	return e, found, nil
}

// Put stores e under key and returns once it is committed to disk (writes
// from concurrent callers share transactions; see writer). Put must not be
// called after the last Close.
func (c *Cache) Put(key string, e Entry) error {
	if e.Created == "" {
		e.Created = time.Now().UTC().Format(time.RFC3339)
	}
	v, err := json.Marshal(e)
	if err != nil {
		return err
	}
	r := putReq{key: []byte(key), val: v, done: make(chan error, 1)}
	c.mu.RLock()
	if c.closed {
		c.mu.RUnlock()
		return fmt.Errorf("llm cache %s is closed", c.path)
	}
	c.queue <- r
	c.mu.RUnlock()
	return <-r.done
}

// Len is the number of cached responses.
func (c *Cache) Len() int {
	n := 0
	c.db.View(func(tx *bolt.Tx) error {
		n = tx.Bucket(bucketResponses).Stats().KeyN
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
func Key(model, templateVersion string, messages []Message, p Params) string {
	mj, _ := json.Marshal(messages)
	ph := sha256.Sum256(mj)
	kj, _ := json.Marshal(struct {
		Model    string `json:"model"`
		Template string `json:"template"`
		Prompt   string `json:"prompt"`
		Params   Params `json:"params"`
	}{model, templateVersion, hex.EncodeToString(ph[:]), p})
	h := sha256.Sum256(kj)
	return hex.EncodeToString(h[:])
}

// NotCachedError is returned for a request that is not in the cache when
// no endpoint may be called (offline, cache-only readers and judges, such as
// the notebooks' when an endpoint is configured). Its text names the
// command that fills the cache.
type NotCachedError struct {
	Model    string
	Template string
}

// FillCommand is the command NotCachedError tells the user to run.
const FillCommand = "make llm-cache (or: go run ./cmd/esr run all), or import a batch or a result pack (docs/llm-at-scale.md)"

func (e *NotCachedError) Error() string {
	return fmt.Sprintf("llm: model %s: answer not in the response cache, and this run reads the cache only (offline). "+
		"Fill the cache first: %s; `esr run all --dry-run` counts what is missing. Set %s=1 to let notebooks call the endpoint themselves.",
		e.Model, FillCommand, EnvOnline)
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
	key := Key(req.Model, templateVersion, req.Messages, Params{Temperature: req.Temperature, MaxTokens: req.MaxTokens, N: 1})
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
	if err := c.Put(key, Entry{Model: req.Model, Template: templateVersion, Response: resp}); err != nil {
		cl.err = err
		return Response{}, false, fmt.Errorf("llm cache: %w", err)
	}
	cl.resp = resp
	return resp, false, nil
}
