#!/usr/bin/env python3
"""Compare our alerts with the reference engine's, per (sid, flow) and count.

  qa/ref/compare-alerts.py OURS_EVE REF_EVE[.xz] RULES [--protos tcp,udp,icmp,ip]
                           [--list] [--min-ratio R]

A flow is its 5-tuple without direction (the flow ids differ between engines).
Alerts are limited to the rules whose header protocol is in --protos (default:
the packet protocols tcp, udp, icmp, ip; pass "all" for every rule).  Prints
the totals, the (sid, flow) pairs only one side has, the pairs whose counts
differ, and exits 1 when the ratio of matched alerts is under --min-ratio or
when we have an alert the reference has not.
"""
import argparse, collections, json, lzma, re, sys


def open_any(path):
    return lzma.open(path, "rt") if path.endswith(".xz") else open(path)


def rule_protos(path):
    out = {}
    for line in open(path, errors="replace"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.search(r"\bsid\s*:\s*(\d+)", line)
        if not m:
            continue
        parts = line.split(None, 2)
        if len(parts) >= 2:
            out[int(m.group(1))] = parts[1].lower()
    return out


def flow_key(r):
    a = (r.get("src_ip"), r.get("src_port", 0))
    b = (r.get("dest_ip"), r.get("dest_port", 0))
    return (r.get("proto"),) + tuple(sorted([a, b], key=str))


def alerts(path, protos, sid_proto):
    c = collections.Counter()
    for line in open_any(path):
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if r.get("event_type") != "alert":
            continue
        sid = r["alert"]["signature_id"]
        if protos is not None and sid_proto.get(sid) not in protos:
            continue
        c[(sid, flow_key(r))] += 1
    return c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ours")
    ap.add_argument("ref")
    ap.add_argument("rules")
    ap.add_argument("--protos", default="tcp,udp,icmp,ip")
    ap.add_argument("--list", action="store_true", help="list every differing pair")
    ap.add_argument("--min-ratio", type=float, default=0.0)
    a = ap.parse_args()
    protos = None if a.protos == "all" else set(a.protos.split(","))
    sp = rule_protos(a.rules)
    ours, ref = alerts(a.ours, protos, sp), alerts(a.ref, protos, sp)
    matched = sum(min(ours[k], ref[k]) for k in ref)
    nref, nours = sum(ref.values()), sum(ours.values())
    only_ref = sorted(k for k in ref if k not in ours)
    only_ours = sorted(k for k in ours if k not in ref)
    differ = sorted(k for k in ref if k in ours and ours[k] != ref[k])
    extra = sum(max(0, ours[k] - ref[k]) for k in ours)
    print(f"alerts: ours {nours}, reference {nref}, matched {matched} "
          f"({100.0 * matched / max(nref, 1):.1f}%), extra {extra}")
    print(f"pairs: ours {len(ours)}, reference {len(ref)}, only reference {len(only_ref)}, "
          f"only ours {len(only_ours)}, count differs {len(differ)}")
    by_sid = collections.defaultdict(lambda: [0, 0, 0])
    for k in set(ref) | set(ours):
        by_sid[k[0]][0] += ours[k]
        by_sid[k[0]][1] += ref[k]
        by_sid[k[0]][2] += 1
    print("sid        ours   ref  pairs")
    for sid, (o, r, n) in sorted(by_sid.items()):
        mark = "" if o == r else "  <-"
        print(f"{sid:<9} {o:5} {r:5} {n:6}{mark}")
    if a.list:
        for name, ks in (("only reference", only_ref), ("only ours", only_ours)):
            for k in ks:
                print(f"{name}: sid {k[0]} {k[1]} x{ref[k] or ours[k]}")
        for k in differ:
            print(f"count: sid {k[0]} {k[1]} ours {ours[k]} ref {ref[k]}")
    bad = only_ours or extra or (nref and matched / nref < a.min_ratio)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
