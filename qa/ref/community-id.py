#!/usr/bin/env python3
"""Community ID v1 (https://github.com/corelight/community-id-spec), written
from the spec alone, to check the engine's eve "community_id" values.

  qa/ref/community-id.py EVE_JSON [--seed N]     checks every record with one
  qa/ref/community-id.py --tuple PROTO SRC SPORT DST DPORT [--seed N]

Exit 1 when a record's value differs from the one computed here."""
import argparse, base64, hashlib, ipaddress, json, struct, sys

PROTOS = {"TCP": 6, "UDP": 17, "ICMP": 1, "IPv6-ICMP": 58, "SCTP": 132}
# ICMP types with a counterpart: the pair is two-way, its "ports" are the
# type and the counterpart's type
ICMP4 = {8: 0, 0: 8, 13: 14, 14: 13, 15: 16, 16: 15, 10: 9, 9: 10, 17: 18, 18: 17}
ICMP6 = {128: 129, 129: 128, 133: 134, 134: 133, 135: 136, 136: 135,
         130: 131, 131: 130, 144: 145, 145: 144}


def community_id(proto, src, sport, dst, dport, seed=0):
    sip, dip = ipaddress.ip_address(src).packed, ipaddress.ip_address(dst).packed
    one_way = False
    if proto in (1, 58):
        table = ICMP4 if proto == 1 else ICMP6
        icmp_type, code = sport, dport
        if icmp_type in table:
            sport, dport = icmp_type, table[icmp_type]
        else:
            sport, dport, one_way = icmp_type, code, True
    if not one_way and (sip, sport) > (dip, dport):
        sip, dip, sport, dport = dip, sip, dport, sport
    data = struct.pack("!H", seed) + sip + dip + struct.pack("!BB", proto, 0)
    if proto in (6, 17, 132, 1, 58):
        data += struct.pack("!HH", sport, dport)
    return "1:" + base64.b64encode(hashlib.sha1(data).digest()).decode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("eve", nargs="?")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--tuple", nargs=5)
    a = ap.parse_args()
    if a.tuple:
        p, s, sp, d, dp = a.tuple
        print(community_id(PROTOS.get(p, None) or int(p), s, int(sp), d, int(dp), a.seed))
        return 0
    checked = bad = missing = 0
    for line in open(a.eve):
        r = json.loads(line)
        if "flow_id" not in r or "src_ip" not in r:
            continue
        proto = PROTOS.get(r["proto"]) if not str(r["proto"]).isdigit() else int(r["proto"])
        if proto is None:
            continue
        if proto in (1, 58):
            sp, dp = r.get("icmp_type", 0), r.get("icmp_code", 0)
        else:
            sp, dp = r.get("src_port", 0), r.get("dest_port", 0)
        want = community_id(proto, r["src_ip"], sp, r["dest_ip"], dp, a.seed)
        got = r.get("community_id")
        checked += 1
        if got is None:
            missing += 1
        elif got != want:
            bad += 1
            if bad <= 10:
                print("differs: %s %s got %s want %s" % (r["event_type"], r.get("flow_id"), got, want))
    print("community_id: %d records checked, %d differ, %d without one" % (checked, bad, missing))
    return 1 if bad or missing else 0


if __name__ == "__main__":
    sys.exit(main())
