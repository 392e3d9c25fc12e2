#!/usr/bin/env python3
"""DNS against the reference engine's eve.json (issue #13).

    qa/ref/compare-dns.py REF_EVE OUR_EVE [--max-flow-diff PCT] [--min-names PCT] [--explain]

REF_EVE may be .xz. The reference is Suricata 4.1 (eve dns v1/v2-style: one
"query" record per question, "answer" records), ours Suricata 8's v3 (one
record per message with a "queries" list), so records are not compared as
shapes. A DNS transaction is a (flow, DNS id) pair, the flow its 5-tuple
with the ends sorted (the two engines number flows differently, and may
see a flow's direction the other way round). For each reference transaction
with a query, its query names (a multiset) are compared with ours: from our
request records, or from a response's queries when we logged no request for
it (Suricata 8 turns a flow round whose first packet was a response; the
4.1 reference logs such a lone response as an answer only). Names compare
as sets: a query retransmitted with the same id is one name (4.1 logged
the first copy only), and 4.1's \\xEC escapes compare equal to our \\xec.

Prints the dns flow counts, the share of reference transactions with the
same query names, and up to 10 differences each way. With --explain, each
difference is put in a class from our own records (our flow's app_proto and
anomaly events): the reference's transactions on flows that are not dns for
us (our probe, as Suricata 8's, refused the first message), those on our dns
flows whose message we refused as malformed, and names that differ because
we logged more messages with that id (Suricata 8 keeps a message with bad
counts, with an event; 4.1 dropped it); then the share on the transactions
both engines logged. Exits 1 when the dns
flow counts differ by more than --max-flow-diff percent (default 3) or the
names agree on fewer than --min-names percent (default 98).
"""
import collections
import json
import lzma
import re
import sys


def records(path):
    op = lzma.open if path.endswith('.xz') else open
    with op(path, 'rt') as f:
        for line in f:
            line = line.strip()
            if line:
                yield json.loads(line)


def flow_key(r):
    a = (r.get('src_ip'), r.get('src_port'))
    b = (r.get('dest_ip'), r.get('dest_port'))
    return (r.get('proto'),) + tuple(sorted([a, b], key=str))


def norm(name):
    """4.1 wrote a non-UTF-8 byte as \\xEC, Suricata 8 as \\xec."""
    return re.sub(r'\\x([0-9A-Fa-f]{2})', lambda m: '\\x' + m.group(1).lower(), name or '')


def load(path):
    flows = 0
    protos = {}                                          # flow -> app_proto
    events = collections.defaultdict(collections.Counter)  # flow -> dns events
    req = collections.defaultdict(collections.Counter)   # (flow, id) -> names
    resp = collections.defaultdict(collections.Counter)
    for r in records(path):
        et = r.get('event_type')
        if et == 'flow':
            protos[flow_key(r)] = r.get('app_proto', '-')
        if et == 'flow' and r.get('app_proto') == 'dns':
            flows += 1
        if et == 'anomaly' and r.get('anomaly', {}).get('app_proto') == 'dns':
            events[flow_key(r)][r['anomaly'].get('event')] += 1
        if et != 'dns':
            continue
        d = r.get('dns', {})
        k = (flow_key(r), d.get('id'))
        t = d.get('type')
        if t == 'query':                      # v1/v2 (the reference)
            req[k][d.get('rrname')] += 1
        elif t == 'request':                  # v3
            for q in d.get('queries', []):
                req[k][q.get('rrname')] += 1
        elif t == 'response':
            for q in d.get('queries', []):
                resp[k][q.get('rrname')] += 1
    return flows, req, resp, protos, events


def main(argv):
    args = [a for a in argv[1:] if not a.startswith('--')]
    opts = dict(zip(argv[1::2], argv[2::2]))
    max_flow = float(opts.get('--max-flow-diff', 3))
    min_names = float(opts.get('--min-names', 98))
    if len(args) < 2:
        print(__doc__.strip().splitlines()[2])
        return 2
    ref_flows, ref_req, _, _, _ = load(args[0])
    our_flows, our_req, our_resp, our_protos, our_events = load(args[1])
    same, diff = 0, []
    for k, names in ref_req.items():
        ours = our_req.get(k) or our_resp.get(k)
        if ours is not None and set(map(norm, ours)) == set(map(norm, names)):
            same += 1
        else:
            diff.append((k, dict(names), dict(ours) if ours else None))
    extra = [k for k in our_req if k not in ref_req]
    total = len(ref_req)
    pct = 100.0 * same / total if total else 100.0
    fdiff = 100.0 * abs(our_flows - ref_flows) / ref_flows if ref_flows else 0.0
    print('dns flows: reference %d, ours %d (%+.1f%%)' % (ref_flows, our_flows,
          100.0 * (our_flows - ref_flows) / ref_flows if ref_flows else 0.0))
    print('dns transactions with queries: reference %d, ours %d' % (total, len(our_req)))
    print('same query names: %d of %d (%.2f%%)' % (same, total, pct))
    for k, want, got in diff[:10]:
        print('  differs: %s: reference %s, ours %s' % (k, want, got))
    for k in extra[:10]:
        print('  only ours: %s: %s' % (k, dict(our_req[k])))
    if len(extra) > 10:
        print('  ... %d more only ours' % (len(extra) - 10))
    if '--explain' in argv:
        classes = collections.defaultdict(list)
        for k, want, got in diff:
            flow = k[0]
            if got is None and our_protos.get(flow, '-') != 'dns':
                classes['flow not dns for us (app_proto %s): the probe refused its first message'
                        % our_protos.get(flow, 'none')].append(k)
            elif got is None:
                ev = dict(our_events.get(flow, {}))
                classes['our dns flow, this message refused as malformed (events %s)'
                        % (ev or 'none')].append(k)
            elif set(map(norm, want)) < set(map(norm, got)):
                ev = dict(our_events.get(flow, {}))
                classes['we logged more messages with this id (events %s)' % (ev or 'none')].append(k)
            else:
                classes['other'].append(k)
        print('differences by class:')
        for c, ks in sorted(classes.items(), key=lambda x: -len(x[1])):
            print('  %3d  %s' % (len(ks), c))
        both = total - sum(1 for _, _, got in diff if got is None)
        same_both = same + sum(1 for _, want, got in diff
                               if got is not None and set(map(norm, want)) <= set(map(norm, got)))
        print('transactions both engines logged: %d; the reference\'s names among ours on %d (%.2f%%)'
              % (both, same_both, 100.0 * same_both / both if both else 100.0))
    ok = fdiff <= max_flow and pct >= min_names
    print('%s: flows within %.1f%% (%.1f%%), names >= %.1f%% (%.2f%%)' % (
        'PASS' if ok else 'FAIL', max_flow, fdiff, min_names, pct))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
