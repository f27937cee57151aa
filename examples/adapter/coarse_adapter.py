#!/usr/bin/env python3
"""Reference esr-adapter/2 memory: a retaining coarse store, standard library only.

Reads one JSON request per line on stdin, writes one JSON response per line on
stdout (docs/adapter-protocol.md), each echoing its request's "id". For every key (entity, attribute) it keeps
one edge per atom that opens one, with a validity window:

- an atom that the relation source says SUPERSEDES, REFINES or CONTRADICTS a
  live edge closes that edge (invalid_at = the atom's time);
- an atom UNRELATED to every live edge opens nothing (it is set aside);
- otherwise the atom opens a new live edge.

With "mechanism": false every relation arrives as SAME_STATE, so nothing is
ever closed: the render-matched control. The render is the kit's
Graphiti-style fact list, one JSON object per line, which the scripted
readers can read.
"""
import hashlib
import json
import os
import sys

PROTOCOL = "esr-adapter/2"
CLOSES = {"SUPERSEDES", "REFINES", "CONTRADICTS"}


def display(atom):
    return ("not " if atom.get("polarity") == "-" else "") + atom["value"]


def stamp(ts):
    if not ts:
        return "unknown"
    day, _, clock = ts.partition("T")
    clock = clock.rstrip("Z")[:5]
    return day if clock in ("", "00:00") else day + " " + clock


def build(req):
    mechanism = req.get("mechanism", True)
    # With the mechanism off (the control) every relation is SAME_STATE.
    rel = {(p["a"], p["b"]): p["relation"] for p in req.get("relations") or []} if mechanism else {}
    keys = {}  # key -> (edges, live edges), both in the order they opened
    order = []
    for atom in req.get("atoms") or []:
        k = (atom["entity"], atom["attribute"])
        if k not in keys:
            keys[k] = ([], [])
            order.append(k)
        edges, live = keys[k]
        if not mechanism:
            # Every label is SAME_STATE: nothing closes, every atom opens.
            edge = {"atom": atom, "closed_by": None}
            edges.append(edge)
            live.append(edge)
            continue
        aid = atom["atom_id"]
        labels = [rel.get((e["atom"]["atom_id"], aid), "SAME_STATE") for e in live]
        if live and all(lab == "UNRELATED" for lab in labels):
            continue
        still = []
        for e, lab in zip(live, labels):
            if lab in CLOSES:
                e["closed_by"] = atom
            else:
                still.append(e)
        edge = {"atom": atom, "closed_by": None}
        edges.append(edge)
        still.append(edge)
        keys[k] = (edges, still)
    rows = []
    for k in order:
        for e in keys[k][0]:
            closed = e["closed_by"]
            rows.append({
                "entity": k[0], "attribute": k[1], "value": display(e["atom"]),
                "valid_at": e["atom"]["timestamp"],
                "invalid_at": closed["timestamp"] if closed else None,
                "status": "closed" if closed else "live",
                "atom_id": e["atom"]["atom_id"],
            })
    return rows


# One encoder for every fact line (json.dumps(fact, ensure_ascii=False)
# builds one per call).
_fact_json = json.JSONEncoder(ensure_ascii=False).encode


def render(rows):
    # An order that carries no time information: by a hash of the atom id.
    ordered = sorted(rows, key=lambda r: hashlib.sha256(r["atom_id"].encode()).hexdigest())
    lines = []
    for r in ordered:
        fact = {"fact": f'{r["entity"]} {r["attribute"]} is {r["value"]}',
                "valid_at": stamp(r["valid_at"]),
                "invalid_at": stamp(r["invalid_at"]) if r["invalid_at"] else "present"}
        lines.append(_fact_json(fact))
    return "[" + ",\n ".join(lines) + "]\n"


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        req = {}
        try:
            req = json.loads(line)
            if req.get("protocol") != PROTOCOL:
                raise ValueError(f'protocol {req.get("protocol")!r}, want {PROTOCOL!r}')
            if req.get("op") == "hello":
                # What esrkit's resume check should cover: this file, also
                # when a wrapper runs it.
                resp = {"protocol": PROTOCOL, "id": req.get("id"), "rows": [],
                        "adapter": {"version": "coarse-retain reference 1", "files": [os.path.abspath(__file__)],
                                    # render() never reads the query: one render per state.
                                    "render_per_state": True}}
                sys.stdout.write(json.dumps(resp) + "\n")
                sys.stdout.flush()
                continue
            rows = build(req)
            resp = {"protocol": PROTOCOL, "id": req.get("id"), "rows": rows}
            if req.get("op") == "render":
                resp["render"] = render(rows)
        except Exception as exc:  # report, keep serving
            resp = {"protocol": PROTOCOL, "id": req.get("id") if isinstance(req, dict) else None,
                    "error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(resp, ensure_ascii=False) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
