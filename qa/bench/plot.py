#!/usr/bin/python3
"""Charts of the benchmark tables in qa/bench/RESULTS.md and qa/gpu/RESULTS.md.

    qa/bench/plot.py --all [--out DIR]        every chart, from today's tables
    qa/bench/plot.py CHART [--section HEADING] [--results FILE] [--out DIR]
    qa/bench/plot.py --list                   the charts, their files and tables
    make charts                               the same as --all

Reads the tables as they are (markdown pipe tables, and the fixed-column
blocks the bench scripts print), found by the heading of their section, and
writes one PNG a chart under OUTDIR (default qa/bench/charts/). A chart of
the latest figures (ours against the reference, memory under floods, the GPU
path's thread roles, the GPU kernels' cost model) takes the newest section of its file that holds a table
of its shape, so that a new table redraws it (the reload timeline, a
reload-timeline.sh block, too); a chart of one past experiment
takes that experiment's section. --section names another (a heading's start),
--results another file. Each chart prints the figures it drew, to be checked
against its table. Nothing is typed in twice; a section or column that is
missing is an error naming it, not an empty chart. Needs matplotlib
(python3-matplotlib, install-deps.sh).
"""
import os
import re
import sys
import textwrap

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


def pick(secs, heading, parse, what):
    """(heading, parse(body)) of the section whose heading starts with
    `heading`, or, heading None, of the newest section (the last in the file)
    that parse accepts."""
    if heading:
        h, body = section(secs, heading)
        return h, parse(body)
    for h, body in reversed(list(secs.items())):
        try:
            return h, parse(body)
        except TableError:
            continue
    raise TableError("no section holds %s" % what)


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


SOURCE = ["qa/bench/RESULTS.md"]   # the file being drawn, for the charts' footers


def finish(fig, ax, path, title, source):
    if ax is None:
        fig.suptitle(title, fontsize=11)
    else:
        ax.set_title(title, fontsize=11)
    fig.text(0.01, 0.005, "%s: %s" % (SOURCE[0], source), fontsize=7, color="gray")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    print("wrote", path)


def bar_labels(ax, bars, fmt):
    for b in bars:
        h = b.get_height()
        ax.annotate(fmt(h), (b.get_x() + b.get_width() / 2, h), ha="center",
                    va="bottom", fontsize=8)


def chart_foundation(secs, heading, path):
    """decode+flow packet rate of bench-10x across the foundation sections
    (every section holding a bench-foundation.sh block; --section: from
    that one on)."""
    runs = {"suricata single (no detect)": "single, eve on",
            "suricata autofp (no detect)": "autofp, eve on",
            "single, no eve (decode+flow)": "single, no eve (decode+flow)"}
    points = []   # (label, {run: pps}, ceiling)
    started = heading is None
    for h, body in secs.items():
        started = started or h.startswith(heading)
        if not started:
            continue
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
    finish(fig, ax, path, "bench-10x without detection (bench-foundation.sh, 2 cores)",
           "the bench-foundation.sh blocks")
    return "%d runs, %s: single %s packets/s" % (
        len(points), points[-1][0].replace("\n", " "),
        "{:,.0f}".format(points[-1][1].get("suricata single (no detect)") or 0))


def chart_detect_400k(secs, heading, path):
    def parse(body):
        header, rows = pipe_tables(body)[0] if pipe_tables(body) else ([], [])
        return header, rows, col(header, "commit"), col(header, "instructions")

    h, (header, rows, ci, ii) = pick(secs, heading, parse, "a commit/instructions table")
    labels = [r[ci] for r in rows]
    vals = [num(r[ii]) / 1e9 for r in rows]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    bars = ax.bar(range(len(vals)), vals, color="#4c72b0")
    bar_labels(ax, bars, lambda v: "%.3fG" % v)
    ax.set_xticks(range(len(vals)))
    ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("instructions of the packet phase (G)")
    ax.set_ylim(0, max(vals) * 1.15)
    finish(fig, ax, path, "ET Open on bench-1x, ac single: instructions by commit (callgrind)", h)
    return "; ".join("%s %.3fG" % (l, v) for l, v in zip(labels, vals))


