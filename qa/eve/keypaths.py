#!/usr/bin/python3
"""Which eve key paths we write, per event_type, against Suricata 8.0's schema.

usage: keypaths.py SCHEMA EVE.json... [--type T]...

For each event_type seen in the eve files: the schema's leaf paths under the
record's own object ("http.*" for http records) that no record wrote ("-"),
and the paths written that the schema does not know ("+"). Array items are
"[]". The schema is loose in places (additionalProperties) and incomplete in
others, so a line here is a lead to check against the docs and the
suricata-verify expectations, not a verdict. How the list in the issue 39
audit was made: every capture of suricata-verify and data/pcaps read in one
run (-r on a folder of links) with every eve type and option on."""
import collections
import json
import sys


def schema_paths(schema):
    defs = schema.get("$defs", {})
    out = set()

    def walk(node, prefix, depth):
        if depth > 12:
            return
        if "$ref" in node:
            node = defs[node["$ref"].split("/")[-1]]
        if prefix:
            out.add(prefix)
        for k, v in (node.get("properties") or {}).items():
            walk(v, (prefix + "." if prefix else "") + k, depth + 1)
        if isinstance(node.get("items"), dict):
            walk(node["items"], prefix + "[]", depth + 1)
        for comb in ("oneOf", "anyOf", "allOf"):
            for sub in node.get(comb) or []:
                walk(sub, prefix, depth + 1)
    walk(schema, "", 0)
    return out


def record_paths(rec, out, prefix=""):
    if isinstance(rec, dict):
        for k, v in rec.items():
            record_paths(v, out, (prefix + "." if prefix else "") + k)
    elif isinstance(rec, list):
        out.add(prefix)
        for v in rec:
            record_paths(v, out, prefix + "[]")
    else:
        out.add(prefix)


def main(argv):
    types = [argv[i + 1] for i, a in enumerate(argv) if a == "--type"]
    files = [a for i, a in enumerate(argv[1:], 1)
             if a != "--type" and argv[i - 1] != "--type"]
    if len(files) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    with open(files[0]) as f:
        sp = schema_paths(json.load(f))
    leaves = {p for p in sp if not any(q.startswith(p + ".") or q.startswith(p + "[")
                                       for q in sp)}
    seen = collections.defaultdict(set)
    for name in files[1:]:
        with open(name, errors="replace") as f:
            for line in f:
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                record_paths(rec, seen[rec.get("event_type", "?")])
    for et in sorted(types or seen):
        ours = seen.get(et, set())
        have = ours | {p[:-2] for p in ours if p.endswith("[]")}
        want = {p for p in leaves if p.split(".")[0].split("[")[0] == et}
        missing = sorted(p for p in want if p not in have and p.rstrip("[]") not in have)
        extra = sorted(p for p in ours if p.split(".")[0] == et and p not in sp
                       and p.rstrip("[]") not in sp)
        print("== %s: %d paths written, %d schema leaves never written, %d unknown"
              % (et, len(ours), len(missing), len(extra)))
        for p in missing:
            print("   - " + p)
        for p in extra:
            print("   + " + p)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
