package sim

import (
	"github.com/esrkit/esrkit/esr/reader"
	"github.com/esrkit/esrkit/internal/layout"

	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/esrkit/esrkit/esr"
)

// Conflict policies: what a scripted reader does when several candidate
// values remain after it has used its capabilities.
const (
	ConflictAbstain  = "abstain"
	ConflictFirst    = "pick-first"
	ConflictMajority = "pick-majority"
)

// ScriptedCapabilities are what a scripted reader can do with a render's text.
type ScriptedCapabilities struct {
	// UsesStatus: reads an explicit status column (LIVE / DEPRECATED /
	// REFINED / UNRELATED; "neutral" says nothing), abstains on a key whose
	// header says "status: unresolved", and reads a Graphiti-style
	// invalid_at ("present" = in force, a date = closed).
	UsesStatus bool `json:"uses_status"`
	// SortsByTime: orders records by their visible dates (ledger time
	// column, valid_at / invalid_at, "[e3 2024-03-01]" event lines) and takes
	// the newest as current.
	SortsByTime bool `json:"sorts_by_time"`
	// OnConflict is what happens when several candidate values remain:
	// "abstain", "pick-first" (first in the text) or "pick-majority" (the
	// most frequent value; a tie abstains).
	OnConflict string `json:"on_conflict"`
	// TokenBudget: only the first TokenBudget tokens (reader.CountTokens, whole
	// lines) of the context are read; 0 reads everything.
	TokenBudget int `json:"token_budget"`
}

// ScriptedProfile is a named scripted reader.
type ScriptedProfile struct {
	Name         string               `json:"name"`
	Summary      string               `json:"summary"`
	Capabilities ScriptedCapabilities `json:"capabilities"`
}

// defaultBudget is the budgeted profile's token budget: deliberately tiny,
// so that on the paper's three-event Figure 1 stream it already hides
// events; use "scripted:budgeted@N" for another budget.
const defaultBudget = 55

var profiles = []ScriptedProfile{
	{Name: "status-reader", Summary: "reads status columns and dates; abstains when candidates still disagree",
		Capabilities: ScriptedCapabilities{UsesStatus: true, SortsByTime: true, OnConflict: ConflictAbstain}},
	{Name: "time-sorter", Summary: "ignores status; takes the newest dated value; abstains when nothing is dated and values disagree",
		Capabilities: ScriptedCapabilities{SortsByTime: true, OnConflict: ConflictAbstain}},
	{Name: "cautious", Summary: "abstains on any disagreement unless a status column or invalid_at settles it; ignores dates",
		Capabilities: ScriptedCapabilities{UsesStatus: true, OnConflict: ConflictAbstain}},
	{Name: "budgeted", Summary: "time-sorter that reads only the first " + strconv.Itoa(defaultBudget) + " tokens (long-context loss)",
		Capabilities: ScriptedCapabilities{SortsByTime: true, OnConflict: ConflictAbstain, TokenBudget: defaultBudget}},
	{Name: "majority", Summary: "no dates, no status: the most frequent value (a tie abstains)",
		Capabilities: ScriptedCapabilities{OnConflict: ConflictMajority}},
	{Name: "naive", Summary: "no dates, no status: the first value it reads",
		Capabilities: ScriptedCapabilities{OnConflict: ConflictFirst}},
}

// scriptedProfiles lists the built-in scripted profiles.
func scriptedProfiles() []ScriptedProfile { return append([]ScriptedProfile(nil), profiles...) }

// AllScripted returns a reader of every built-in scripted profile, in
// scriptedProfiles' order.
func AllScripted() []reader.Reader {
	rs := make([]reader.Reader, len(profiles))
	for i, p := range profiles {
		r, err := NewScripted(p.Name)
		if err != nil {
			panic("reader: built-in scripted profile: " + err.Error())
		}
		rs[i] = r
	}
	return rs
}

