// Package adapter is the transport of the esr-adapter/2 protocol
// (docs/adapter-protocol.md): a memory implemented by any executable that
// reads one JSON request per line on its standard input and writes one JSON
// response per line on its standard output, echoing the request's id. One
// process per executable serves every request of a run, one request at a
// time, in a process group of its own that is ended with it, as is every
// process it started, in that group or not (RunEnv).
//
// Faults end the call with an error that names the adapter, the stream and
// the line: a process that exits before answering (with the end of its
// standard error), one that does not answer within Timeout (its process
// group is killed), a line that is not a valid response, and a response
// whose id is not the request's (a stray line: every later answer would
// belong to another request).
package adapter

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/internal/regfile"
)

// Protocol is the protocol version every request and response carries.
const Protocol = "esr-adapter/2"

// protocolV1 is the previous version (no request ids), named in the error
// an adapter that still speaks it gets.
const protocolV1 = "esr-adapter/1"

// Operations.
const (
	OpBuild  = "build"  // state rows for a stream (no query)
	OpRender = "render" // state rows and the render for one query
	// OpHello asks the adapter to describe itself (Description): what
	// esrkit's resume check should cover besides the file it runs.
	OpHello = "hello"
)

// Description is what an adapter says of itself in its answer to hello:
// a version of its own, and the files (or folders) it runs or reads beside
// the file exec: runs, relative to that file's folder or absolute. The
// rows' fingerprint covers them, so a wrapper (exec python3 impl.py) that
// names impl.py is checked on impl.py's content.
type Description struct {
	Version string   `json:"version,omitempty"`
	Files   []string `json:"files,omitempty"`
	// RenderPerState declares that the adapter's render depends on its
	// state only (stream, atoms, relations, mechanism), never on the
	// query: esrkit then asks for one render per state and shows it for
	// every query of that state. Each render request resends the whole
	// stream, so per query it was most of a long stream's cost.
	RenderPerState bool `json:"render_per_state,omitempty"`
}

// Pair is the relation source's label for one co-keyed pair (a earlier, b
// later), by atom id.
type Pair struct {
	A        string       `json:"a"`
	B        string       `json:"b"`
	Relation esr.Relation `json:"relation"`
}

// Query is what the memory is asked (no gold fields).
type Query struct {
	Type      esr.QueryType `json:"type"`
	Entity    string        `json:"entity"`
	Attribute string        `json:"attribute"`
	Question  string        `json:"question"`
}

// Request is one line sent to the adapter.
type Request struct {
	Protocol string `json:"protocol"`
	// ID numbers the request (1, 2, … per process: its line on the
	// adapter's input); the response must echo it.
	ID        int         `json:"id"`
	Op        string      `json:"op"`
	Stream    *esr.Stream `json:"stream"`
	Atoms     []esr.Atom  `json:"atoms"`
	Relations []Pair      `json:"relations"`
	// Mechanism is false for the render-matched control: the adapter must
	// then show no deprecation signal (every relation is SAME_STATE).
	Mechanism bool   `json:"mechanism"`
	Query     *Query `json:"query,omitempty"`

	// state is the JSON of Stream, Atoms, Relations and Mechanism, as
	// json.Marshal writes them inside the request's object, once Freeze
	// made it: a stream's render requests differ only in their id and
	// query, and its stream and atoms are most of their bytes.
	state []byte
}

// stateFields are a Request's members between its op and its query, in
// the order json.Marshal writes them.
type stateFields struct {
	Stream    *esr.Stream `json:"stream"`
	Atoms     []esr.Atom  `json:"atoms"`
	Relations []Pair      `json:"relations"`
	Mechanism bool        `json:"mechanism"`
}

