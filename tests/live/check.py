#!/usr/bin/python3
"""Checks of tests/live/run.sh on one engine run's output.

    check.py traffic REF_EVE LIVE_EVE ENGINE_LOG SENT NAME [WINDOW [ORDER]]
        (sid, flow) alert pairs of the live run equal those of -r (REF_EVE),
        the flow being the tuple and the VLAN ids; but the sids in WINDOW
        (comma-separated: rules counting in a window shorter than the replay,
        tests/live/timing-sids.py) are left out and named with their counts,
        and those in ORDER (thresholds that several flows share: which flow
        alerts depends on the order between capture threads) are compared
        by their alert count, not their flows;
        decoder.pkts == the packets the capture delivered (ENGINE_LOG's last
        line "<source>: <dev>: N packets"); delivered >= 97% of SENT;
        capture.kernel_drops == 0.
    check.py flows LIVE_EVE
        prints the count of eve flow records ending by timeout
    check.py watch LIVE_EVE OUT
        until killed: appends each new line of LIVE_EVE to OUT behind the
        time it was seen (ns); a watcher slowed by a busy machine stamps a
        line late, never early
    check.py idle OUT NAME T0_NS TIMEOUT_S SID
        on watch's OUT of an idle run (T0_NS: just before the first packet
        was sent): 5 flow records ending by timeout, none seen before
        T0 + TIMEOUT_S; the 5 alerts of SID all seen before the first flow
        record (written at once, not at flow end)
    check.py counter LIVE_EVE a.b.c
        prints a counter of the last eve stats record (-1: absent)
    check.py alerts LIVE_EVE SID
        prints the count of alerts of SID
    check.py ifaces LIVE_EVE NAME IFACE=PREFIX...
        two interfaces in one process (tests/live/multi-iface.sh): every
        record of a flow whose client address starts with PREFIX names IFACE
        in in_iface; each IFACE has its 5 alerts and 5 flow records; no
        record carries pcap_cnt; with NAME ending in "-threads", the last
        stats record's per-thread counters (stats threads: yes) show each
        interface's thread W#01-IFACE with its 10 packets
    check.py reload REF_EVE LIVE_EVE ENGINE_LOG SENT NAME T_REQ T_DONE OLD NEW KEEP
        a rule reload during the replay (tests/live/reload.sh) swapped rule OLD
        for NEW (same content) between T_REQ and T_DONE (epoch seconds): OLD
        alerted before T_DONE only, NEW after T_REQ only, both some; every flow
        that OLD alerted on in -r (REF_EVE, the old rules) got exactly one
        alert of OLD or NEW (no packet lost or inspected twice in the swap);
        KEEP's (sid, flow) pairs equal -r's; the packet counts as traffic's.
Prints PASS:/FAIL: lines; the exit status is 1 on any FAIL.
"""

import collections
import datetime
import json
import re
import sys


def records(path):
	out = []
	with open(path) as f:
		for line in f:
			line = line.strip()
			if not line:
				continue
			try:
				out.append(json.loads(line))
			except ValueError:
				pass     # a line cut by an unclean stop is reported by the counts
	return out


def alert_pairs(recs):
	c = collections.Counter()
	for r in recs:
		if r.get("event_type") != "alert":
			continue
		c[(r["alert"]["signature_id"], r.get("proto"), r.get("src_ip"), r.get("src_port"),
		   r.get("dest_ip"), r.get("dest_port"), tuple(r.get("vlan", [])))] += 1
	return c


def last_stats(recs):
	st = [r["stats"] for r in recs if r.get("event_type") == "stats"]
	return st[-1] if st else {}


def delivered_of(log):
	m = None
	with open(log, errors="replace") as f:
		for line in f:
			mm = re.search(r": (\d+) packets, \d+ bytes; kernel: (\d+) packets, (\d+) drops", line)
			if mm:
				m = mm
	return int(m.group(1)) if m else -1


def packet_checks(recs, log, sent, check):
	st = last_stats(recs)
	dec = st.get("decoder", {}).get("pkts", -1)
	cap = st.get("capture", {})
	delivered = delivered_of(log)
	sent = int(sent)
	check(dec == delivered, "decoder.pkts %d == delivered %d" % (dec, delivered))
	check(sent > 0 and delivered >= 0.97 * sent,
	      "delivered %d >= 97%% of sent %d" % (delivered, sent))
	check(cap.get("kernel_drops", -1) == 0 and cap.get("kernel_packets", 0) >= delivered,
	      "kernel_packets %s, kernel_drops %s" % (cap.get("kernel_packets"), cap.get("kernel_drops")))


def epoch(ts):
	return datetime.datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()