def chart_worker_instr(secs, heading, path):
    def parse(body):
        for header, rows in pipe_tables(body):
            try:
                return header, rows, col(header, "step"), col(header, "ac"), col(header, "hs")
            except TableError:
                continue
        raise TableError("no step/ac/hs table")

    h, (header, rows, si, ai, hi) = pick(secs, heading, parse, "a step/ac/hs table")
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
    finish(fig, ax, path,
           "bench-1x, all ET Open that loads: worker instructions/packet (worker-instr.sh)", h)
    return "%d steps, last: ac %s, hs %s" % (len(rows), rows[-1][ai], rows[-1][hi])


def first_num(s):
    """'178 / 360 MB' -> 178, '158-228' -> 158, '' -> None."""
    m = re.search(r"[\d,.]+", s)
    return float(m.group(0).replace(",", "")) if m else None


def vs_reference_table(body):
    """The side-by-side table of a section, either shape vs-reference.sh's
    results have had: one row a run ("reference hs", "ours hs" columns), or
    one row an engine and matcher ("engine", "mpm", "packets/s")."""
    for header, rows in pipe_tables(body):
        if not rows:
            continue
        try:
            return "runs", header, rows, col(header, "reference hs"), col(header, "ours hs")
        except TableError:
            pass
        try:
            return "engines", header, rows, col(header, "engine"), col(header, "packets/s")
        except TableError:
            pass
    raise TableError("no side-by-side table")


def chart_vs_reference(secs, heading, path):
    h, (kind, header, rows, a, b) = pick(secs, heading, vs_reference_table,
                                          "a side-by-side table of vs-reference.sh")
    if kind == "engines":
        return vs_reference_engines(h, header, rows, path)
    ti = col(header, "time")
    bi = col(header, "build")
    try:
        mi = col(header, "peak RSS")
    except TableError:
        mi = None
    names = ["%s\n%s" % (r[ti].split(" (")[0], r[bi].split(" (")[0]) for r in rows]
    ref = [num(r[a]) / 1e3 for r in rows]
    ours = [num(r[b]) / 1e3 for r in rows]
    fig, axes = plt.subplots(1, 2 if mi is not None else 1, figsize=(11, 4.8),
                             gridspec_kw={"width_ratios": [3, 1]} if mi is not None else None)
    a1 = axes[0] if mi is not None else axes
    w = 0.38
    x = range(len(rows))
    b1 = a1.bar([i - w / 2 for i in x], ref, w, color="#999999", label="Suricata 4.1.10, hs")
    b2 = a1.bar([i + w / 2 for i in x], ours, w, color="#4c72b0", label="ours, hs")
    bar_labels(a1, b1, lambda v: "%.0fk" % v)
    for bar, r, o in zip(b2, ref, ours):
        a1.annotate("%.0fk\n%.2fx" % (o, o / r), (bar.get_x() + bar.get_width() / 2, o),
                    ha="center", va="bottom", fontsize=8, fontweight="bold")
    a1.set_xticks(list(x))
    a1.set_xticklabels(names, fontsize=8)
    a1.set_ylabel("packets/s, best round (thousands)")
    a1.set_ylim(0, max(ours + ref) * 1.25)
    a1.legend(fontsize=8, loc="upper left")
    a1.set_title("packet rate, each run of vs-reference.sh", fontsize=10)
    if mi is not None:
        # "ours / reference MB", the last run's
        last = rows[-1][mi].replace("MB", "").split("/")
        mem = [first_num(last[1]), first_num(last[0])]
        b3 = axes[1].bar(["Suricata\n4.1.10", "ours"], mem, color=["#999999", "#4c72b0"])
        bar_labels(axes[1], b3, lambda v: "%.0f" % v)
        axes[1].set_ylabel("peak RSS (MB)")
        axes[1].set_ylim(0, max(mem) * 1.15)
        axes[1].set_title("memory, last run", fontsize=10)
    finish(fig, None, path, "bench-10x, ET Open: ours against Suricata 4.1.10 (vs-reference.sh)", h)
    ratios = [o / r for r, o in zip(ref, ours)]
    return "%d runs, ours/reference %.2fx to %.2fx (%s)" % (
        len(rows), min(ratios), max(ratios),
        ", ".join("%s %.0fk/%.0fk" % (n.replace("\n", " "), o, r)
                  for n, r, o in zip(names, ref, ours)))


