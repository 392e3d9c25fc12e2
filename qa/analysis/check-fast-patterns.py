#!/usr/bin/env python3
"""Runs --engine-analysis on a rule file and checks that the reports agree:

  qa/analysis/check-fast-patterns.py [--suricata src/suricata] [--yaml suricata.yaml] RULES

- every rule in rules.json whose flags say "prefilter" has an "mpm" object,
  and its contents that say is_mpm (one, shown in each direction's engine)
  have that pattern; no rule without "prefilter" has either;
- every rule with a non-negated content but no fast pattern carries the
  warning that says so (the engine inspects it without prefilter);
- patterns.json counts as many fast patterns as rules.json has;
- rules_fast_pattern.txt has one section per rule.
Prints a summary; exit 1 on any disagreement. On ET Open (2026-12-07):
18215 rules, 18034 with a fast pattern, 148 with a non-negated content but
none (mostly http rules whose chosen content is a payload one).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def contents(rule):
    """Every content match object of the rule, wherever it is."""
    out = []
    for lst in rule.get("lists", {}).values():
        out += [m["content"] for m in lst.get("matches", []) if "content" in m]
    for eng in rule.get("engines", []) + rule.get("frame_engines", []):
        out += [m["content"] for m in eng.get("matches", []) if "content" in m]
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    top = os.path.dirname(os.path.dirname(here))
    ap = argparse.ArgumentParser()
    ap.add_argument("--suricata", default=os.path.join(top, "src", "suricata"))
    ap.add_argument("--yaml", default=os.path.join(top, "suricata.yaml"))
    ap.add_argument("rules")
    a = ap.parse_args()
    bad = []
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run([a.suricata, "-c", a.yaml, "--engine-analysis", "-S", a.rules,
                            "-l", d], capture_output=True, text=True)
        if r.returncode != 0:
            print("FAIL: exit %d: %s" % (r.returncode, r.stderr.strip()[:300]))
            return 1
        rules = [json.loads(l) for l in open(os.path.join(d, "rules.json"))]
        pats = json.load(open(os.path.join(d, "patterns.json")))
        fp_txt = open(os.path.join(d, "rules_fast_pattern.txt")).read()
    with_fp = no_fp = 0
    for rule in rules:
        sid = rule["id"]
        mpm = rule.get("mpm")
        cs = contents(rule)
        marked = [c for c in cs if c["is_mpm"]]
        if "prefilter" in rule["flags"]:
            with_fp += 1
            # one content, shown once per engine direction it is prefiltered in
            if not mpm or not marked or any(c["pattern"] != mpm["pattern"] for c in marked):
                bad.append("sid %d: prefilter without a matching is_mpm content" % sid)
        else:
            if mpm or marked:
                bad.append("sid %d: an mpm without the prefilter flag" % sid)
            if any(not c["negated"] for c in cs):
                no_fp += 1
                if not any("no fast pattern" in w for w in rule.get("warnings", [])):
                    bad.append("sid %d: content, no fast pattern, no warning" % sid)
    counted = sum(p["mpm"] for b in pats["buffers"] for p in b["patterns"])
    if counted != with_fp:
        bad.append("patterns.json counts %d fast patterns, rules.json %d" % (counted, with_fp))
    if fp_txt.count("== Sid: ") != len(rules):
        bad.append("rules_fast_pattern.txt: %d sections for %d rules"
                   % (fp_txt.count("== Sid: "), len(rules)))
    for b in bad[:20]:
        print("FAIL: " + b)
    print("%d rules, %d with a fast pattern, %d with content but none; %d problems"
          % (len(rules), with_fp, no_fp, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