def reload(ref, live, log, sent, name, t_req, t_done, old, new, keep):
	fails = 0
	t_req, t_done, old, new, keep = float(t_req), float(t_done), int(old), int(new), int(keep)
	recs = records(live)
	ra, la = alert_pairs(records(ref)), alert_pairs(recs)

	def check(ok, what):
		nonlocal fails
		print("%s: live %s: %s" % ("PASS" if ok else "FAIL", name, what))
		fails += not ok

	ts = {old: [], new: []}
	for r in recs:
		if r.get("event_type") == "alert" and r["alert"]["signature_id"] in ts:
			ts[r["alert"]["signature_id"]].append(epoch(r["timestamp"]))
	# a packet is inspected after its capture: an old-rule alert may carry a
	# time up to the end of the swap, a new-rule one is never before the ask
	# (0.2 s: the kernel's and our clock reads)
	check(ts[old] and max(ts[old]) <= t_done + 0.2,
	      "%d alerts of the removed rule %d, the last %.3f s after the swap ended" %
	      (len(ts[old]), old, (max(ts[old]) - t_done) if ts[old] else 0))
	check(ts[new] and min(ts[new]) >= t_req - 0.2,
	      "%d alerts of the new rule %d, the first %.3f s after the reload was asked" %
	      (len(ts[new]), new, (min(ts[new]) - t_req) if ts[new] else 0))
	want = collections.Counter({k[1:]: v for k, v in ra.items() if k[0] == old})
	got = collections.Counter()
	for k, v in la.items():
		if k[0] in (old, new):
			got[k[1:]] += v
	check(want == got and sum(want.values()) > 0,
	      "each of the %d flows -r alerted on with %d: one alert of %d or %d (got %d on %d flows%s)" %
	      (sum(want.values()), old, old, new, sum(got.values()), len(got),
	       "" if want == got else "; missing %s, extra %s" % (dict(list((want - got).items())[:3]),
							    dict(list((got - want).items())[:3]))))
	rk = {k: v for k, v in ra.items() if k[0] == keep}
	lk = {k: v for k, v in la.items() if k[0] == keep}
	check(rk == lk and rk, "the kept rule %d: (sid, flow) pairs equal -r's (%d)" % (keep, sum(rk.values())))
	packet_checks(recs, log, sent, check)
	return fails


def sids(text):
	return {int(x) for x in text.split(",") if x}


def traffic(ref, live, log, sent, name, window="", order=""):
	fails = 0
	ra, la = alert_pairs(records(ref)), alert_pairs(records(live))
	window, order = sids(window), sids(order) - sids(window)

	def count(c, sid):
		return sum(v for k, v in c.items() if k[0] == sid)

	for sid in sorted(window):
		print("INFO: live %s: sid %d counts in a window shorter than the replay, not compared: "
		      "-r %d alerts, live %d" % (name, sid, count(ra, sid), count(la, sid)))
	ro = {sid: count(ra, sid) for sid in order if count(ra, sid) or count(la, sid)}
	lo = {sid: count(la, sid) for sid in ro}
	ra = collections.Counter({k: v for k, v in ra.items() if k[0] not in window | order})
	la = collections.Counter({k: v for k, v in la.items() if k[0] not in window | order})
	recs = records(live)
	st = last_stats(recs)
	dec = st.get("decoder", {}).get("pkts", -1)
	cap = st.get("capture", {})
	m = None
	with open(log, errors="replace") as f:
		for line in f:
			mm = re.search(r": (\d+) packets, \d+ bytes; kernel: (\d+) packets, (\d+) drops", line)
			if mm:
				m = mm
	delivered = int(m.group(1)) if m else -1
	sent = int(sent)

	def check(ok, what):
		nonlocal fails
		print("%s: live %s: %s" % ("PASS" if ok else "FAIL", name, what))
		fails += not ok

	check(ra == la and sum(ra.values()) > 0,
	      "alert (sid, flow) pairs equal -r's (%d alerts, %d pairs; live %d alerts%s)" %
	      (sum(ra.values()), len(ra), sum(la.values()),
	       "" if ra == la else "; missing %s, extra %s" % (dict(list((ra - la).items())[:3]),
							    dict(list((la - ra).items())[:3]))))
	if ro:
		check(ro == lo, "alert counts of the %d rules with thresholds shared by flows equal -r's "
		      "(%d alerts; their flows depend on the order between threads: %s)" %
		      (len(ro), sum(ro.values()), ",".join(str(s) for s in sorted(ro))) +
		      ("" if ro == lo else "; -r %s, live %s" % (ro, lo)))
	check(dec == delivered, "decoder.pkts %d == delivered %d" % (dec, delivered))
	check(sent > 0 and delivered >= 0.97 * sent,
	      "delivered %d >= 97%% of sent %d" % (delivered, sent))
	check(cap.get("kernel_drops", -1) == 0 and cap.get("kernel_packets", 0) >= delivered,
	      "kernel_packets %s, kernel_drops %s" % (cap.get("kernel_packets"), cap.get("kernel_drops")))
	return fails


def flows(live):
	n = sum(1 for r in records(live) if r.get("event_type") == "flow" and
		r.get("flow", {}).get("reason") == "timeout")
	print(n)
	return 0