// Scripted is a transparent, deterministic text reader: a SIMULATION of an
// answer model for teaching and tests, not a language model. It parses the
// render text (reader.Input.Context) and never looks at reader.Input.State. It
//
//  1. keeps the first TokenBudget tokens (whole lines) when it has a budget;
//  2. recognises every memory class's layout line by line (ledger tables,
//     GraphRAG fact tables, grouped tables, LATEST-ONLY lines, Graphiti JSON
//     facts, "[id date] text" event lines, and the deployed variant's
//     appended raw events);
//  3. picks the key the question is about: the rendered key label sharing
//     the most content words with the question (attribute names split at
//     underscores); with several keys and no overlap it abstains;
//  4. answers from the key's records with its capabilities: status (LIVE
//     rows, invalid_at "present", "status: unresolved" → ABSTAIN), time
//     (newest dated record), and its conflict policy for what is left;
//     provenance is the value before the current one (the newest closed
//     record with another value, or the next older differing value in date
//     order); relation type is read only from what the render shows: the
//     prior row's status cell (REFINED → refines, DEPRECATED → replaces),
//     read by a reader that uses status. Values are never compared as
//     strings. When the render shows no relation type (no status column,
//     "neutral", a Graphiti invalid_at, raw text, or a reader that ignores
//     status), every profile answers "replaces": a newer value replaces the
//     prior one unless the render says it refined, as a reader of a plain
//     dated history would read it. So a store that keeps no types scores on
//     replacements and never on refinements.
//
// Raw event text marks no values. The reader then looks in each event line
// for values it already knows for the key (from a structured render above
// the events, in the deployed variant) and for the value shape the
// attribute's name suggests (quantities with units for timeouts, sizes and
// limits; versions; counts; issue states; severities; @owners; ISO dates; see
// valuePatterns). For attributes with free-text values (labels, workarounds,
// reproduction conditions) it finds nothing and honestly abstains. In the
// deployed variant it falls back to the raw events only when the structured
// render lacks the answer (e.g. no prior value), or when it can sort by time
// and the structured render had no dates to settle a conflict.
//
// When the raw event text is all there is and the reader has no way to
// find the asked attribute's values in it, it cannot read the layout: it
// abstains and its output is marked Unreadable (reader.Output), so tables
// can report the cell as not measured rather than as a wrong answer.
//
// When the memory says it may not abstain (graphrag-lite), a conflict is
// settled by majority, then by first position. Name and Family are
// "scripted:PROFILE".
type Scripted struct {
	name string
	caps ScriptedCapabilities
}

// NewScripted makes the scripted reader of a built-in profile; "NAME@N"
// overrides the token budget (e.g. "budgeted@256", "time-sorter@512").
func NewScripted(profile string) (*Scripted, error) {
	name, budget, hasBudget := strings.Cut(strings.TrimSpace(profile), "@")
	for _, p := range profiles {
		if p.Name != name {
			continue
		}
		caps := p.Capabilities
		if hasBudget {
			n, err := strconv.Atoi(budget)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("scripted profile %q: token budget %q is not a number ≥ 0", profile, budget)
			}
			caps.TokenBudget = n
		}
		return NewScriptedWith(strings.TrimSpace(profile), caps)
	}
	names := make([]string, len(profiles))
	for i, p := range profiles {
		names[i] = p.Name
	}
	return nil, fmt.Errorf("unknown scripted profile %q (want one of %s, optionally with @TOKENS)", profile, strings.Join(names, ", "))
}

// NewScriptedWith makes a scripted reader with custom capabilities under
// the name "scripted:NAME".
func NewScriptedWith(name string, caps ScriptedCapabilities) (*Scripted, error) {
	switch caps.OnConflict {
	case ConflictAbstain, ConflictFirst, ConflictMajority:
	case "":
		caps.OnConflict = ConflictAbstain
	default:
		return nil, fmt.Errorf("on_conflict %q is not abstain, pick-first or pick-majority", caps.OnConflict)
	}
	if caps.TokenBudget < 0 {
		return nil, fmt.Errorf("token budget %d is negative", caps.TokenBudget)
	}
	return &Scripted{name: name, caps: caps}, nil
}

