package memory

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/internal/adapter"
)

// ExecPrefix names a memory served by an external process over the
// esr-adapter/2 protocol (docs/adapter-protocol.md): "exec:PATH" runs the
// executable file PATH (relative to the working directory; $PATH is not
// searched) with the mechanism on, "exec:PATH~render-only" is its
// render-matched control (the same adapter told the mechanism is off, and
// sent every relation as SAME_STATE).
const ExecPrefix = "exec:"

// Adapter is the exec: adapter that building s starts, if any: s's own
// class, or the class whose kept atoms s is built over (kept=).
func (s Spec) Adapter() (Class, bool) {
	switch {
	case s.Class.IsExec():
		return s.Class, true
	case s.Params.Kept.Class.IsExec():
		return s.Params.Kept.Class, true
	}
	return "", false
}

// SameAdapter reports whether two exec: classes run one file: their paths,
// taken from the working directory as exec: takes them, are the same once
// cleaned ("exec:./a" and "exec:a").
func SameAdapter(a, b Class) bool {
	abs := func(c Class) string {
		p := strings.TrimPrefix(string(c), ExecPrefix)
		if a, err := filepath.Abs(p); err == nil {
			return a
		}
		return filepath.Clean(p)
	}
	return a.IsExec() && b.IsExec() && abs(a) == abs(b)
}

// adapterProtocol is the protocol version exec: adapters speak.
const adapterProtocol = adapter.Protocol

// CloseAdapters ends every exec: adapter process this program started.
func CloseAdapters() { adapter.CloseAll() }

// HoldAdapters keeps the exec: adapter processes running until release is
// called; the last release closes them. Evaluations that may run beside
// one another hold the adapters instead of closing them when they end.
func HoldAdapters() (release func()) { return adapter.Hold() }

// InterruptAdapters ends every exec: adapter's process group at once (an
// interrupted or terminated run): a call in flight returns an error saying
// it was interrupted instead of waiting out the adapter's timeout.
func InterruptAdapters() { adapter.InterruptAll() }

// execState is a memory served by an adapter process: its rows come from
// the adapter's build response, its render from one render request per
// query (cached), and its structured read-out from the rows.
type execState struct {
	name   string
	stream *esr.Stream
	client *adapter.Client
	req    adapter.Request
	rows   []adapter.Row
	// perState: the adapter declared its render independent of the query
	// (Description.RenderPerState): one render request per state.
	perState bool

	mu      sync.Mutex
	renders map[adapter.Query]string
	err     error
}

// buildExec starts (or reuses) sp's adapter and has it build the state,
// sending the relations of opt's relation source.
func buildExec(sp Spec, name string, s *esr.Stream, atoms []esr.Atom, opt Options) (State, error) {
	path := strings.TrimPrefix(string(sp.Class), ExecPrefix)
	// Its hello says whether a render depends on the query (asked once per
	// process; an adapter that does not know hello is asked per query).
	desc, _, err := adapter.Describe(path)
	if err != nil {
		return nil, err
	}
	c, err := adapter.Get(path) // after Describe, which may start it again
	if err != nil {
		return nil, err
	}
	rel := opt.relator().ForStream(s, atoms)
	var pairs []adapter.Pair
	for i := range atoms {
		for j := i + 1; j < len(atoms); j++ {
			if atoms[i].Key() == atoms[j].Key() {
				pairs = append(pairs, adapter.Pair{A: atoms[i].ID, B: atoms[j].ID, Relation: rel(&atoms[i], &atoms[j])})
			}
		}
	}
	if pairs == nil {
		pairs = []adapter.Pair{}
	}
	if atoms == nil {
		atoms = []esr.Atom{}
	}
	st := &execState{name: name, stream: s, client: c, renders: map[adapter.Query]string{}, perState: desc != nil && desc.RenderPerState,
		req: adapter.Request{Op: adapter.OpBuild, Stream: s, Atoms: atoms, Relations: pairs, Mechanism: !opt.MechanismOff}}
	// Every request of this state carries the same stream, atoms and
	// relations: encoded once (a long stream's are most of each line).
	if err := st.req.Freeze(); err != nil {
		return nil, err
	}
	req := st.req
	resp, err := c.Call(&req)
	if err != nil {
		return nil, err
	}
	st.rows = resp.Rows
	return st, nil
}

