#!/bin/bash
# tests/ops/charts.sh [BUILDDIR [SRCDIR]]: the benchmark charts.
#   qa/bench/plot.py --all into a scratch folder draws every chart --list
#     names, each from today's tables, and each committed PNG exists;
#   every chart that README.md or doc/*.md shows (a markdown image link into
#     qa/bench/charts/) is one plot.py draws, so that `make charts` redraws
#     what a reader sees;
#   the reload timeline is drawn from the newest reload-timeline.sh block of
#     the file it is given (a block of this test's: its reloads and peak);
#     a file with no such block is an error naming what is missing, not an
#     empty chart.
# SKIPs with one line without matplotlib (install-deps.sh: python3-matplotlib).
srcdir=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
T_NAME=charts
. "$srcdir/tests/lib.sh"
py=/usr/bin/python3
[ -x "$py" ] || py=python3
plot=$srcdir/qa/bench/plot.py
if ! "$py" -c "import matplotlib" 2> /dev/null; then
	echo "SKIP: charts (no matplotlib for $py: ./install-deps.sh)"
	exit 0
fi
tmp=$(mktemp -d /tmp/charts-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

names=$("$py" "$plot" --list | awk '{print $1}')
if "$py" "$plot" --all --out "$tmp/all" > "$tmp/all.out" 2>&1; then
	ok "plot.py --all: exit 0"
else
	bad "plot.py --all: $(grep plot.py "$tmp/all.out" | head -3 | tr '\n' ' ')"
fi
for n in $names; do
	[ -s "$tmp/all/$n" ] && ok "drawn: $n" || bad "not drawn: $n"
	[ -f "$srcdir/qa/bench/charts/$n" ] && ok "committed: $n" ||
		bad "qa/bench/charts/$n is not committed (make charts)"
done

# the charts the documents show
shown=$(cd "$srcdir" && grep -ho '](\(\.\./\)*qa/bench/charts/[a-z0-9-]*\.png)' README.md doc/*.md |
	sed 's|.*charts/||; s|)$||' | sort -u)
[ -n "$shown" ] && ok "README.md and doc/ show $(wc -w <<< "$shown") charts" ||
	bad "no chart shown in README.md or doc/"
for n in $shown; do
	grep -qx "$n" <<< "$names" && ok "shown and drawn by plot.py: $n" ||
		bad "$n is shown in README.md or doc/ but plot.py does not draw it"
done
grep -qx reload-timeline.png <<< "$shown" && ok "the reload timeline is shown" ||
	bad "reload-timeline.png is not shown in README.md or doc/"

# the reload timeline from a file of this test's: two sections, the newest wins
cat > "$tmp/r.md" <<'EOF'
## old run

```
t_s      pkts_s  drops_s alerts_s  rss_MB
1.0        1000        0      0.0   100.0
2.0        1000        0      0.0   150.0
reload 1: usr2 at 1.5 s, done at 2.0 s (0.5 s), 10 rules
```

## new run

```
t_s      pkts_s  drops_s alerts_s  rss_MB
1.0        2000        0      1.0   200.0
2.0        1900       50      0.0   380.5
3.0        2000        0      0.0   210.0
4.0        2000        0      0.0   390.0
5.0        2000        0      0.0   212.0
reload 1: usr2 at 1.2 s, done at 2.9 s (1.7 s), 321 rules
reload 2: usr2 at 3.5 s, done at 4.6 s (1.1 s), 321 rules
engine: test
```
EOF
out=$("$py" "$plot" reload-timeline --results "$tmp/r.md" --out "$tmp/one" 2>&1)
if grep -q '2 reloads of 321 rules, 1.1-1.7 s each; RSS 200 MB, 390 MB during a reload; drops 50/s peak' <<< "$out" &&
	[ -s "$tmp/one/reload-timeline.png" ]; then
	ok "reload timeline: the newest block's 2 reloads, RSS and drops"
else
	bad "reload timeline from a test file: $out"
fi
printf '## nothing\n\nno table here\n' > "$tmp/none.md"
if out=$("$py" "$plot" reload-timeline --results "$tmp/none.md" --out "$tmp/none" 2>&1); then
	bad "a file without a reload block: exit 0"
elif grep -q 'reload-timeline: no section holds a reload-timeline.sh block' <<< "$out" &&
	[ ! -e "$tmp/none/reload-timeline.png" ]; then
	ok "a file without a reload block: exit 1, naming what is missing, no PNG"
else
	bad "a file without a reload block: $out"
fi
finish
