// Package mem0 converts Mem0's SQLite history table into an ESR benchmark.
//
// The table is the one mem0/memory/storage.py (SQLiteManager) creates:
// history(id, memory_id, old_memory, new_memory, event, created_at,
// updated_at, is_deleted, actor_id, role), one row per state transition of
// a memory. Each memory becomes one stream about the key (memory_id,
// "memory"), its rows in Mem0's own history order (created_at, then
// updated_at, then insertion). Each revision becomes an event and an atom:
// ADD and UPDATE assert new_memory; a DELETE (event DELETE or is_deleted =
// 1) is explicit: an atom denying the deleted text (polarity "-", value =
// old_memory), so the memory's state after it is "not TEXT" and a snapshot
// question's gold answer is ABSTAIN. NONE rows change nothing and are
// skipped. Gold relations: equal states SAME_STATE, every later revision
// SUPERSEDES an earlier one. Errors name the file, the row and the field.
package mem0

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/esrkit/esrkit/internal/importers/history"

	"github.com/esrkit/esrkit/esr"
	"github.com/esrkit/esrkit/esr/bench"
	_ "modernc.org/sqlite" // pure-Go SQLite driver
)

// Source is the stream and QA source label.
const Source = "mem0"

// Report summarises an import.
type Report struct {
	Memories  int `json:"memories"`
	Rows      int `json:"history_rows"`
	Skipped   int `json:"none_rows_skipped"`
	Deletes   int `json:"deletes"`
	Atoms     int `json:"atoms"`
	QAs       int `json:"qas"`
	Relations int `json:"relations"`
}

type row struct {
	rowid                  int64
	id, memoryID           string
	oldMemory, newMemory   sql.NullString
	event                  string
	createdAt, updatedAt   sql.NullString
	isDeleted              sql.NullInt64
	actorID, role          sql.NullString
	created, updated, when esr.Time
}

// readOnlyURI is the SQLite URI that opens exactly the file db, read-only:
// an absolute, percent-escaped file: URI, so a path with "?", "#" or "%"
// neither opens another file nor creates one.
func readOnlyURI(db string) string {
	abs, err := filepath.Abs(db)
	if err != nil {
		abs = db
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: "mode=ro"}
	return u.String()
}

// Read reads the history table of the SQLite file db.
func Read(db string) ([]row, error) {
	if _, err := os.Stat(db); err != nil {
		return nil, err
	}
	h, err := sql.Open("sqlite", readOnlyURI(db))
	if err != nil {
		return nil, err
	}
	defer h.Close()
	name := filepath.Base(db)
	rs, err := h.Query(`SELECT rowid, id, memory_id, old_memory, new_memory, event, created_at, updated_at, is_deleted, actor_id, role FROM history`)
	if err != nil {
		return nil, fmt.Errorf("%s: table history: %v", name, err)
	}
	defer rs.Close()
	var out []row
	for rs.Next() {
		var r row
		var id, mid, ev sql.NullString
		if err := rs.Scan(&r.rowid, &id, &mid, &r.oldMemory, &r.newMemory, &ev, &r.createdAt, &r.updatedAt, &r.isDeleted, &r.actorID, &r.role); err != nil {
			return nil, fmt.Errorf("%s: row %d: %v", name, len(out)+1, err)
		}
		at := func(field string) error { return fmt.Errorf("%s: row %d: field %q", name, r.rowid, field) }
		r.id, r.memoryID, r.event = id.String, mid.String, strings.ToUpper(strings.TrimSpace(ev.String))
		if r.memoryID == "" {
			return nil, fmt.Errorf("%w: empty", at("memory_id"))
		}
		if r.createdAt.String != "" {
			if r.created, err = esr.ParseTime(r.createdAt.String); err != nil {
				return nil, fmt.Errorf("%w: %v", at("created_at"), err)
			}
		}
		if r.updatedAt.String != "" {
			if r.updated, err = esr.ParseTime(r.updatedAt.String); err != nil {
				return nil, fmt.Errorf("%w: %v", at("updated_at"), err)
			}
		}
		switch r.event {
		case "ADD":
			r.when = r.created
		case "UPDATE", "DELETE":
			r.when = r.updated
		case "NONE":
		default:
			return nil, fmt.Errorf("%w: %q is not ADD, UPDATE, DELETE or NONE", at("event"), ev.String)
		}
		if r.when.IsZero() {
			r.when = r.created
		}
		if r.when.IsZero() && r.event != "NONE" {
			return nil, fmt.Errorf("%w: no timestamp (created_at and updated_at are empty)", at("created_at"))
		}
		if r.isDeleted.Int64 == 1 && r.event != "DELETE" && r.event != "NONE" {
			return nil, fmt.Errorf("%w: is_deleted = 1 on a %s row", at("is_deleted"), r.event)
		}
		switch {
		case r.event == "DELETE" && strings.TrimSpace(r.oldMemory.String) == "":
			return nil, fmt.Errorf("%w: a DELETE needs the deleted text", at("old_memory"))
		case (r.event == "ADD" || r.event == "UPDATE") && strings.TrimSpace(r.newMemory.String) == "":
			return nil, fmt.Errorf("%w: an %s needs the new text", at("new_memory"), r.event)
		}
		out = append(out, r)
	}
	return out, rs.Err()
}