func (s *Scripted) Spec() reader.Spec {
	return reader.Spec{Kind: reader.KindScripted, Name: s.name}
}
func (s *Scripted) Family() reader.Family { return reader.Family(s.Spec()) }

// Capabilities are the reader's capabilities.
func (s *Scripted) Capabilities() ScriptedCapabilities { return s.caps }

// Read answers from the render text alone.
func (s *Scripted) Read(ctx context.Context, in reader.Input) (reader.Output, error) {
	if err := ctx.Err(); err != nil {
		return reader.Output{}, err
	}
	d := s.decide(in)
	out := reader.Output{Answer: d.answer, Raw: d.answer.String(), ContextTokens: reader.CountTokens(in.Context),
		Note: s.Spec().String() + ": " + d.note, Decision: d.note, Unreadable: d.why == unreadable}
	return out, nil
}

// outcome says how a decision ended.
type outcome int

const (
	decided    outcome = iota
	conflict           // candidates disagree and the capabilities cannot settle it
	missing            // the text does not show what is asked
	unreadable         // the reader cannot read the render's layout (reader.Output.Unreadable)
)

// unreadableNote is the note of an unreadable decision (its words are the
// ones rows have always carried; the row's Unreadable flag is what says it).
const unreadableNote = "[unreadable layout] raw text marks no values and no value pattern is known for this attribute"

type decision struct {
	answer esr.Answer
	why    outcome
	note   string
	// values are the key's values the reader read, in text order (a sim
	// reader that states both values takes the prior from them).
	values []string
}

func abstain(why outcome, note string) decision {
	return decision{answer: esr.Abstain, why: why, note: note}
}

// queryType is the input's query type, or one guessed from the question.
func queryType(in reader.Input) esr.QueryType {
	if in.QueryType != "" {
		return in.QueryType
	}
	q := strings.ToLower(in.Question)
	switch {
	case strings.Contains(q, "refine") && strings.Contains(q, "replace"):
		return esr.RelationType
	case strings.Contains(q, "before") || strings.Contains(q, "previous") || strings.Contains(q, "prior"):
		return esr.Provenance
	}
	return esr.Snapshot
}

func (s *Scripted) decide(in reader.Input) decision {
	p := policy{caps: s.caps, rowStatus: s.caps.UsesStatus, keyStatus: s.caps.UsesStatus}
	return p.decide(in)
}

// policy is what one decision runs with: a scripted reader's fixed
// capabilities, or the capabilities a simulated (sim:) reader drew for the
// item. Scripted and Sim readers share every step below.
type policy struct {
	caps ScriptedCapabilities
	// rowBudget, when > 0, keeps only the key's first rowBudget records (and
	// the first rowBudget raw event lines) in text order.
	rowBudget int
	// sortOK, when set, says whether a date sort over n dated records
	// succeeds (a sim reader's draw); nil means it always does. A failed
	// sort leaves the records in text order, as if undated.
	sortOK func(n int) bool
	// rowStatus: the reader uses the rows' status (LIVE / DEPRECATED /
	// REFINED cells, a Graphiti invalid_at); keyStatus: it abstains on a
	// key whose header says "status: unresolved". A scripted reader has
	// both iff Capabilities.UsesStatus; a sim reader draws them.
	rowStatus, keyStatus bool
	// readsOrder: the reader takes the top of a block whose layout declares
	// its rows newest first (a ledger history, declaresNewestFirst) as the
	// newest, without looking at dates; a list that merely happens to be
	// sorted does not count (a sim reader's order draw; see
	// Profile.OrderSkill).
	readsOrder bool
	// lapse: having settled a snapshot's current value, the reader answers
	// the first other value the key's records show instead (a sim reader's
	// lapse draw; see Profile.Lapse).
	lapse bool
	// prose: the reader reads raw event text with its prose skill (a sim
	// reader with ProseSkill > 0) instead of the value patterns; proseOK is
	// its draw (it finds the key's values, reader.Input.Stated, in the event
	// lines), proseP the probability, for the note.
	prose, proseOK bool
	proseP         float64
	// textOrder: in raw event text whose lines for the key carry no date,
	// the reader takes text order as a recency cue, the last line the
	// newest, through the same sort act as a date sort (a sim reader with a
	// prose skill: PI-LLM's updates are such a log).
	textOrder bool
	// conflictAct: the reader may see a conflict the render shows before
	// any sort (the key's values disagree and nothing retracts one), and
	// abstains when its conflict draw says it sees one; a tie of the
	// majority then takes the first (a sim reader with a conflict skill).
	conflictAct bool
	// notes collects what happened beyond the decision's own note (budgets).
	notes []string
	// read records which drawn capabilities the decision consulted
	// (readRow, readKey, readOrder, readLapse, readConflict): a capability
	// never consulted cannot have changed the answer, which is how
	// Branches enumerates only the draws that matter.
	read uint8
}