def vs_reference_engines(h, header, rows, path):
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
    finish(fig, None, path, "bench-10x, ET Open: ours against Suricata 4.1.10 (vs-reference.sh)", h)
    return "; ".join("%s %s" % (n.replace("\n", " "), r[pi]) for n, r in zip(names, rows))


def flood_blocks(body):
    """[(label, {flood: peak RSS MB})] of a section's flood blocks, each
    labelled by the paragraph before it ("Before (c407321, main):")."""
    out = []
    parts = re.split(r"```\n(.*?)```", body, flags=re.S)
    for i in range(1, len(parts), 2):
        block = parts[i]
        if not re.search(r"^flood\b", block, re.M):
            continue
        peaks = {}
        try:
            header, rows = fixed_table(block, "flood")
            pk = col(header, "peakRSS_MB")
            peaks = {r[0]: num(r[pk]) for r in rows}
        except TableError:
            # the first script's form: "syn      394.3 MB ..."
            for line in block.splitlines()[1:]:
                p = line.split()
                if len(p) >= 3 and p[2] == "MB":
                    peaks[p[0]] = float(p[1])
        if not peaks:
            continue
        para = [l for l in parts[i - 1].strip().split("\n\n")[-1].splitlines() if l.strip()]
        m = re.match(r"(\w[\w ]*?)\s*\(([0-9a-f]{7,})", para[0]) if para else None
        out.append((("%s (%s)" % (m.group(1), m.group(2))) if m else None, peaks))
    if not out:
        raise TableError("no flood block")
    return out


def chart_floods(secs, heading, path):
    h, blocks = pick(secs, heading, flood_blocks, "a floods.sh block")
    body = dict(secs)[h]
    commit = re.search(r"commit ([0-9a-f]{7,})", h)
    names = list(blocks[-1][1])
    fig, ax = plt.subplots(figsize=(7, 4.5))
    w = 0.8 / len(blocks)
    palette = ["#999999", "#4c72b0", "#dd8452", "#55a868"]
    for j, (label, peaks) in enumerate(blocks):
        if label is None:
            label = commit.group(1) if commit and j == len(blocks) - 1 else "run %d" % (j + 1)
        xs = [i - 0.4 + w * (j + 0.5) for i in range(len(names))]
        b = ax.bar(xs, [peaks.get(n, 0) for n in names], w, label=label,
                   color=palette[j % len(palette)] if len(blocks) > 1 else "#4c72b0")
        bar_labels(ax, b, lambda v: "%.0f" % v)
    target = re.search(r"<=\s*(\d+)\s*MB", body)
    if target:
        ax.axhline(int(target.group(1)), color="gray", ls="--", lw=1,
                   label="target: %s MB" % target.group(1))
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names)
    ax.set_ylabel("peak RSS of the run (MB)")
    ax.legend(fontsize=8)
    finish(fig, ax, path, "Memory under floods, ET Open, autofp (floods.sh)", h)
    return "; ".join("%s: %s" % (l or "run", ", ".join("%s %.0f MB" % kv for kv in p.items()))
                     for l, p in blocks)


def chart_ac_skip(secs, heading, path):
    def parse(body):
        t = pipe_tables(body)
        if not t or len(t[0][0]) < 3:
            raise TableError("no patterns/before/after table")
        return t[0]

    h, (header, rows) = pick(secs, heading, parse, "an ac skip-filter table")
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
    finish(fig, ax, path, "ac matcher alone on bench-1x (mpm-bench, cachegrind)", h)
    return "; ".join("%s: %s -> %s" % (r[0], r[1], r[2]) for r in rows)


def gpu_roles_table(body):
    """qa/gpu's "instructions per packet by thread role" table: a "role"
    column, one row a thread role, one column a build and matcher."""
    for header, rows in pipe_tables(body):
        if header and header[0] == "role" and any(r[0].startswith("RX") for r in rows):
            return header, rows
    raise TableError("no role table")