// Convert builds the benchmark (see the package doc).
func Convert(rows []row) (*bench.Bench, *Report) {
	rep := &Report{Rows: len(rows)}
	by := map[string][]row{}
	var ids []string
	for _, r := range rows {
		if r.event == "NONE" {
			rep.Skipped++
			continue
		}
		if by[r.memoryID] == nil {
			ids = append(ids, r.memoryID)
		}
		by[r.memoryID] = append(by[r.memoryID], r)
	}
	sort.Strings(ids)
	var streams []*esr.Stream
	atoms := map[string][]esr.Atom{}
	rels := map[string]map[esr.AtomPair]esr.Relation{}
	var qas []esr.QA
	for _, mid := range ids {
		rs := by[mid]
		sort.SliceStable(rs, func(i, j int) bool {
			a, b := rs[i], rs[j]
			if !a.created.Equal(b.created.Time) {
				return a.created.Before(b.created.Time)
			}
			if !a.updated.Equal(b.updated.Time) {
				return a.updated.Before(b.updated.Time)
			}
			return a.rowid < b.rowid
		})
		sid := "mem0-" + mid
		s := &esr.Stream{ID: sid, Title: "Mem0 memory " + mid, Source: Source, CreatedAt: rs[0].when}
		var as []esr.Atom
		for i, r := range rs {
			ev := esr.Event{ID: fmt.Sprintf("h%d", i+1), Kind: strings.ToLower(r.event), Timestamp: r.when, Role: r.role.String,
				Meta: map[string]any{"history_id": r.id}}
			if r.actorID.Valid && r.actorID.String != "" {
				a := r.actorID.String
				ev.Actor = &a
			}
			at := esr.Atom{ID: fmt.Sprintf("%s-a%d", sid, i+1), StreamID: sid, EventID: ev.ID, EventIndex: i, EventKind: ev.Kind,
				Timestamp: r.when, Actor: ev.Actor, Role: ev.Role, Modality: esr.ModalityAssert, Entity: mid, Attribute: "memory",
				Polarity: esr.Positive, Confidence: 1}
			switch r.event {
			case "ADD":
				ev.Text, at.Value = "ADD: "+r.newMemory.String, r.newMemory.String
			case "UPDATE":
				ev.Text, at.Value = "UPDATE: "+r.oldMemory.String+" → "+r.newMemory.String, r.newMemory.String
			case "DELETE":
				ev.Text, at.Value, at.Polarity = "DELETE: "+r.oldMemory.String, r.oldMemory.String, esr.Negative
				rep.Deletes++
			}
			s.Events = append(s.Events, ev)
			as = append(as, at)
		}
		esr.SortAtoms(as)
		gold := history.Gold(as)
		last := as[len(as)-1]
		want, sup := last.Value, []string{last.EventID}
		if last.Polarity == esr.Negative {
			want = esr.AbstainText
		}
		qas = append(qas, esr.QA{QID: sid + "-snap", StreamID: sid, Question: "What does memory " + mid + " say now?",
			GoldAnswer: want, GoldSupportingEventIDs: sup, GoldDeprecatedEventIDs: []string{}, Phenomenon: history.Phenomenon(as),
			Confidence: 1, QueryType: esr.Snapshot, Source: Source, Entity: mid, Attribute: "memory"})
		streams = append(streams, s)
		atoms[sid] = as
		rels[sid] = gold
		rep.Atoms += len(as)
		rep.Relations += len(gold)
	}
	rep.Memories, rep.QAs = len(streams), len(qas)
	b := bench.New(streams, atoms, qas)
	b.Relations = rels
	return b, rep
}

// Import reads db and writes the benchmark into out.
func Import(db, out string) (*Report, error) {
	rows, err := Read(db)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: table history is empty", filepath.Base(db))
	}
	b, rep := Convert(rows)
	if rep.Memories == 0 {
		return nil, fmt.Errorf("%s: table history: all %d rows are NONE events (they change nothing): no memory to convert", filepath.Base(db), rep.Rows)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	return rep, b.Save(out)
}