// Capabilities a decision may consult (policy.read bits).
const (
	readRow uint8 = 1 << iota
	readKey
	readOrder
	readLapse
	readConflict
	readProse
)

func (s *policy) useRow() bool   { s.read |= readRow; return s.rowStatus }
func (s *policy) useKey() bool   { s.read |= readKey; return s.keyStatus }
func (s *policy) useOrder() bool { s.read |= readOrder; return s.readsOrder }
func (s *policy) useLapse() bool { s.read |= readLapse; return s.lapse }
func (s *policy) useProse() bool { s.read |= readProse; return s.proseOK }
func (s *policy) onConflict() string {
	s.read |= readConflict
	return s.caps.OnConflict
}

// sorts reports whether the reader orders the dated records by time: a
// sort, which may fail (sortOK).
func (s *policy) sorts(dated []layout.Record) bool {
	if !s.caps.SortsByTime {
		return false
	}
	return s.sortOK == nil || s.sortOK(len(dated))
}

// ordered reports whether the reader reads recs by their declared order:
// it reads order and every record comes from a layout that declares its
// rows newest first.
func (s *policy) ordered(recs []layout.Record) bool {
	if len(recs) == 0 {
		return false
	}
	for _, r := range recs {
		if !declaresNewestFirst(r.Kind) {
			return false
		}
	}
	return s.useOrder()
}

// budgetEvents keeps the first rowBudget raw event lines.
func (s *policy) budgetEvents(events []layout.EventLine) []layout.EventLine {
	if s.rowBudget <= 0 || len(events) <= s.rowBudget {
		return events
	}
	s.notes = append(s.notes, fmt.Sprintf("row budget: read %d of %d event lines", s.rowBudget, len(events)))
	return events[:s.rowBudget]
}

// budget keeps the first rowBudget records.
func (s *policy) budget(recs []layout.Record, what string) []layout.Record {
	if s.rowBudget <= 0 || len(recs) <= s.rowBudget {
		return recs
	}
	s.notes = append(s.notes, fmt.Sprintf("row budget: read %d of %d %s", s.rowBudget, len(recs), what))
	return recs[:s.rowBudget:s.rowBudget] // recs may be shared (keyPick): an append copies
}