def watch(live, out):
	import time
	pos, part = 0, b""
	with open(out, "a") as o:
		while True:
			try:
				with open(live, "rb") as f:
					f.seek(pos)
					data = f.read()
			except OSError:
				data = b""
			if data:
				pos += len(data)
				now = time.time_ns()
				lines = (part + data).split(b"\n")
				part = lines.pop()
				for line in lines:
					o.write("%d %s\n" % (now, line.decode("utf-8", "replace")))
				o.flush()
			time.sleep(0.02)


def idle(out, name, t0, timeout, sid):
	t0, timeout, sid = int(t0), float(timeout), int(sid)
	seen = []
	with open(out) as f:
		for line in f:
			stamp, _, text = line.partition(" ")
			try:
				seen.append((int(stamp), json.loads(text)))
			except ValueError:
				pass
	fl = [t for t, r in seen if r.get("event_type") == "flow" and
	      r.get("flow", {}).get("reason") == "timeout"]
	al = [t for t, r in seen if r.get("event_type") == "alert" and
	      r["alert"]["signature_id"] == sid]
	ms = lambda t: (t - t0) // 1000000
	fails = 0

	def check(ok, what):
		nonlocal fails
		print("%s: live %s: %s" % ("PASS" if ok else "FAIL", name, what))
		fails += not ok

	early = [t for t in fl if t < t0 + timeout * 1e9]
	check(len(fl) == 5 and not early,
	      "%d flow records (reason timeout), the first seen %s ms after the first packet was "
	      "sent (timeout %g s)%s" % (len(fl), ms(min(fl)) if fl else "-", timeout,
	                                 "; %d before the timeout" % len(early) if early else ""))
	# eve.json is written a record at a time: its order is the write order
	kinds = [("flow" if r.get("event_type") == "flow" else "alert")
	         for _, r in seen if r.get("event_type") in ("flow", "alert")]
	first_flow = kinds.index("flow") if "flow" in kinds else len(kinds)
	check(len(al) == 5 and kinds[:first_flow].count("alert") == 5,
	      "%d of 5 alerts, written before the first flow record: nothing waits for more "
	      "traffic or the flow's end" % len(al))
	return fails


def counter(live, path):
	st = last_stats(records(live))
	for k in path.split("."):
		st = st.get(k, {}) if isinstance(st, dict) else {}
	print(st if isinstance(st, int) else -1)
	return 0


def alerts(live, sid):
	print(sum(1 for r in records(live) if r.get("event_type") == "alert" and
		  r["alert"]["signature_id"] == int(sid)))
	return 0


def ifaces(live, name, *pairs):
	want = [p.split("=", 1) for p in pairs]
	recs = [r for r in records(live) if r.get("event_type") != "stats"]
	fails = 0

	def check(ok, what):
		nonlocal fails
		print("%s: live %s: %s" % ("PASS" if ok else "FAIL", name, what))
		fails += not ok

	wrong = []
	for iface, prefix in want:
		mine = [r for r in recs if str(r.get("src_ip", "")).startswith(prefix) or
			str(r.get("dest_ip", "")).startswith(prefix)]
		wrong += [r for r in mine if r.get("in_iface") != iface]
		na = sum(1 for r in mine if r.get("event_type") == "alert")
		nf = sum(1 for r in mine if r.get("event_type") == "flow")
		check(na == 5 and nf == 5, "%s: %d alerts and %d flow records of its flows (want 5 and 5)"
		      % (iface, na, nf))
	check(not wrong, "every record names its flow's interface in in_iface (%d records%s)" %
	      (len(recs), "" if not wrong else "; wrong: %s" % json.dumps(wrong[0])[:300]))
	if name.endswith("-threads"):
		th = last_stats(records(live)).get("threads", {})
		for iface, _ in want:
			pk = th.get("W#01-" + iface, {}).get("decoder", {}).get("pkts")
			check(pk == 10, "stats threads: W#01-%s decoded %s packets (want 10; threads %s)"
			      % (iface, pk, ",".join(sorted(th))))
	cnt = [r for r in recs if "pcap_cnt" in r]
	check(not cnt, "no record carries pcap_cnt (live)%s" %
	      ("" if not cnt else ": %d do, e.g. %s" % (len(cnt), json.dumps(cnt[0])[:200])))
	return fails


if __name__ == "__main__":
	if sys.argv[1] == "ifaces":
		sys.exit(1 if ifaces(*sys.argv[2:]) else 0)
	if sys.argv[1] == "watch":
		sys.exit(watch(sys.argv[2], sys.argv[3]))
	if sys.argv[1] == "idle":
		sys.exit(1 if idle(*sys.argv[2:7]) else 0)
	if sys.argv[1] == "counter":
		sys.exit(counter(sys.argv[2], sys.argv[3]))
	if sys.argv[1] == "alerts":
		sys.exit(alerts(sys.argv[2], sys.argv[3]))
	if sys.argv[1] == "reload":
		sys.exit(1 if reload(*sys.argv[2:12]) else 0)
	if sys.argv[1] == "traffic":
		sys.exit(1 if traffic(*sys.argv[2:9]) else 0)
	sys.exit(flows(sys.argv[2]))
