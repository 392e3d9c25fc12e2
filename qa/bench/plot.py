#!/usr/bin/python3
"""Charts of the CPU benchmark tables in qa/bench/RESULTS.md.

    /usr/bin/python3 qa/bench/plot.py [RESULTS.md [OUTDIR]]

Reads the tables as they are in RESULTS.md (markdown pipe tables, and the
fixed-column blocks the bench scripts print), found by the heading of their
section, and writes one PNG a table under OUTDIR (default qa/bench/charts/).
Nothing is typed in twice: a table that changes changes its chart on the next
run. A section or column that is missing is an error naming it, not an
empty chart. Needs matplotlib (python3-matplotlib, install-deps.sh).
"""
import os
import re
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


class TableError(Exception):
    pass


def sections(text):
    """{heading: body} for every ## or ### heading, in file order."""
    out = {}
    cur, body = None, []
    for line in text.splitlines():
        m = re.match(r"^#{2,3} (.*)", line)
        if m:
            if cur is not None:
                out[cur] = "\n".join(body)
            cur, body = m.group(1).strip(), []
        elif cur is not None:
            body.append(line)
    if cur is not None:
        out[cur] = "\n".join(body)
    return out


def section(secs, starts):
    for h, body in secs.items():
        if h.startswith(starts):
            return h, body
    raise TableError("no section whose heading starts with %r" % starts)


def pipe_tables(body):
    """Every markdown pipe table of a section: a list of (header, rows)."""
    tables, cur = [], []
    for line in body.splitlines() + [""]:
        if line.startswith("|"):
            cur.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif cur:
            if len(cur) >= 2 and set("".join(cur[1])) <= set("-: "):
                tables.append((cur[0], cur[2:]))
            cur = []
    return tables


def code_blocks(body):
    return re.findall(r"```\n(.*?)```", body, re.S)


def fixed_table(block, first_col):
    """A bench script's fixed-column block: the line starting with first_col is
    the header; rows follow until a line that does not split into as many
    columns. The first column may hold spaces (run names): the numbers are
    taken from the right."""
    lines = block.splitlines()
    for i, line in enumerate(lines):
        if line.split() and line.split()[0] == first_col:
            header = line.split()
            rows = []
            for row in lines[i + 1:]:
                parts = row.split()
                # a trailing "target: ..." or "engine: ..." line ends it
                if len(parts) < len(header) or parts[0].endswith(":"):
                    break
                name = " ".join(parts[:len(parts) - len(header) + 1])
                rows.append([name] + parts[len(parts) - len(header) + 1:])
            return header, rows
    raise TableError("no block with a %r header" % first_col)


def num(s):
    """'1.859G' -> 1.859e9, '330M' -> 3.3e8, '174,729' -> 174729,
    '193M (-42%)' -> 1.93e8, '' -> None."""
    s = s.strip().split(" (")[0].replace(",", "").replace("*", "")
    if not s:
        return None
    mult = {"K": 1e3, "k": 1e3, "M": 1e6, "G": 1e9}.get(s[-1])
    if mult:
        s = s[:-1]
    try:
        return float(s) * (mult or 1)
    except ValueError:
        raise TableError("not a number: %r" % s)


def col(header, name):
    for i, h in enumerate(header):
        if h.startswith(name):
            return i
    raise TableError("no column %r in %s" % (name, header))


def finish(fig, ax, path, title, source):
    if ax is None:
        fig.suptitle(title, fontsize=11)
    else:
        ax.set_title(title, fontsize=11)
    fig.text(0.01, 0.005, "qa/bench/RESULTS.md: " + source, fontsize=7, color="gray")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print("wrote", path)


def bar_labels(ax, bars, fmt):
    for b in bars:
        h = b.get_height()
        ax.annotate(fmt(h), (b.get_x() + b.get_width() / 2, h), ha="center",
                    va="bottom", fontsize=8)


