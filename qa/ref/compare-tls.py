#!/usr/bin/env python3
"""Compare our TLS view of a capture with the reference engine's.

  qa/ref/compare-tls.py OURS_EVE REF_EVE[.xz] [--list] [--min-flows R] [--min-same R]

A flow is its 5-tuple without direction (flow ids differ between engines).
Prints the tls flows (flow records with app_proto "tls") and tls records of
each side, the flows only one side calls tls, and, over the flows both log a
tls record for, how many have the same sni and the same certificate subject.
Exits 1 when our tls flow count is off the reference's by more than
--min-flows (default 0.03, a ratio) or when fewer than --min-same (default
0.98) of the common records agree on sni and subject.

Suricata 4.1 names some attributes "unknown" (postalCode, street,
businessCategory, ...) and joins some names with "/": the subject is also
compared by its values alone ("same subject (values)"), which is what the
--min-same check uses for subjects.
"""
import argparse, json, lzma, re, sys


def open_any(path):
    return lzma.open(path, "rt") if path.endswith(".xz") else open(path)


def flow_key(r):
    a = (r.get("src_ip"), r.get("src_port", 0))
    b = (r.get("dest_ip"), r.get("dest_port", 0))
    return (r.get("proto"),) + tuple(sorted([a, b], key=str))


def load(path):
    flows, recs = set(), {}
    for line in open_any(path):
        try:
            r = json.loads(line)
        except ValueError:
            continue
        t = r.get("event_type")
        if t == "flow" and r.get("app_proto") == "tls":
            flows.add(flow_key(r))
        elif t == "tls":
            # a flow logs one tls record (both engines); keep the first
            recs.setdefault(flow_key(r), r.get("tls", {}))
    return flows, recs


def name_values(v):
    """The attribute values of a distinguished name, in order."""
    if v is None:
        return None
    return [p.split("=", 1)[-1] for p in re.split(r", (?=[A-Za-z.0-9]+=)|/(?=[A-Za-z.0-9]+=)", v)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ours")
    ap.add_argument("ref")
    ap.add_argument("--list", action="store_true", help="print the flows that differ")
    ap.add_argument("--min-flows", type=float, default=0.03)
    ap.add_argument("--min-same", type=float, default=0.98)
    a = ap.parse_args()
    of, orec = load(a.ours)
    rf, rrec = load(a.ref)
    print("tls flows: ours %d, reference %d, both %d" % (len(of), len(rf), len(of & rf)))
    print("tls records: ours %d, reference %d, both %d" % (len(orec), len(rrec),
                                                            len(set(orec) & set(rrec))))
    common = sorted(set(orec) & set(rrec) & of & rf, key=str)
    same = {"sni": 0, "subject": 0}
    same_values, ref_nosubject = 0, 0
    diffs = []
    for k in common:
        for f in same:
            if orec[k].get(f) == rrec[k].get(f):
                same[f] += 1
            else:
                diffs.append((k, f, orec[k].get(f), rrec[k].get(f)))
        if name_values(orec[k].get("subject")) == name_values(rrec[k].get("subject")):
            same_values += 1
        elif rrec[k].get("subject") is None:
            ref_nosubject += 1
    n = len(common) or 1
    for f in same:
        print("same %s: %d of %d (%.1f%%)" % (f, same[f], len(common), 100.0 * same[f] / n))
    print("same subject (values): %d of %d (%.1f%%); the reference has none on %d more"
          % (same_values, len(common), 100.0 * same_values / n, ref_nosubject))
    if a.list:
        for k in sorted(of - rf, key=str):
            print("only ours (tls flow):", k)
        for k in sorted(rf - of, key=str):
            print("only reference (tls flow):", k)
        for k in sorted(set(rrec) - set(orec), key=str):
            print("only reference (tls record):", k, json.dumps(rrec[k])[:200])
        for k in sorted(set(orec) - set(rrec), key=str):
            print("only ours (tls record):", k, json.dumps(orec[k])[:200])
        for d in diffs:
            print("differs:", d)
    ok = abs(len(of) - len(rf)) <= a.min_flows * max(len(rf), 1)
    ok = ok and same["sni"] >= a.min_same * len(common)
    ok = ok and same_values + ref_nosubject >= a.min_same * len(common)
    print("OK" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