// Freeze encodes r's stream, atoms, relations and mechanism once, for
// every request made from r by changing only its op, id and query (a
// copy of r keeps the encoding): Call then writes the same bytes as
// json.Marshal of the whole request without encoding them again. Changing
// any of the four afterwards is a mistake: the request would still carry
// the frozen ones.
func (r *Request) Freeze() error {
	b, err := json.Marshal(stateFields{r.Stream, r.Atoms, r.Relations, r.Mechanism})
	if err != nil {
		return err
	}
	r.state = b[1 : len(b)-1]
	return nil
}

// encode is the request's line (without its newline): json.Marshal(r),
// from the frozen state when Freeze made it.
func (r *Request) encode() ([]byte, error) {
	if r.state == nil {
		return json.Marshal(r)
	}
	head, err := json.Marshal(struct {
		Protocol string `json:"protocol"`
		ID       int    `json:"id"`
		Op       string `json:"op"`
	}{r.Protocol, r.ID, r.Op})
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(head)+len(r.state)+256)
	b = append(append(append(b, head[:len(head)-1]...), ','), r.state...)
	if r.Query != nil {
		q, err := json.Marshal(r.Query)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"query":`...), q...)
	}
	return append(b, '}'), nil
}

// Row is one value the memory keeps, with its validity window and status.
type Row struct {
	Entity    string   `json:"entity"`
	Attribute string   `json:"attribute"`
	Value     string   `json:"value"`
	ValidAt   esr.Time `json:"valid_at"`
	InvalidAt esr.Time `json:"invalid_at"` // null while in force
	Status    string   `json:"status"`
}

// Response is one line read from the adapter.
type Response struct {
	Protocol string  `json:"protocol"`
	ID       *int    `json:"id"`
	Rows     []Row   `json:"rows"`
	Render   *string `json:"render"`
	Error    string  `json:"error"`
	// Adapter is the adapter's description, in its answer to hello.
	Adapter *Description `json:"adapter,omitempty"`
}

// Timeout bounds each request, from the first byte written to the last
// byte of its answer read; ESR_ADAPTER_TIMEOUT (a Go duration, e.g. "90s")
// overrides the default at start-up.
var Timeout = 60 * time.Second

// MaxLine bounds one line of an adapter's output (a response with its
// render): a longer line stops the adapter with an error.
var MaxLine = 64 << 20

// errLineTooLong ends the output of an adapter whose line passed MaxLine.
var errLineTooLong = errors.New("output line too long")

func init() {
	if s := os.Getenv("ESR_ADAPTER_TIMEOUT"); s != "" {
		if d, err := time.ParseDuration(s); err == nil && d > 0 {
			Timeout = d
		}
	}
}

// Client is one running adapter process.
type Client struct {
	name string // "exec:PATH" as given, for messages
	path string // the absolute path that runs (Resolve)
	mark string // its RunEnv value, which its children inherit

	mu      sync.Mutex
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan lineOrErr
	stderr  *tail
	line    int   // requests sent (= the line number of the last request)
	outLine int   // lines read from the adapter's output
	dead    error // set once the process failed; every later call returns it
	exited  chan struct{}
	waitErr error

	interrupted atomic.Bool // set by InterruptAll before it kills the group

	helloDone bool         // Describe asked (guarded by poolMu)
	desc      *Description // its answer, nil when it gave none
	helloNote string       // why it gave none, when the hello failed
}

type lineOrErr struct {
	b   []byte
	err error
}

// tail keeps the last bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2048 {
		t.buf = t.buf[len(t.buf)-2048:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

var (
	poolMu sync.Mutex
	pool   = map[string]*Client{}
)

// Resolve is the one file exec:PATH runs: PATH made absolute against the
// working directory. A bare name is a file in the working directory; $PATH
// is never searched, so the file checked is the file run. It must be an
// executable regular file.
func Resolve(path string) (string, error) {
	if path == "" {
		return "", errors.New("adapter exec: needs a path (exec:PATH)")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("adapter exec:%s: %w", path, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("adapter exec:%s: %w (exec:PATH names a file, relative to the working directory; $PATH is not searched)", path, err)
	}
	if fi.IsDir() || fi.Mode()&0o111 == 0 {
		return "", fmt.Errorf("adapter exec:%s: not an executable file (set its run bit: chmod +x %s)", path, path)
	}
	return abs, nil
}

// Check reports whether path names an executable file (see Resolve).
func Check(path string) error {
	_, err := Resolve(path)
	return err
}

// Get returns the running process for path, starting it when there is none
// (or the previous one failed). It runs exactly the file Resolve names, as
// the leader of a new process group.
func Get(path string) (*Client, error) {
	abs, err := Resolve(path)
	if err != nil {
		return nil, err
	}
	poolMu.Lock()
	defer poolMu.Unlock()
	if interrupted.Load() {
		return nil, fmt.Errorf("adapter exec:%s: interrupted", path)
	}
	if c := pool[abs]; c != nil {
		c.mu.Lock()
		dead := c.dead
		c.mu.Unlock()
		if dead == nil {
			return c, nil
		}
		c.killGroup() // what is left of the failed one
	}
	c := &Client{name: "exec:" + path, path: abs, mark: newRunMark(), stderr: &tail{}, lines: make(chan lineOrErr, 16), exited: make(chan struct{})}
	c.cmd = exec.Command(abs)
	c.cmd.Env = append(os.Environ(), RunEnv+"="+c.mark) // how its children are found (killGroup)
	c.cmd.Stderr = c.stderr
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // timeouts and Close end the whole group
	c.cmd.WaitDelay = time.Second                           // a killed adapter's children may hold its pipes
	stdin, err := c.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("adapter %s: %w", c.name, err)
	}
	c.stdin = stdin
	go func() {
		r := bufio.NewReaderSize(stdout, 1<<16)
		for {
			b, err := readLine(r, MaxLine)
			if len(b) > 0 && err == nil {
				c.lines <- lineOrErr{b: b}
				continue
			}
			if len(b) > 0 && err != errLineTooLong { // a last line without newline
				c.lines <- lineOrErr{b: b}
			}
			if err == nil {
				err = io.EOF
			}
			c.lines <- lineOrErr{err: err}
			close(c.lines)
			if err == errLineTooLong {
				io.Copy(io.Discard, r) // let the adapter finish writing until it is stopped
			}
			return
		}
	}()
	go func() {
		c.waitErr = c.cmd.Wait()
		close(c.exited)
	}()
	pool[abs] = c
	return c, nil
}

// readLine reads one line (with its newline) of at most max bytes;
// errLineTooLong once it passes max.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		if len(line)+len(frag) > max {
			return nil, errLineTooLong
		}
		line = append(line, frag...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

// interrupted is set by InterruptAll: Get starts no process after it.
var interrupted atomic.Bool

// InterruptAll ends every adapter process at once (its whole process
// group), without the grace CloseAll gives: for an interrupted run, whose
// call in flight then returns at once, saying it was interrupted, instead
// of waiting out Timeout. Get starts no adapter after it (the program is
// ending).
func InterruptAll() {
	interrupted.Store(true)
	poolMu.Lock()
	defer poolMu.Unlock()
	for _, c := range pool {
		c.interrupted.Store(true)
		c.killGroup()
	}
}

// holds counts the Holds not yet released (guarded by poolMu).
var holds int

// Hold keeps the adapter processes running until the returned release
// is called; the last release of all closes them (CloseAll). An
// evaluation that uses adapters holds them, so one evaluation ending does
// not end a process another, running beside it, still calls.
func Hold() (release func()) {
	poolMu.Lock()
	holds++
	poolMu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			poolMu.Lock()
			holds--
			last := holds == 0
			poolMu.Unlock()
			if last {
				CloseAll()
			}
		})
	}
}

// CloseAll ends every adapter process (closing its input, then killing it
// if it has not exited within a second).
func CloseAll() {
	poolMu.Lock()
	defer poolMu.Unlock()
	for p, c := range pool {
		c.close()
		delete(pool, p)
	}
}

func (c *Client) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stdin != nil {
		c.stdin.Close()
	}
	// Wait up to a second for the adapter itself to exit (exited also
	// waits for its output pipes, which its children may hold).
	for end := time.Now().Add(time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if c.leaderGone() {
			break
		}
	}
	// The adapter's children end with it, whether it exited or not.
	c.killGroup()
	<-c.exited
	if c.dead == nil {
		c.dead = fmt.Errorf("adapter %s: closed", c.name)
	}
}

// Name is "exec:PATH".
func (c *Client) Name() string { return c.name }

// Call sends req and reads its response. The error names the adapter, the
// stream and the line (the request's line on the adapter's input, which is
// the line of its answer on its output).
func (c *Client) Call(req *Request) (*Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead != nil {
		return nil, c.dead
	}
	req.Protocol = Protocol
	sid := ""
	if req.Stream != nil {
		sid = req.Stream.ID
	}
	c.line++
	req.ID = c.line
	where := fmt.Sprintf("adapter %s: stream %s: line %d", c.name, sid, c.line)
	if req.Op == OpHello {
		where = fmt.Sprintf("adapter %s: line %d (hello)", c.name, c.line)
	}
	fail := func(format string, args ...any) (*Response, error) {
		if c.interrupted.Load() {
			c.dead = fmt.Errorf("%s: interrupted: the adapter was stopped", where)
			return nil, c.dead
		}
		c.dead = fmt.Errorf(where+": "+format, args...)
		return nil, c.dead
	}
	data, err := req.encode()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	timer := time.NewTimer(Timeout)
	defer timer.Stop()
	timedOut := func() (*Response, error) {
		c.kill()
		return fail("no answer within %s; the adapter was stopped (set ESR_ADAPTER_TIMEOUT to allow more)", Timeout)
	}
	// The request is written inside the timeout: an adapter that does not
	// read its input blocks the write once the pipe's buffer is full, and
	// stopping it (on the timeout) ends the write.
	wrote := make(chan error, 1)
	go func() {
		_, err := c.stdin.Write(append(data, '\n'))
		wrote <- err
	}()
	select {
	case err := <-wrote:
		if err != nil {
			return fail("cannot send the request (%v)%s", err, c.exitNote())
		}
	case <-timer.C:
		resp, err := timedOut()
		<-wrote // the write ends with the adapter's input
		return resp, err
	}
	select {
	case l, ok := <-c.lines:
		if ok && l.err == errLineTooLong {
			c.kill()
			return fail("output line %d is longer than %d MiB; the adapter was stopped", c.outLine+1, MaxLine>>20)
		}
		if !ok || l.err != nil {
			return fail("the adapter ended without answering%s", c.exitNote())
		}
		c.outLine++
		var resp Response
		dec := json.NewDecoder(bytes.NewReader(l.b))
		if err := dec.Decode(&resp); err != nil {
			c.kill()
			return fail("malformed JSON on the adapter's output line %d (%v): %s", c.outLine, err, snippet(l.b))
		}
		if rest := bytes.TrimSpace(l.b[dec.InputOffset():]); len(rest) > 0 {
			c.kill()
			return fail("malformed output line %d: %s after the response object (one object per line): %s", c.outLine, snippet(rest), snippet(l.b))
		}
		if resp.Protocol == protocolV1 {
			c.kill()
			return fail("the adapter speaks %s; esrkit speaks %s: echo each request's \"id\" in its response and answer with \"protocol\": %q (docs/adapter-protocol.md)",
				protocolV1, Protocol, Protocol)
		}
		if resp.Protocol != Protocol {
			c.kill()
			return fail("response protocol %q, want %q: %s", resp.Protocol, Protocol, snippet(l.b))
		}
		if resp.ID == nil || *resp.ID != req.ID {
			c.kill()
			got := "no \"id\""
			if resp.ID != nil {
				got = fmt.Sprintf("id %d", *resp.ID)
			}
			return fail("output line %d has %s, want %d: the adapter's answers are out of step with its requests (a stray line?); nothing of this request is used: %s",
				c.outLine, got, req.ID, snippet(l.b))
		}
		if req.Op == OpHello {
			return &resp, nil // rows, render and error are optional here: Describe reads it
		}
		if resp.Error != "" {
			return nil, fmt.Errorf("%s: the adapter reports: %s", where, resp.Error)
		}
		if resp.Rows == nil {
			c.kill()
			return fail("response has no \"rows\" list: %s", snippet(l.b))
		}
		if req.Op == OpRender && resp.Render == nil {
			c.kill()
			return fail("render response has no \"render\" string: %s", snippet(l.b))
		}
		for i, r := range resp.Rows {
			if r.Entity == "" || r.Attribute == "" {
				c.kill()
				return fail("rows[%d] needs entity and attribute: %s", i, snippet(l.b))
			}
		}
		return &resp, nil
	case <-timer.C:
		return timedOut()
	}
}

// kill stops the process and its children (after a fault).
func (c *Client) kill() { c.killGroup() }

// leaderGone reports whether the adapter process has exited.
func (c *Client) leaderGone() bool {
	select {
	case <-c.exited:
		return true
	default:
	}
	return syscall.Kill(c.cmd.Process.Pid, 0) == syscall.ESRCH
}

// killGroup kills the adapter's process group, the adapter and every
// child it started that did not leave the group, and then every process
// started with its RunEnv mark: a child that left the group and session
// (setsid), or whose parent exited, ends with it too (killMarked).
func (c *Client) killGroup() {
	if c.cmd.Process != nil {
		syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	}
	killMarked(c.mark)
}

// exitNote waits briefly for the exit status and describes it with the end
// of the adapter's standard error.
func (c *Client) exitNote() string {
	select {
	case <-c.exited:
	case <-time.After(2 * time.Second):
	}
	var b strings.Builder
	select {
	case <-c.exited:
		if c.waitErr != nil {
			b.WriteString(" (" + c.waitErr.Error() + ")")
		} else {
			b.WriteString(" (exit status 0)")
		}
	default:
	}
	if s := c.stderr.String(); s != "" {
		if len(s) > 600 {
			s = "…" + s[len(s)-600:]
		}
		b.WriteString("; its stderr ends: " + s)
	}
	return b.String()
}

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// Describe returns the description the adapter at path gives of itself
// (starting it if need be), asking it once per process with the request
// {"op": "hello"}. An adapter may answer without one (desc nil), answer
// with an error (desc nil; note says so), or not know hello at all: when
// the hello fails (the process exits, answers out of protocol or not in
// time) the process is ended and started again without it, and note says
// why, so an adapter written before hello runs as before.
func Describe(path string) (desc *Description, note string, err error) {
	c, err := Get(path)
	if err != nil {
		return nil, "", err
	}
	poolMu.Lock()
	done, desc, note := c.helloDone, c.desc, c.helloNote
	poolMu.Unlock()
	if done {
		return desc, note, nil
	}
	resp, err := c.Call(&Request{Op: OpHello})
	switch {
	case err != nil && interrupted.Load():
		return nil, "", err
	case err != nil:
		note = "it did not answer hello (" + err.Error() + "); it was started again without it"
		if c, err = Get(path); err != nil { // a new process: the failed one is ended
			return nil, "", err
		}
	case resp.Error != "":
		note = "it answered hello with an error: " + resp.Error
	case resp.Adapter == nil:
		note = "its answer to hello names nothing"
	default:
		desc = resp.Adapter
	}
	poolMu.Lock()
	c.helloDone, c.desc, c.helloNote = true, desc, note
	poolMu.Unlock()
	return desc, note, nil
}

// Limits of what Fingerprint hashes of the files an adapter names.
const (
	maxFingerprintFiles = 100_000
	maxFingerprintBytes = 1 << 30
)

// Fingerprint identifies the adapter at path for the resume check: the
// SHA-256 of the file exec: runs and, from its hello (Describe), its
// version and the content of every file it names (a folder: every regular
// file under it, but hidden entries and __pycache__). A named file that is
// missing, or is not a regular file (a FIFO, whose open would wait for a
// writer for ever, or a device such as /dev/zero, which never ends), is an
// error. The hashing is bounded by Timeout, as a request is: past it, the
// error says so. covers says in words what was hashed.
func Fingerprint(path string) (fp, covers string, err error) {
	abs, err := Resolve(path)
	if err != nil {
		return "", "", err
	}
	desc, note, err := Describe(path)
	if err != nil {
		return "", "", err
	}
	h := sha256.New()
	budget := fingerprintBudget{files: maxFingerprintFiles, bytes: maxFingerprintBytes, deadline: time.Now().Add(Timeout)}
	if err := hashFile(h, abs, &budget); err != nil {
		return "", "", fmt.Errorf("adapter exec:%s: %w", path, err)
	}
	covers = "the file " + abs
	if desc == nil {
		covers += " only (" + note + ")"
		return hex.EncodeToString(h.Sum(nil)), covers, nil
	}
	fmt.Fprintf(h, "version %q\n", desc.Version)
	for _, f := range desc.Files {
		p := f
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(abs), p)
		}
		fmt.Fprintf(h, "file %q\n", f)
		if err := hashTree(h, p, &budget); err != nil {
			return "", "", fmt.Errorf("adapter exec:%s: a file its hello names: %w", path, err)
		}
	}
	covers += fmt.Sprintf(", its version %q and the %d files or folders its hello names", desc.Version, len(desc.Files))
	return hex.EncodeToString(h.Sum(nil)), covers, nil
}

// fingerprintBudget bounds what Fingerprint hashes: files, bytes, and the
// time by which it must be done.
type fingerprintBudget struct {
	files, bytes int64
	deadline     time.Time
}

// late is the error for hashing past the budget's deadline, or nil.
func (b *fingerprintBudget) late() error {
	if time.Now().After(b.deadline) {
		return fmt.Errorf("hashing the files took longer than %s; the adapter's timeout bounds it too (set ESR_ADAPTER_TIMEOUT to allow more)", Timeout)
	}
	return nil
}

// hashTree hashes the file p, or every regular file under the folder p in
// walk order (names and contents), skipping hidden entries and __pycache__.
func hashTree(h io.Writer, p string, b *fingerprintBudget) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return hashFile(h, p, b)
	}
	return filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := b.late(); err != nil {
			return err
		}
		name := d.Name()
		if q != p && (strings.HasPrefix(name, ".") || name == "__pycache__") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(p, q)
		fmt.Fprintf(h, "  %q\n", rel)
		return hashFile(h, q, b)
	})
}

// hashFile writes the SHA-256 of the regular file at p to h, within budget.
func hashFile(h io.Writer, p string, b *fingerprintBudget) error {
	if b.files--; b.files < 0 {
		return fmt.Errorf("more than %d files to fingerprint", maxFingerprintFiles)
	}
	if err := b.late(); err != nil {
		return err
	}
	f, _, err := regfile.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	fh := sha256.New()
	n, err := io.Copy(fh, io.LimitReader(deadlineReader{f, b}, b.bytes+1))
	if err != nil {
		return err
	}
	if b.bytes -= n; b.bytes < 0 {
		return fmt.Errorf("more than %d MiB to fingerprint", maxFingerprintBytes>>20)
	}
	fmt.Fprintf(h, "%x\n", fh.Sum(nil))
	return nil
}

// deadlineReader reads r until the budget's deadline, then fails.
type deadlineReader struct {
	r io.Reader
	b *fingerprintBudget
}

func (d deadlineReader) Read(p []byte) (int, error) {
	if err := d.b.late(); err != nil {
		return 0, err
	}
	return d.r.Read(p)
}