def chart_gpu_roles(secs, heading, path):
    h, (header, rows) = pick(secs, heading, gpu_roles_table, "a thread-role table")
    # the roles, not the bold totals and ratios below them, nor the emulated
    # device (a CPU standing in for the GPU: not host work)
    roles = [r for r in rows if not r[0].startswith("**") and not r[0].startswith("ratio")
             and "EMU" not in r[0]]
    cols = header[1:]
    fig, ax = plt.subplots(figsize=(8, 4.8))
    bottom = [0.0] * len(cols)
    palette = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b2", "#937860"]
    for k, r in enumerate(roles):
        vals = []
        for c in range(len(cols)):
            try:
                vals.append(num(r[1 + c]) or 0.0)
            except TableError:     # "-": the role has no thread in that build
                vals.append(0.0)
        ax.bar(range(len(cols)), vals, 0.6, bottom=bottom, label=r[0].split(" (")[0],
               color=palette[k % len(palette)])
        bottom = [b + v for b, v in zip(bottom, vals)]
    # the table's own total where it has one (its sum, rounded per role,
    # may be one off)
    total = [r for r in rows if r[0].strip("*") == "host"]
    shown = [num(v.strip("*")) for v in total[0][1:]] if total else bottom
    for i, (t, v) in enumerate(zip(bottom, shown)):
        ax.annotate("{:,.0f}".format(v), (i, t), ha="center", va="bottom", fontsize=8,
                    fontweight="bold")
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels(cols, fontsize=8)
    ax.set_ylabel("host instructions per packet")
    ax.set_ylim(0, max(bottom) * 1.35)
    ax.legend(fontsize=7, loc="upper center", ncol=len(roles))
    finish(fig, ax, path, "ac-cuda (host emulation) and the CPU matchers: host work by thread "
           "role", h)
    return "; ".join("%s %s" % (c, "{:,.0f}".format(v)) for c, v in zip(cols, shown))


def reload_timeline_block(body):
    """reload-timeline.sh's block: ([(t, pkts/s, drops/s, alerts/s, rss MB)],
    [(n, usr2 t, done t, rules)], its "engine:" line)."""
    for block in code_blocks(body):
        lines = block.splitlines()
        if not lines or lines[0].split()[:2] != ["t_s", "pkts_s"]:
            continue
        header = lines[0].split()
        rows, reloads, engine = [], [], ""
        for line in lines[1:]:
            m = re.match(r"reload (\d+): usr2 at ([\d.]+) s, done at ([\d.]+) s .*?(\d+) rules",
                         line)
            if m:
                reloads.append((int(m.group(1)), float(m.group(2)), float(m.group(3)),
                                int(m.group(4))))
            elif line.startswith("engine:"):
                engine = line[len("engine:"):].strip()
            elif len(line.split()) == len(header):
                rows.append([num(v) if v != "nan" else None for v in line.split()])
        if not rows or not reloads:
            raise TableError("a t_s block without rows or reload lines")
        cols = [col(header, n) for n in ("t_s", "pkts_s", "drops_s", "alerts_s", "rss_MB")]
        return [tuple(r[c] for c in cols) for r in rows], reloads, engine
    raise TableError("no reload-timeline.sh block (a 't_s pkts_s' header)")