func (s *policy) decide(in reader.Input) decision {
	text := layout.TruncateTokens(in.Context, s.caps.TokenBudget)
	pr := parseRender(text)
	v := pr.view
	qt := queryType(in)

	var d decision
	var known []string
	label := "" // the key read, whose words join the question's for raw text
	structuredDated := false
	if len(v.Records) > 0 {
		k := pr.pickKey(in.Question)
		if !k.ok {
			d = abstain(missing, "no rendered key matches the question")
		} else {
			label = k.label
			recs := s.budget(k.recs, "rows")
			for _, r := range recs {
				known = append(known, r.Value)
				structuredDated = structuredDated || r.HasTime
			}
			d = s.answer(recs, v.KeyStatus[label], qt, in.MayAbstain)
			d.note = "key " + label + ": " + d.note
			d.values = known
		}
	} else {
		d = abstain(missing, "no structured records")
		if len(v.Events) == 0 && s.caps.TokenBudget > 0 && rawOnly(parseRender(in.Context).view, keyWordsOf(in.Question, label)) {
			// The budget hid everything, but the whole render would not
			// have been readable either: the layout, not the budget, decides.
			return abstain(unreadable, unreadableNote)
		}
	}
	useRaw := len(v.Events) > 0 && (d.why == missing ||
		d.why == conflict && s.caps.SortsByTime && !structuredDated)
	if useRaw && s.prose {
		// The prose skill: the reader either finds what each event line
		// states for the key, or finds nothing.
		events := s.budgetEvents(v.Events)
		if !s.useProse() {
			rd := abstain(missing, fmt.Sprintf("raw events: did not find the key's values in the prose (p=%.2f)", s.proseP))
			if len(v.Records) == 0 {
				return rd
			}
			return d
		}
		var recs []layout.Record
		for _, ev := range events {
			for _, val := range in.Stated[ev.ID] {
				recs = append(recs, layout.Record{Value: val, Time: ev.Time, HasTime: ev.HasTime, ID: ev.ID, Pos: ev.Pos, Raw: true, Kind: layout.KindEvent})
			}
		}
		rd := s.answer(recs, "", qt, in.MayAbstain)
		for _, r := range recs {
			rd.values = append(rd.values, r.Value)
		}
		rd.note = fmt.Sprintf("raw events (read the prose, p=%.2f; %d of %d lines state a value): %s", s.proseP, len(recs), len(events), rd.note)
		if len(v.Records) == 0 || rd.why == decided {
			return rd
		}
		return d
	}
	if useRaw {
		pat := patternFor(keyWordsOf(in.Question, label))
		if pat == nil && len(known) == 0 {
			if len(v.Records) == 0 {
				return abstain(unreadable, unreadableNote)
			}
			return d
		}
		var recs []layout.Record
		events := s.budgetEvents(v.Events)
		for _, ev := range events {
			if val, ok := findValues(ev.Text, known, pat); ok {
				recs = append(recs, layout.Record{Value: val, Time: ev.Time, HasTime: ev.HasTime, ID: ev.ID, Pos: ev.Pos, Raw: true, Kind: layout.KindEvent})
			}
		}
		how := "known values"
		if pat != nil {
			how = pat.name + " pattern"
			if len(known) > 0 {
				how = "known values + " + how
			}
		}
		rd := s.answer(recs, "", qt, in.MayAbstain)
		for _, r := range recs {
			rd.values = append(rd.values, r.Value)
		}
		rd.note = fmt.Sprintf("raw events (%s, %d of %d lines state a value): %s", how, len(recs), len(events), rd.note)
		if len(v.Records) == 0 || rd.why == decided {
			return rd
		}
	}
	return d
}

// chooseKey picks the rendered key label the question is about.
func chooseKey(recs []layout.Record, q map[string]bool) (string, bool) {
	var labels []string
	seen := map[string]bool{}
	for _, r := range recs {
		if !seen[r.Key] {
			seen[r.Key] = true
			labels = append(labels, r.Key)
		}
	}
	best, bestN, bestF := "", 0, 0.0
	for _, l := range labels {
		n, f := keyScore(l, q)
		if n > bestN || n == bestN && n > 0 && f > bestF {
			best, bestN, bestF = l, n, f
		}
	}
	if bestN > 0 {
		return best, true
	}
	if len(labels) == 1 {
		return labels[0], true
	}
	return "", false
}