def chart_foundation(secs, out):
    """decode+flow packet rate of bench-10x across the foundation sections."""
    runs = {"suricata single (no detect)": "single, eve on",
            "suricata autofp (no detect)": "autofp, eve on",
            "single, no eve (decode+flow)": "single, no eve (decode+flow)"}
    points = []   # (label, {run: pps}, ceiling)
    for h, body in secs.items():
        for block in code_blocks(body):
            if "pcap-ceiling" not in block:
                continue
            header, rows = fixed_table(block, "run")
            pc = col(header, "packets/s")
            vals = {r[0]: num(r[pc]) for r in rows}
            label = h.split(",")[0] + ("\n" + h.split("(")[1].rstrip(")")
                                       if "commit" in h else "")
            points.append((label, vals))
    if len(points) < 2:
        raise TableError("fewer than 2 bench-foundation blocks")
    fig, ax = plt.subplots(figsize=(8, 4.5))
    x = range(len(points))
    for run, name in runs.items():
        ys = [p[1].get(run) for p in points]
        xs = [i for i, y in zip(x, ys) if y is not None]
        ys = [y for y in ys if y is not None]
        ax.plot(xs, [y / 1e3 for y in ys], marker="o", label=name)
        for xi, y in zip(xs, ys):
            ax.annotate("%.0fk" % (y / 1e3), (xi, y / 1e3), textcoords="offset points",
                        xytext=(0, 5), ha="center", fontsize=8)
    ceil = [p[1].get("pcap-ceiling (libpcap loop)") for p in points]
    ax.axhline(0.4 * min(c for c in ceil if c) / 1e3, color="gray", ls="--", lw=1,
               label="target: 40% of the libpcap ceiling")
    ax.set_xticks(list(x))
    ax.set_xticklabels([p[0] for p in points], fontsize=8)
    ax.set_ylabel("packets/s (thousands)")
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=8)
    finish(fig, ax, os.path.join(out, "foundation.png"),
           "bench-10x without detection (bench-foundation.sh, 2 cores)",
           "the bench-foundation.sh blocks")


def chart_detect_400k(secs, out):
    h, body = section(secs, "2026-11-30 04:45")
    header, rows = pipe_tables(body)[0]
    ci, ii = col(header, "commit"), col(header, "instructions")
    labels = [r[ci] for r in rows]
    vals = [num(r[ii]) / 1e9 for r in rows]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    bars = ax.bar(range(len(vals)), vals, color="#4c72b0")
    bar_labels(ax, bars, lambda v: "%.3fG" % v)
    ax.set_xticks(range(len(vals)))
    ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("instructions of the packet phase (G)")
    ax.set_ylim(0, max(vals) * 1.15)
    finish(fig, ax, os.path.join(out, "detect-instructions.png"),
           "ET Open on bench-1x, ac single: instructions by commit (callgrind)", h)


def chart_worker_instr(secs, out):
    h, body = section(secs, "2026-12-01 (later): eve records written")
    header, rows = pipe_tables(body)[0]
    si, ai, hi = col(header, "step"), col(header, "ac"), col(header, "hs")
    labels = [re.sub(r" \(.*", "", r[si]) for r in rows]
    labels = [l if len(l) < 40 else l[:38] + "..." for l in labels]
    ac = [num(r[ai]) for r in rows]
    hs = [num(r[hi]) for r in rows]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    w = 0.38
    for off, vals, name, c in ((-w / 2, ac, "ac", "#4c72b0"), (w / 2, hs, "hs", "#dd8452")):
        xs = [i + off for i, v in enumerate(vals) if v is not None]
        b = ax.bar(xs, [v for v in vals if v is not None], w, label=name, color=c)
        bar_labels(ax, b, lambda v: "{:,.0f}".format(v))
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=15, ha="right", fontsize=7)
    ax.set_ylabel("worker instructions per packet")
    ax.set_ylim(0, max(v for v in ac + hs if v) * 1.15)
    ax.legend(fontsize=8)
    finish(fig, ax, os.path.join(out, "worker-instructions.png"),
           "bench-1x, all ET Open that loads: worker instructions/packet (worker-instr.sh)", h)


