#!/usr/bin/env python3
"""Compare our fileinfo records with the reference engine's.

  qa/ref/compare-files.py OURS_EVE REF_EVE[.xz] [--protos http] [--list] [--min-same R]

A flow is its 5-tuple without direction (flow ids differ between engines).
Each side's fileinfo records (of the app_protos in --protos, default http:
the protocols whose files we extract) are taken per flow as a multiset of
file names; a reference record has a counterpart when our side has a record
of the same name on the same flow, and the same size when one of those has
its size (and the same state, CLOSED or TRUNCATED, counted apart). Prints the totals, the counterparts by name and by name and size,
and with --list the reference records without a same-size counterpart and
the records only we have. Exits 1 when fewer than --min-same (default 0.95)
of the reference's records have a counterpart with the same name and size.
"""
import argparse, collections, json, lzma, sys


def open_any(path):
    return lzma.open(path, "rt") if path.endswith(".xz") else open(path)


def flow_key(r):
    a = (r.get("src_ip"), r.get("src_port", 0))
    b = (r.get("dest_ip"), r.get("dest_port", 0))
    return (r.get("proto"),) + tuple(sorted([a, b], key=str))


def load(path, protos):
    out = collections.defaultdict(list)     # flow -> [(name, size, state, tx_id)]
    for line in open_any(path):
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if r.get("event_type") != "fileinfo":
            continue
        if protos is not None and r.get("app_proto") not in protos:
            continue
        fi = r.get("fileinfo", {})
        out[flow_key(r)].append((fi.get("filename"), fi.get("size"), fi.get("state"),
                                 fi.get("tx_id")))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ours")
    ap.add_argument("ref")
    ap.add_argument("--protos", default="http",
                    help="app_protos compared, comma-separated, or all")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--min-same", type=float, default=0.95)
    a = ap.parse_args()
    protos = None if a.protos == "all" else set(a.protos.split(","))
    ours, ref = load(a.ours, protos), load(a.ref, protos)
    nref = sum(len(v) for v in ref.values())
    nours = sum(len(v) for v in ours.values())
    by_name = same = same_state = 0
    missing, differ, extra = [], [], []
    for fk, recs in sorted(ref.items(), key=lambda kv: str(kv[0])):
        pool = list(ours.get(fk, []))
        # exact (name, size) pairs first, then the same name whatever its size
        rest = []
        for rec in recs:
            hit = next((o for o in pool if o[0] == rec[0] and o[1] == rec[1]), None)
            if hit:
                pool.remove(hit)
                by_name += 1
                same += 1
                same_state += hit[2] == rec[2]
            else:
                rest.append(rec)
        for rec in rest:
            hit = next((o for o in pool if o[0] == rec[0]), None)
            if hit:
                pool.remove(hit)
                by_name += 1
                differ.append((fk, rec, hit))
            else:
                missing.append((fk, rec))
        extra.extend((fk, o) for o in pool)
    for fk, recs in ours.items():
        if fk not in ref:
            extra.extend((fk, o) for o in recs)
    print("fileinfo records: reference %d, ours %d" % (nref, nours))
    print("reference records with a counterpart of the same name: %d (%.1f%%)" %
          (by_name, 100.0 * by_name / nref if nref else 100.0))
    print("... and the same size: %d (%.1f%%)" % (same, 100.0 * same / nref if nref else 100.0))
    print("... and the same state too: %d" % same_state)
    print("reference records without a counterpart: %d; ours without one: %d" %
          (len(missing), len(extra)))
    if a.list:
        for fk, rec, hit in differ:
            print("size differs: %s %r ref size %s (%s) ours %s (%s)" %
                  (fk, rec[0], rec[1], rec[2], hit[1], hit[2]))
        for fk, rec in missing:
            print("only reference: %s %r size %s %s" % (fk, rec[0], rec[1], rec[2]))
        for fk, rec in extra:
            print("only ours: %s %r size %s %s" % (fk, rec[0], rec[1], rec[2]))
    ratio = same / nref if nref else 1.0
    if ratio < a.min_same:
        print("FAIL: %.3f of the reference's records have a same name and size counterpart "
              "(want >= %.3f)" % (ratio, a.min_same))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