// answer decides a query from one key's records.
func (s *policy) answer(recs []layout.Record, keyStatus string, qt esr.QueryType, mayAbstain bool) decision {
	if len(recs) == 0 {
		return abstain(missing, "no value found")
	}
	if keyStatus == esr.KeyStatusUnresolved && s.useKey() {
		if !mayAbstain {
			return s.forced(recs, layout.LedgerStatusLabel+esr.KeyStatusUnresolved)
		}
		return abstain(conflict, layout.LedgerStatusLabel+esr.KeyStatusUnresolved)
	}
	statusInfo := false
	for _, r := range recs {
		if r.Live != 0 {
			statusInfo = s.useRow()
			break
		}
	}
	cands := recs
	if statusInfo {
		cands = nil
		for _, r := range recs {
			if r.Live == 1 {
				cands = append(cands, r)
			}
		}
	}
	cur, why, note := s.pick(cands, s.caps.SortsByTime, mayAbstain, statusInfo)
	if statusInfo {
		note = "in force per status: " + note
	}
	if why != decided {
		return abstain(why, note)
	}
	if qt == esr.Snapshot {
		if s.useLapse() {
			for _, r := range recs {
				if esr.StateOf(r.Value, esr.Positive) != esr.StateOf(cur.Value, esr.Positive) {
					return decision{answer: esr.Says(r.Value), note: note + "; lapse: answered " + r.Value + ", another value shown for the key"}
				}
			}
		}
		return decision{answer: esr.Says(cur.Value), note: note}
	}
	prior, why, pnote := s.prior(recs, cur, statusInfo, mayAbstain)
	if why != decided {
		return abstain(why, note+"; prior: "+pnote)
	}
	if qt == esr.Provenance {
		return decision{answer: esr.Says(prior.Value), note: note + "; prior: " + pnote}
	}
	note += "; prior: " + pnote
	var rel, how string
	switch {
	case statusInfo && strings.EqualFold(prior.Status, esr.StatusRefined):
		rel, how = esr.AnswerRefines, "prior row "+esr.StatusRefined
	case statusInfo && strings.EqualFold(prior.Status, esr.StatusDeprecated):
		rel, how = esr.AnswerReplaces, "prior row "+esr.StatusDeprecated
	default:
		rel, how = esr.AnswerReplaces, "no relation type shown: a change replaces unless the render says it refined"
	}
	return decision{answer: esr.Says(rel), note: note + "; " + how}
}

// attributeWords are the lower-cased words of a question that may name the
// asked attribute: every word except title-case ones, which name entities
// ("Max Verstappen" must not select the count pattern by "max"); acronyms
// ("TTL") and stop words ("What") stay.
// keyWordsOf are the words a raw-text pattern is looked up by: the
// question's attribute words and those of the key label read ("" when
// none), built only when raw text is read.
func keyWordsOf(question, label string) map[string]bool {
	kw := attributeWords(question)
	for _, w := range words(label) {
		kw[w] = true
	}
	return kw
}

func attributeWords(question string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(question, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		lw := strings.ToLower(w)
		if titleCase(w) && !stopWords[lw] {
			continue
		}
		out[lw] = true
	}
	return out
}

// titleCase reports a word with an upper-case first letter and a lower-case
// letter after it ("Max", not "TTL" or "max").
func titleCase(w string) bool {
	r, n := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) && strings.IndexFunc(w[n:], unicode.IsLower) >= 0
}

// rawOnly reports a render the reader cannot read for the asked key: raw
// event lines and no structured records, and no value pattern for the
// attribute words.
func rawOnly(v *layout.View, keyWords map[string]bool) bool {
	return len(v.Records) == 0 && len(v.Events) > 0 && patternFor(keyWords) == nil
}

// forced settles a conflict for a memory that forbids abstaining.
func (s *policy) forced(cands []layout.Record, why string) decision {
	r, ok := majority(cands, true)
	if !ok {
		return abstain(conflict, why)
	}
	return decision{answer: esr.Says(r.Value), note: why + "; no abstaining allowed: majority/first"}
}