def chart_vs_reference(secs, out):
    h, body = section(secs, "2026-12-01 18:53")
    header, rows = pipe_tables(body)[0]
    ei, mi = col(header, "engine"), col(header, "mpm")
    pi, ri = col(header, "packets/s"), col(header, "peak RSS")
    names = ["%s\n%s" % (r[ei].replace("reference ", "Suricata "), r[mi]) for r in rows]
    colors = ["#999999" if r[ei].startswith("reference") else "#4c72b0" for r in rows]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 4.5))
    b = a1.bar(names, [num(r[pi]) / 1e3 for r in rows], color=colors)
    bar_labels(a1, b, lambda v: "%.0fk" % v)
    a1.set_ylabel("packets/s, median of rounds (thousands)")
    a1.set_title("packet rate", fontsize=10)
    b = a2.bar(names, [num(r[ri]) for r in rows], color=colors)
    bar_labels(a2, b, lambda v: "%.0f" % v)
    a2.set_ylabel("peak RSS (MB)")
    a2.set_title("memory", fontsize=10)
    for a in (a1, a2):
        a.tick_params(axis="x", labelsize=8)
    finish(fig, None, os.path.join(out, "vs-reference.png"),
           "bench-10x, ET Open: ours against Suricata 4.1.10 (vs-reference.sh)", h)


def chart_floods(secs, out):
    h, body = section(secs, "2026-12-01 14:50, memory under floods")
    blocks = [b for b in code_blocks(body) if b.split() and b.split()[0] == "flood"]
    if len(blocks) < 2:
        raise TableError("floods: want the before and after blocks")
    before = {}
    for line in blocks[0].splitlines()[1:]:
        p = line.split()
        if len(p) >= 3 and p[2] == "MB":
            before[p[0]] = float(p[1])
    header, rows = fixed_table(blocks[1], "flood")
    pk = col(header, "peakRSS_MB")
    after = {r[0]: num(r[pk]) for r in rows if r[0] in before}
    names = list(before)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    w = 0.38
    b1 = ax.bar([i - w / 2 for i in range(len(names))], [before[n] for n in names], w,
                label="before (c4aed69)", color="#999999")
    b2 = ax.bar([i + w / 2 for i in range(len(names))], [after[n] for n in names], w,
                label="after (3abda17)", color="#4c72b0")
    bar_labels(ax, b1, lambda v: "%.0f" % v)
    bar_labels(ax, b2, lambda v: "%.0f" % v)
    ax.axhline(600, color="gray", ls="--", lw=1, label="target: 600 MB")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names)
    ax.set_ylabel("peak RSS of the run (MB)")
    ax.legend(fontsize=8)
    finish(fig, ax, os.path.join(out, "floods.png"),
           "Memory under floods, ET Open, autofp (floods.sh)", h)


def chart_ac_skip(secs, out):
    h, body = section(secs, "2026-11-30 03:25, ac: 3-byte prefix skip filter")
    header, rows = pipe_tables(body)[0]
    ks = [r[0] for r in rows]
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    w = 0.38
    for j, (off, c) in enumerate(((-w / 2, "#999999"), (w / 2, "#4c72b0"))):
        b = ax.bar([i + off for i in range(len(ks))], [num(r[1 + j]) / 1e6 for r in rows],
                   w, label=header[1 + j], color=c)
        bar_labels(ax, b, lambda v: "%.0fM" % v)
    ax.set_xticks(range(len(ks)))
    ax.set_xticklabels(["%s patterns" % k for k in ks])
    ax.set_ylabel("instructions of the scan (M)")
    ax.legend(fontsize=8)
    finish(fig, ax, os.path.join(out, "ac-skip-filter.png"),
           "ac matcher alone on bench-1x (mpm-bench, cachegrind)", h)


CHARTS = (chart_foundation, chart_detect_400k, chart_worker_instr, chart_vs_reference,
          chart_floods, chart_ac_skip)


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    results = argv[1] if len(argv) > 1 else os.path.join(here, "RESULTS.md")
    out = argv[2] if len(argv) > 2 else os.path.join(here, "charts")
    with open(results, encoding="utf-8") as f:
        secs = sections(f.read())
    os.makedirs(out, exist_ok=True)
    failed = 0
    for chart in CHARTS:
        try:
            chart(secs, out)
        except TableError as e:
            print("plot.py: %s: %s" % (chart.__name__, e), file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
