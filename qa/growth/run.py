#!/usr/bin/python3
"""Growth benchmark: does the engine's cost per unit stay flat as N grows?

    qa/growth/run.py [--ci] [--reps R] [--limit X] [--keep DIR] BUILDDIR [CASE...]

An attacker who can make the engine's work grow faster than the traffic blinds
it (a hash chain every source of a /16 shares, a per-call scan of every
transaction a connection ever had). Each case in qa/growth/cases/ writes a
capture of N units (sessions, requests, sources, files, MIME levels):

    cases/NAME.py --sizes      prints "SMALL LARGE CI_SMALL CI_LARGE"
    cases/NAME.py N OUTDIR     writes OUTDIR/in.pcap, OUTDIR/rules, maybe OUTDIR/args

For both sizes the engine runs the capture in --runmode single (the case's
rules, its extra arguments); the CPU time (user + system) of the run, less
that of the same engine on a one-packet capture (start-up, rule loading), is
divided by N. A case fails when the cost per unit at the large size is over
--limit (default 2.5) times that at the small size: linear work gives ~1,
quadratic work gives LARGE/SMALL (>= 4). Each size takes the fastest of R
runs (default 3, 2 with --ci) so that a busy machine's stolen time, which
only ever adds, does not decide. A run that exits non-zero fails the case.

CPU time rather than wall time, the minimum rather than the mean, and a
limit far from both 1 and the quadratic ratio keep this deterministic
enough for CI; the figures are printed for the record either way.
Last line: "N passed, N failed".
"""

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time

FLOOR_S = 0.02
HERE = os.path.dirname(os.path.abspath(__file__))


def one_packet_pcap(path):
	with open(path, "wb") as f:
		f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
		frame = bytes(12) + b"\x08\x06" + bytes(28)   # an ARP-typed frame: decoded, no flow
		f.write(struct.pack("<IIII", 1700000000, 0, len(frame), len(frame)))
		f.write(frame)


def run_engine(build, pcap, rules, args, logdir):
	"""CPU seconds (user + system) and peak RSS (MB) of one engine run."""
	shutil.rmtree(logdir, ignore_errors=True)
	os.makedirs(logdir)
	cmd = [os.path.join(build, "src", "suricata"), "-c", os.path.join(build, "suricata.yaml"),
	       "--runmode", "single", "-k", "none", "-r", pcap, "-S", rules, "-l", logdir] + args
	t0 = time.monotonic()
	with open(os.path.join(logdir, "console"), "wb") as out:
		p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
		# wait4: this child's own CPU and peak RSS, not every child's so far
		_, status, ru = os.wait4(p.pid, 0)
	wall = time.monotonic() - t0
	p.returncode = os.waitstatus_to_exitcode(status)
	if p.returncode != 0:
		with open(os.path.join(logdir, "console"), "rb") as f:
			tail = f.read().decode(errors="replace").strip().splitlines()[-3:]
		raise RuntimeError("exit %d: %s [%s]" % (p.returncode, " | ".join(tail), " ".join(cmd)))
	return ru.ru_utime + ru.ru_stime, wall, ru.ru_maxrss / 1024.0


def best_of(reps, fn):
	runs = [fn() for _ in range(reps)]
	return min(runs, key=lambda r: r[0])


def run_case(build, case, ci, reps, limit, work):
	path = os.path.join(HERE, "cases", case + ".py")
	sizes = subprocess.check_output([sys.executable, path, "--sizes"], text=True).split()
	small, large = (int(sizes[2]), int(sizes[3])) if ci else (int(sizes[0]), int(sizes[1]))
	per_unit = {}
	base_pcap = os.path.join(work, "one.pcap")
	one_packet_pcap(base_pcap)
	for n in (small, large):
		d = os.path.join(work, "%s-%d" % (case, n))
		subprocess.check_call([sys.executable, path, str(n), d])
		args = []
		if os.path.exists(os.path.join(d, "args")):
			args = open(os.path.join(d, "args")).read().split()
		rules = os.path.join(d, "rules")
		log = os.path.join(d, "log")
		base = best_of(reps, lambda: run_engine(build, base_pcap, rules, args, log))
		cpu, wall, rss = best_of(reps, lambda: run_engine(build, os.path.join(d, "in.pcap"),
								  rules, args, log))
		# below FLOOR_S a run's work is mostly clock granularity and
		# start-up noise: such a size counts as FLOOR_S of work, which
		# can hide nothing that grows quadratically over 4x sizes
		work_s = max(cpu - base[0], FLOOR_S)
		per_unit[n] = work_s / n
		print("  %-22s N=%-8d cpu %7.3f s (start-up %5.3f)  %8.2f us/unit  wall %6.2f s  "
		      "peak RSS %6.1f MB" % (case, n, cpu, base[0], per_unit[n] * 1e6, wall, rss),
		      flush=True)
	ratio = per_unit[large] / per_unit[small]
	return ratio, small, large


def main():
	ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
	ap.add_argument("--ci", action="store_true", help="the small CI sizes")
	ap.add_argument("--reps", type=int, default=None)
	ap.add_argument("--limit", type=float, default=2.5)
	ap.add_argument("--keep", default=None, help="keep captures and logs in this folder")
	ap.add_argument("build")
	ap.add_argument("cases", nargs="*")
	a = ap.parse_args()
	reps = a.reps or (2 if a.ci else 3)
	build = os.path.abspath(a.build)
	cases = a.cases or sorted(f[:-3] for f in os.listdir(os.path.join(HERE, "cases"))
				  if f.endswith(".py"))
	work = a.keep or tempfile.mkdtemp(prefix="growth-")
	os.makedirs(work, exist_ok=True)
	passed = failed = 0
	try:
		for case in cases:
			try:
				ratio, small, large = run_case(build, case, a.ci, reps, a.limit, work)
			except (RuntimeError, subprocess.CalledProcessError, OSError) as e:
				print("FAIL: growth %s: %s" % (case, e))
				failed += 1
				continue
			verdict = "PASS" if ratio <= a.limit else "FAIL"
			print("%s: growth %s: cost per unit x%.2f from N=%d to N=%d (limit x%.1f)" %
			      (verdict, case, ratio, small, large, a.limit), flush=True)
			if verdict == "PASS":
				passed += 1
			else:
				failed += 1
	finally:
		if not a.keep:
			shutil.rmtree(work, ignore_errors=True)
	print("%d passed, %d failed" % (passed, failed))
	return 1 if failed else 0


if __name__ == "__main__":
	sys.exit(main())