// pick chooses the current record among candidates. live says the
// candidates are the rows a status the reader read keeps in force.
func (s *policy) pick(cands []layout.Record, useTime, mayAbstain, live bool) (layout.Record, outcome, string) {
	if len(cands) == 0 {
		return layout.Record{}, missing, "no candidate value"
	}
	if s.conflictAct && mayAbstain && !allSame(cands) && conflictShown(cands, live) && s.onConflict() == ConflictAbstain {
		return layout.Record{}, conflict, fmt.Sprintf("%d values disagree and none is retracted: sees a conflict", distinctValues(cands))
	}
	if !allSame(cands) && s.ordered(cands) {
		top := byPos(cands)[0]
		return top, decided, fmt.Sprintf("top of %d rows listed newest first", len(cands))
	}
	if useTime {
		var dated []layout.Record
		for _, r := range cands {
			if r.HasTime {
				dated = append(dated, r)
			}
		}
		if len(dated) == 0 && s.textOrder && len(cands) > 1 && allRaw(cands) && !allSame(cands) && s.sorts(cands) {
			// An undated log: the last line is the newest.
			last := byPos(cands)[len(cands)-1]
			return last, decided, fmt.Sprintf("last of %d lines in text order", len(cands))
		}
		if len(dated) > 0 && s.sorts(dated) {
			sortNewest(dated)
			top := dated[:1]
			for _, r := range dated[1:] {
				if r.Time.Equal(dated[0].Time.Time) {
					top = append(top, r)
				}
			}
			if allSame(top) {
				return top[0], decided, fmt.Sprintf("newest of %d dated (%s)", len(dated), top[0].Time.Date())
			}
			cands = top
		}
	}
	if allSame(cands) {
		return cands[0], decided, fmt.Sprintf("%d record(s) agree", len(cands))
	}
	return s.settle(cands, mayAbstain, fmt.Sprintf("%d candidates disagree", len(cands)))
}

// settle applies the conflict policy to disagreeing candidates.
func (s *policy) settle(cands []layout.Record, mayAbstain bool, what string) (layout.Record, outcome, string) {
	policy := s.onConflict()
	if policy == ConflictAbstain && !mayAbstain {
		r, ok := majority(cands, true)
		if ok {
			return r, decided, what + "; no abstaining allowed: majority/first"
		}
		return layout.Record{}, conflict, what
	}
	switch policy {
	case ConflictFirst:
		first := cands[0]
		for _, r := range cands {
			if r.Pos < first.Pos {
				first = r
			}
		}
		return first, decided, what + "; first in text"
	case ConflictMajority:
		r, ok := majority(cands, !mayAbstain || s.conflictAct)
		if !ok {
			return layout.Record{}, conflict, what + "; no majority"
		}
		return r, decided, what + "; majority"
	}
	return layout.Record{}, conflict, what
}

// majority is the record of the most frequent value (first occurrence);
// a tie is broken by first position only when tieFirst.
func majority(cands []layout.Record, tieFirst bool) (layout.Record, bool) {
	count := map[string]int{}
	first := map[string]layout.Record{}
	var order []string
	for _, r := range byPos(cands) {
		k := esr.NormalizeValue(r.Value)
		if count[k] == 0 {
			order = append(order, k)
			first[k] = r
		}
		count[k]++
	}
	best, tie := "", false
	for _, k := range order {
		switch {
		case best == "" || count[k] > count[best]:
			best, tie = k, false
		case count[k] == count[best]:
			tie = true
		}
	}
	if best == "" || tie && !tieFirst {
		return layout.Record{}, false
	}
	return first[best], true
}