def chart_reload_timeline(secs, heading, path):
    h, (rows, reloads, engine) = pick(secs, heading, reload_timeline_block,
                                      "a reload-timeline.sh block")
    t = [r[0] for r in rows]
    fig, (top, bot) = plt.subplots(2, 1, figsize=(8, 5.2), sharex=True,
                                   gridspec_kw={"height_ratios": [1, 1]})
    top.plot(t, [r[1] for r in rows], color="#4c72b0", lw=1.2, label="packets/s taken")
    top.plot(t, [r[2] for r in rows], color="#c44e52", lw=1.2, label="packets/s dropped")
    top.set_ylabel("packets/s")
    top.set_ylim(0, max(r[1] for r in rows) * 1.25)
    bot.plot(t, [r[4] for r in rows], color="#55a868", lw=1.4, label="resident memory")
    bot.set_ylabel("RSS (MB)")
    bot.set_ylim(0, max(r[4] for r in rows if r[4] is not None) * 1.2)
    bot.set_xlabel("seconds")
    for i, (n, a, b, _) in enumerate(reloads):
        for ax in (top, bot):
            ax.axvspan(a, b, color="#dd8452", alpha=0.18, lw=0,
                       label="reload (USR2 to done)" if i == 0 else None)
        top.annotate("%.0f s" % (b - a), ((a + b) / 2, top.get_ylim()[1] * 0.9), ha="center",
                     fontsize=8)
    top.legend(fontsize=7, loc="lower right", ncol=3)
    bot.legend(fontsize=7, loc="lower right", ncol=2)
    drops = sum(r[2] for r in rows if r[2])
    peak = max(r[4] for r in rows if r[4] is not None)
    base = min(r[4] for r in rows if r[4] is not None)
    title = "rule reloads under traffic, %d rules: %s dropped" % (
        reloads[0][3], "no packet" if drops == 0 else "%.0f packets/s at most" %
        max(r[2] for r in rows))
    if engine:
        title += "\n" + engine
    finish(fig, top, path, title, h)
    return "%d reloads of %d rules, %.1f-%.1f s each; RSS %.0f MB, %.0f MB during a reload; " \
        "drops %s" % (len(reloads), reloads[0][3], min(b - a for _, a, b, _ in reloads),
                      max(b - a for _, a, b, _ in reloads), base, peak,
                      "none" if drops == 0 else "%.0f/s peak" % max(r[2] for r in rows))


def gpu_variants_table(body):
    """qa/gpu's kernel table: a "variant" column and "predicted Gbit/s"."""
    for header, rows in pipe_tables(body):
        if header and header[0] == "variant":
            try:
                return header, rows, col(header, "predicted Gbit/s")
            except TableError:
                continue
    raise TableError("no variant/predicted Gbit/s table")


def gpu_batches_table(body):
    """qa/gpu's engine-like batches: "batch", "kernel Gbit/s", "device Gbit/s"."""
    for header, rows in pipe_tables(body):
        if header and header[0] == "batch":
            try:
                return header, rows, col(header, "kernel Gbit/s"), col(header, "device Gbit/s")
            except TableError:
                continue
    raise TableError("no batch/kernel Gbit/s/device Gbit/s table")


def chart_gpu_kernel_model(secs, heading, path):
    """The ac-cuda kernels on the H200 as the cost model predicts them (no
    device has run them yet): each kernel variant on one large batch against
    the 400 Gbit/s target, and the filter kernel on engine-like batches."""
    hv, (vh, vrows, pi) = pick(secs, heading, gpu_variants_table, "a variant table")
    hb, (bh, brows, ki, di) = pick(secs, heading, gpu_batches_table, "a batch table")
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.6),
                                      gridspec_kw={"width_ratios": [1, 1.25]})
    names = [r[0].strip("*") for r in vrows]
    vals = [num(r[pi]) for r in vrows]
    bars = left.barh(range(len(vals)), vals, color=["#55a868" if v >= 400 else "#c44e52"
                                                    for v in vals])
    for b, v in zip(bars, vals):
        left.annotate("%.0f" % v, (v, b.get_y() + b.get_height() / 2), xytext=(3, 0),
                      textcoords="offset points", va="center", fontsize=8)
    left.axvline(400, color="gray", ls="--", lw=1, label="target: 400 Gbit/s")
    left.set_yticks(range(len(names)))
    left.set_yticklabels(names, fontsize=8)
    left.invert_yaxis()
    left.set_xlim(0, max(vals) * 1.2)
    left.set_xlabel("predicted Gbit/s, one large batch")
    left.legend(fontsize=7, loc="lower right")
    left.set_title("kernel variants", fontsize=9)
    labels = [textwrap.fill(r[0].replace(" payloads", "").replace("one worker's window",
                                                                   "1 window"), 13)
              for r in brows]
    kern = [num(r[ki]) for r in brows]
    dev = [num(r[di]) for r in brows]
    w = 0.38
    x = range(len(brows))
    b1 = right.bar([i - w / 2 for i in x], kern, w, label="kernel", color="#4c72b0")
    b2 = right.bar([i + w / 2 for i in x], dev, w, label="with launch and PCIe (assumed)",
                   color="#dd8452")
    bar_labels(right, b1, lambda v: "%.0f" % v)
    bar_labels(right, b2, lambda v: "%.0f" % v)
    right.set_xticks(list(x))
    right.set_xticklabels(labels, fontsize=7)
    right.set_ylabel("predicted Gbit/s")
    right.set_ylim(0, max(kern + dev) * 1.2)
    right.legend(fontsize=7, loc="upper left")
    right.set_title("filter kernel, engine-like batches of bench-1x", fontsize=9)
    finish(fig, None, path, "ac-cuda on the H200 as the cost model predicts it "
           "(not yet run on a device)", hv if hv == hb else "%s; %s" % (hv, hb))
    best = max(zip(vals, names))
    return "%d variants, best %s %.0f Gbit/s; batches: kernel %s, device %s Gbit/s" % (
        len(vals), best[1], best[0], "/".join("%.0f" % v for v in kern),
        "/".join("%.0f" % v for v in dev))


HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "RESULTS.md")
GPU = os.path.join(HERE, "..", "gpu", "RESULTS.md")
NEWEST = None

# name (the PNG's), function, the file it reads, the section it draws by
# default: NEWEST (the newest section holding such a table: today's figures)
# or the heading of one experiment
CHARTS = (
    ("foundation", chart_foundation, BENCH, NEWEST),
    ("detect-instructions", chart_detect_400k, BENCH, "2026-11-30 04:45"),
    ("worker-instructions", chart_worker_instr, BENCH, "2026-12-01 (later): eve records written"),
    ("vs-reference", chart_vs_reference, BENCH, NEWEST),
    ("floods", chart_floods, BENCH, NEWEST),
    ("ac-skip-filter", chart_ac_skip, BENCH, "2026-11-30 03:25, ac: 3-byte prefix skip filter"),
    ("gpu-thread-roles", chart_gpu_roles, GPU, NEWEST),
    ("gpu-kernel-model", chart_gpu_kernel_model, GPU, NEWEST),
    ("reload-timeline", chart_reload_timeline, BENCH, NEWEST),
)


def draw(name, func, results, heading, out):
    with open(results, encoding="utf-8") as f:
        secs = sections(f.read())
    SOURCE[0] = os.path.relpath(os.path.abspath(results), os.path.join(HERE, "..", ".."))
    path = os.path.join(out, name + ".png")
    said = func(secs, heading, path)
    print("  %s: %s" % (name, said))


def main(argv):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("chart", nargs="*", help="chart names (--list)")
    ap.add_argument("--all", action="store_true", help="every chart")
    ap.add_argument("--list", action="store_true", help="the charts and what they draw")
    ap.add_argument("--section", help="the heading (its start) of the section to draw")
    ap.add_argument("--results", help="the results file (default: the chart's own)")
    ap.add_argument("--out", default=os.path.join(HERE, "charts"), help="folder of the PNGs")
    a = ap.parse_args(argv[1:])
    names = [c[0] for c in CHARTS]
    if a.list:
        for name, _, results, heading in CHARTS:
            print("%-20s %s, %s" % (name + ".png", os.path.relpath(results, os.getcwd()),
                                    "section '%s'" % heading if heading else "newest table"))
        return 0
    want = names if a.all else a.chart
    if not want:
        ap.error("name a chart (--list) or --all")
    bad = [n for n in want if n not in names]
    if bad:
        ap.error("no chart %s (--list)" % ", ".join(bad))
    if a.all and (a.section or a.results):
        ap.error("--section and --results name one chart's table, not --all's")
    os.makedirs(a.out, exist_ok=True)
    failed = 0
    for name, func, results, heading in CHARTS:
        if name not in want:
            continue
        try:
            draw(name, func, a.results or results, a.section or heading, a.out)
        except (TableError, OSError) as e:
            print("plot.py: %s: %s" % (name, e), file=sys.stderr)
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
