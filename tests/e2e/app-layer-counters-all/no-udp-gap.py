#!/usr/bin/env python3
"""The last stats record: no app_layer.error.<proto>_udp.gap (Suricata
registers gap for TCP only), and every app_layer.flow.<proto> has its tx
and error counters; no per-protocol exception_policy ones (the case does
not ask for stats.exception-policy.per-app-proto-errors)."""
import json
import os
import sys

last = None
with open(os.path.join(sys.argv[1], 'eve.json')) as f:
    for line in f:
        rec = json.loads(line)
        if rec.get('event_type') == 'stats':
            last = rec['stats']['app_layer']
bad = [p for p, e in last['error'].items()
       if (p.endswith('_udp') and 'gap' in e) or 'exception_policy' in e]
for p in last['flow']:
    if p.startswith('failed_'):
        continue
    if p not in last['tx'] or set(('alloc', 'parser', 'internal')) - set(last['error'].get(p, {})):
        bad.append(p)
if bad:
    print('wrong:', ', '.join(bad))
    sys.exit(1)