func (e *execState) Class() string    { return e.name }
func (e *execState) MayAbstain() bool { return true }

func (e *execState) Err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

// Render asks the adapter for the render of q (once per query, or once
// per state when the adapter declared its render independent of the query).
func (e *execState) Render(q esr.Query) string {
	aq := adapter.Query{Type: q.Type, Entity: q.Key.Entity, Attribute: q.Key.Attribute, Question: q.Question}
	memo := aq
	if e.perState && perStateRenders {
		memo = adapter.Query{}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if r, ok := e.renders[memo]; ok {
		return r
	}
	if e.err != nil {
		return ""
	}
	req := e.req
	req.Op, req.Query = adapter.OpRender, &aq
	resp, err := e.client.Call(&req)
	if err != nil {
		e.err = err
		return ""
	}
	e.renders[memo] = *resp.Render
	return *resp.Render
}

// closedStatus reports whether a row's status says it is no longer in force.
func closedStatus(s string) bool {
	switch strings.ToLower(s) {
	case "closed", "deprecated", "refined", "invalid", "invalidated", "expired", "superseded", "set_aside", "unrelated":
		return true
	}
	return false
}

func (e *execState) keyRows(k esr.Key) []adapter.Row {
	var out []adapter.Row
	for _, r := range e.rows {
		if r.Entity == k.Entity && r.Attribute == k.Attribute {
			out = append(out, r)
		}
	}
	return out
}

func rowLive(r adapter.Row) bool { return r.InvalidAt.IsZero() && !closedStatus(r.Status) }

// Answer reads the rows: snapshot is the value of the rows in force when
// they agree (ABSTAIN otherwise); provenance is the most recently closed
// row with another value; relation type is "refines" when that row's status
// is "refined", "replaces" otherwise.
func (e *execState) Answer(q esr.Query) esr.Answer {
	rows := e.keyRows(q.Key)
	var live []string
	for _, r := range rows {
		if rowLive(r) && !slices.Contains(live, r.Value) {
			live = append(live, r.Value)
		}
	}
	if q.Type == esr.Snapshot {
		if len(live) == 1 {
			return esr.Says(live[0])
		}
		return esr.Abstain
	}
	if len(live) != 1 {
		return esr.Abstain
	}
	best := -1
	for i, r := range rows {
		if rowLive(r) || r.Value == live[0] {
			continue
		}
		if best < 0 || !r.InvalidAt.Before(rows[best].InvalidAt.Time) {
			best = i
		}
	}
	if best < 0 {
		return esr.Abstain
	}
	if q.Type == esr.RelationType {
		if strings.EqualFold(rows[best].Status, "refined") {
			return esr.Says(esr.AnswerRefines)
		}
		return esr.Says(esr.AnswerReplaces)
	}
	return esr.Says(rows[best].Value)
}

func (e *execState) Rows() []Row {
	var out []Row
	for _, k := range keysOfRows(e.rows) {
		r := Row{StreamID: e.stream.ID, Entity: k.Entity, Attribute: k.Attribute, Facet: k.Facet, Status: esr.KeyStatusOK,
			Current: []string{}, Support: []string{}, Deprecated: []string{}, History: []esr.HistoryEntry{}}
		for _, x := range e.keyRows(k) {
			if rowLive(x) {
				if !slices.Contains(r.Current, x.Value) {
					r.Current = append(r.Current, x.Value)
				}
				if x.ValidAt.After(r.ValidSince.Time) {
					r.ValidSince = x.ValidAt
				}
			}
			r.History = append(r.History, esr.HistoryEntry{Value: x.Value, ValidAt: x.ValidAt, InvalidAt: x.InvalidAt})
		}
		if len(r.Current) > 1 {
			r.Status = esr.KeyStatusUnresolved
		}
		out = append(out, r)
	}
	return out
}

func keysOfRows(rows []adapter.Row) []esr.Key {
	var out []esr.Key
	seen := map[esr.Key]bool{}
	for _, r := range rows {
		k := esr.Key{Entity: r.Entity, Attribute: r.Attribute}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// checkExtra checks an exec: name's executable before a run starts.
func checkExtra(sp Spec) error {
	if !sp.Class.IsExec() {
		return nil
	}
	return adapter.Check(strings.TrimPrefix(string(sp.Class), ExecPrefix))
}