// prior chooses the record in force before cur.
func (s *policy) prior(recs []layout.Record, cur layout.Record, statusInfo, mayAbstain bool) (layout.Record, outcome, string) {
	var others []layout.Record
	for _, r := range recs {
		if sameValue(r.Value, cur.Value) {
			continue
		}
		if statusInfo && (r.Live != -1 || strings.EqualFold(r.Status, esr.StatusUnrelated) || strings.EqualFold(r.Status, esr.StatusSetAside)) {
			continue
		}
		others = append(others, r)
	}
	if len(others) == 0 {
		return layout.Record{}, missing, "no other value shown"
	}
	if cur.Kind == others[0].Kind && s.ordered(others) {
		// The first other value below the current row, else the top one.
		for _, r := range byPos(others) {
			if r.Pos > cur.Pos {
				return r, decided, "next row down, listed newest first"
			}
		}
		return byPos(others)[0], decided, "top other row, listed newest first"
	}
	if s.caps.SortsByTime {
		var dated []layout.Record
		for _, r := range others {
			if r.HasTime {
				dated = append(dated, r)
			}
		}
		if len(dated) > 0 && s.sorts(dated) {
			if statusInfo {
				// Most recently closed first, then most recently valid.
				sort.SliceStable(dated, func(i, j int) bool {
					a, b := dated[i], dated[j]
					if !a.ClosedAt.Equal(b.ClosedAt.Time) {
						return a.ClosedAt.After(b.ClosedAt.Time)
					}
					if !a.Time.Equal(b.Time.Time) {
						return a.Time.After(b.Time.Time)
					}
					return a.Pos < b.Pos
				})
			} else {
				// The newest value older than the current record that differs
				// from it.
				sortNewest(dated)
				var older []layout.Record
				for _, r := range dated {
					if !r.Time.After(cur.Time.Time) {
						older = append(older, r)
					}
				}
				if len(older) > 0 {
					dated = older
				}
			}
			top := dated[:1]
			for _, r := range dated[1:] {
				if r.Time.Equal(dated[0].Time.Time) && r.ClosedAt.Equal(dated[0].ClosedAt.Time) {
					top = append(top, r)
				}
			}
			if allSame(top) {
				return top[0], decided, fmt.Sprintf("newest older value (%s)", top[0].Time.Date())
			}
			return s.settle(top, mayAbstain, fmt.Sprintf("%d prior candidates disagree", len(top)))
		}
	}
	if allSame(others) {
		return others[0], decided, "the only other value"
	}
	return s.settle(others, mayAbstain, fmt.Sprintf("%d prior candidates disagree", len(others)))
}

// conflictShown reports whether candidates that disagree show a conflict
// rather than a history: a status the reader read keeps more than one of
// them in force (live), or none of them comes from a layout with an order
// (a declared newest-first history, a chronological table, the lines of a
// log): a fact list, a shuffle, sources side by side. Dates alone retract
// nothing.
func conflictShown(cands []layout.Record, live bool) bool {
	if live {
		return true
	}
	for _, r := range cands {
		if kindFeatures[r.Kind].order != OrderUnordered {
			return false
		}
	}
	return true
}

// distinctValues counts the distinct values of rs.
func distinctValues(rs []layout.Record) int {
	seen := map[string]bool{}
	for _, r := range rs {
		seen[esr.NormalizeValue(r.Value)] = true
	}
	return len(seen)
}

// allRaw reports whether every record was read from a raw event line.
func allRaw(rs []layout.Record) bool {
	for _, r := range rs {
		if !r.Raw {
			return false
		}
	}
	return true
}

func allSame(rs []layout.Record) bool {
	for _, r := range rs[1:] {
		if !sameValue(r.Value, rs[0].Value) {
			return false
		}
	}
	return true
}

// sortNewest orders records newest first, keeping text order among equal
// times (renders list the newest transaction first).
func sortNewest(rs []layout.Record) {
	sort.SliceStable(rs, func(i, j int) bool {
		if !rs[i].Time.Equal(rs[j].Time.Time) {
			return rs[i].Time.After(rs[j].Time.Time)
		}
		return rs[i].Pos < rs[j].Pos
	})
}

func byPos(rs []layout.Record) []layout.Record {
	out := append([]layout.Record(nil), rs...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Pos < out[j].Pos })
	return out
}

// Config of a scripted reader is its capabilities (reader.Fingerprint).
func (s *Scripted) Config() any { return s.caps }
