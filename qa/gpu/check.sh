#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# qa/gpu/check.sh - the ac-cuda device check: prepared here, one run on the H200.
#
# Ask the device tool for the H200 (kind: nvidia-h200): the check's figures
# are recorded against it, and the perf step's 14-worker rows need its 16
# cores. Limits it keeps: ONE call of at most 10 minutes (timeout_s 420),
# step timeouts summing to under 6 minutes (BUDGET_MAX), 64 MiB carried
# (tree + .gpucarry, checked by prepare), at most 8 files back under $OUT
# (it writes 2).
#
#   qa/gpu/check.sh prepare     HERE (the build machine): builds the engine,
#                               qa/gpu/kbench and qa/gpu/ceilings for sm_90 in
#                               a clean copy (_build-gpu/), and fills ONE carry
#                               directory, .gpucarry/: the binaries, their
#                               runtime libraries (bin/ wrappers set
#                               LD_LIBRARY_PATH to lib/ for our programs only),
#                               the ET Open rules (.tar.xz), bench-1x.pcap (.xz)
#                               and a small capture (.xz). Prints the carry size
#                               and fails when carry + working tree reach 64 MiB.
#   qa/gpu/check.sh             THERE (the device machine; no build step): runs
#                               the steps from .gpucarry/ and the tree's scripts.
#   GPU_DRY=1 qa/gpu/check.sh   HERE, no GPU: prepares .gpucarry-dry/ from the
#                               tree's own build (./configure --enable-cuda;
#                               make) with a 20000-packet capture (perf: 2
#                               copies, 4 rows, 1 repetition), then runs every
#                               step on the host EMULATION. About 1 minute on
#                               2 cores. CI runs it (.ci/run).
#
# On the device, with the device tool (one call, then give_back):
#   run  command: "bash qa/gpu/check.sh"   carry: [".gpucarry"]   timeout_s: 420
#        kind: nvidia-h200
# qa/gpu/README.md says what each line of the table means, and the limits.
#
# Steps (each its own process and timeout; none needs another's output; the
# sum of the timeouts is printed first and stays under 6 minutes):
#   setup      unpack the inputs into $GPU_WORK (/tmp/gpucheck), write the
#              yaml, make bench-x10 from bench-1x (qa/gpu/replicate-pcap.py:
#              10 copies 2 h apart, each copy's addresses moved, checksums
#              kept), prove the carried binaries start (libraries resolve)
#   info       nvidia-smi; suricata --list-cuda-cards (dry: must say "no CUDA
#              driver or device", exit 1)
#   ceilings   qa/gpu/ceilings.cu: pinned H2D/D2H GB/s, 64 KB .. 64 MB (dry: SKIP)
#   kbench     qa/gpu/kbench.c: the ENGINE's kernels (every enum acc_kernel
#              variant) on the ET union automata, 1/16/50 MB batches (dry: 1/4 MB,
#              emulation), records checked against ac_search; then the
#              filter kernel with the verify kernel (rule programs), its
#              passes checked against the emulation's on the first size
#   equal      qa/gpu/accuda-equal.sh: alerts of ac vs ac-cuda (default, tiny,
#              payload kernel, no verify) on bench-1x with ET Open
#   perf       qa/gpu/perf-matrix.py on bench-x10, autofp (threading.detect-
#              thread-ratio = workers / cores): hs, ac, ac-cuda at 2 and 14
#              workers at their default pool (3 repetitions, medians) and at a
#              common pool of 8192 (once); hs at 1, 4, 8 workers (once). Per
#              row: pkt/s from the engine's "packets processed" line, CPU us
#              per packet by thread role (qa/bench/thread-cpu.py: RX, W,
#              ACC-DISP, ACC-DONE, ACC-EMU, main; host = all but main and
#              ACC-EMU), peak RSS, alerts; mpm.cuda counters. FAIL: unequal
#              alerts, an error, overflow or watchdog batch, a device run with
#              mpm.cuda.emulation = 1 (or a dry run with 0). Runs that do not
#              fit the step's time are left out, rows that are not key first
#   sanitizer  compute-sanitizer --tool memcheck on the engine over a small
#              capture (SKIP in dry runs, or when compute-sanitizer is absent)
#   racecheck  compute-sanitizer --tool racecheck on kbench, 256 KB batches
#              (the kernels' shared memory; SKIP as sanitizer)
#
# Output: logs of every step in ONE $OUT/logs.tar.gz, the table in
# $OUT/summary.txt (2 files; the device tool returns at most 8), the table
# printed LAST. Exit 1 when a step FAILs (SKIP is not a failure).
#
# Env: GPU_DRY=1; GPU_CARRY (default .gpucarry, dry .gpucarry-dry); GPU_WORK
#      (default /tmp/gpucheck; dry a fresh mktemp dir); OUT (default
#      $GPU_WORK/out); GPU_CHECK_STEPS (a subset, in order); GPU_CHECK_BREAK=STEP
#      (that step's command is replaced by one that fails: the self-test);
#      GPU_BENCH_COPIES (perf's copies of bench-1x: 10, dry 2); GPU_PERF_ROWS
#      (perf-matrix.py --rows);
#      prepare: GPU_BUILD (default _build-gpu; dry: the tree itself),
#      BENCH_PCAP (default: built by ../shared/tools/make-bench-pcap.sh),
#      RULES_DIR (default ../shared/data/rules/et-open-4.0), SURICATA_SHARED.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
self=$top/qa/gpu/check.sh
cd "$top"
DRY=${GPU_DRY:-0}
[ "$DRY" = 1 ] || DRY=0
if [ $DRY = 1 ]; then C=${GPU_CARRY:-$top/.gpucarry-dry}; else C=${GPU_CARRY:-$top/.gpucarry}; fi
SHARED=${SURICATA_SHARED:-$top/../shared}
ALL_STEPS="setup info ceilings kbench equal perf sanitizer racecheck"
# Seconds per step; the sum stays under BUDGET_MAX (qa/gpu/README.md, "Time
# budget", says how perf's share was estimated).
declare -A LIMIT=([setup]=30 [info]=10 [ceilings]=25 [kbench]=40 [equal]=45 [perf]=145
		  [sanitizer]=35 [racecheck]=20)
BUDGET_MAX=360
LIMIT_BYTES=$((64 * 1024 * 1024))
# perf: copies of bench-1x in the capture (replicate-pcap.py), repetitions
# of the key rows, and the rows: algo:workers[:pool], "*" = key row.
# hs, ac and ac-cuda at their own default pools (1024) and at one equal
# larger pool (8192), autofp with 2 and 14 workers; hs alone at 1, 4, 8
# (how the CPU path scales on the 16 cores); ac-cuda without its rule
# programs (ac-cuda-nv: the verify kernel's cost in kern_us), last.
if [ $DRY = 1 ]; then
	COPIES=${GPU_BENCH_COPIES:-2}
	PERF_REPS=1
	PERF_ROWS="hs:2*,ac:2*,ac-cuda:2*,ac-cuda:2:8192,ac-cuda-nv:2"
else
	COPIES=${GPU_BENCH_COPIES:-10}
	PERF_REPS=3
	PERF_ROWS="hs:2*,ac:2*,ac-cuda:2*,hs:14*,ac:14*,ac-cuda:14*"
	PERF_ROWS="$PERF_ROWS,hs:2:8192,ac:2:8192,ac-cuda:2:8192,hs:14:8192,ac:14:8192,ac-cuda:14:8192"
	PERF_ROWS="$PERF_ROWS,hs:1,hs:4,hs:8,ac-cuda-nv:2,ac-cuda-nv:14"
fi
PERF_ROWS=${GPU_PERF_ROWS:-$PERF_ROWS}

mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }

# ---------------------------------------------------------------- prepare

# Bytes that travel besides the carry: tracked and untracked-not-ignored files.
tree_bytes() {
	git -C "$top" ls-files -co --exclude-standard -z 2>/dev/null |
		(cd "$top" && xargs -0 -r stat -c %s 2>/dev/null) | awk '{ s += $1 } END { print s + 0 }'
}

# Copies the runtime libraries of the given programs into $C/lib, except the
# base system every image has (libc, libm, the loader, libgcc_s, libstdc++):
# a second libc next to the image's loader breaks programs.
bundle_libs() {
	local base='^(linux-vdso|linux-gate|ld-linux|libc\.so|libm\.so|libpthread\.so|libdl\.so|librt\.so|libresolv\.so|libutil\.so|libgcc_s\.so|libstdc\+\+\.so)'
	local f
	for f in "$@"; do ldd "$f"; done | awk '/=> \// { print $1, $3 }' | sort -u |
	while read -r name path; do
		echo "$name" | grep -Eq "$base" && continue
		cp -L "$path" "$C/lib/$name" || return 1
	done
	if ldd "$@" 2>/dev/null | grep -q "not found"; then
		echo "prepare: unresolved libraries:"; ldd "$@" | grep "not found"; return 1
	fi
}

wrapper() {   # bin/NAME runs libexec/NAME with lib/ first on the library path
	cat > "$C/bin/$1" <<'EOF'
#!/bin/sh
d=$(cd "$(dirname "$0")/.." && pwd)
LD_LIBRARY_PATH="$d/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" exec "$d/libexec/$(basename "$0")" "$@"
EOF
	chmod +x "$C/bin/$1"
}

# The first N packets of a classic pcap.
pcap_head() {   # in out n
	python3 - "$1" "$2" "$3" <<'PY'
import struct, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(src, 'rb') as f, open(dst, 'wb') as o:
    hdr = f.read(24)
    e = '<' if struct.unpack('<I', hdr[:4])[0] in (0xa1b2c3d4, 0xa1b23c4d) else '>'
    o.write(hdr)
    for _ in range(n):
        rh = f.read(16)
        if len(rh) < 16:
            break
        o.write(rh + f.read(struct.unpack(e + 'IIII', rh)[2]))
PY
}

prepare() {
	local B src rules pcap xzl tmp
	rules=${RULES_DIR:-$SHARED/data/rules/et-open-4.0}
	[ -f "$rules/classification.config" ] && ls "$rules"/emerging-*.rules > /dev/null 2>&1 ||
		{ echo "prepare: FAIL: no ET Open rules in $rules (set RULES_DIR)"; return 1; }
	tmp=$(mktemp -d /tmp/gpucheck-prep.XXXXXX)
	if [ $DRY = 1 ]; then
		# the tree's own --enable-cuda build (CI: its plain build), no nvcc run here
		B=${GPU_BUILD:-$top}
		xzl=-1
	else
		B=${GPU_BUILD:-$top/_build-gpu}
		xzl=-9
		echo "prepare: building in $B (--enable-cuda, sm_90)"
		mkdir -p "$B"
		(cd "$top" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -xf - -C "$B" &&
		(cd "$B" && { [ -f Makefile ] || { ./autogen.sh && ./configure --enable-cuda \
			NVCC_GENCODE="-gencode arch=compute_90,code=sm_90"; }; } &&
			make -j"$(nproc)" && make -C qa/gpu ceilings B="$B/qa/gpu/bin") > "$tmp/build.log" 2>&1
		if [ $? != 0 ]; then
			tail -30 "$tmp/build.log"; echo "prepare: FAIL: build (log: $tmp/build.log)"; return 1
		fi
	fi
	for f in src/suricata qa/gpu/kbench; do
		[ -x "$B/$f" ] || { echo "prepare: FAIL: $B/$f missing: build with ./configure --enable-cuda; make"; return 1; }
	done
	"$B/src/suricata" --build-info 2>/dev/null | grep -q "CUDA support: *yes" ||
		{ echo "prepare: FAIL: $B/src/suricata has no CUDA support (./configure --enable-cuda)"; return 1; }

	rm -rf "$C"
	mkdir -p "$C/bin" "$C/libexec" "$C/lib" "$C/in"
	cp "$B/src/suricata" "$B/qa/gpu/kbench" "$C/libexec/"
	[ -x "$B/qa/gpu/bin/ceilings" ] && cp "$B/qa/gpu/bin/ceilings" "$C/libexec/"
	strip --strip-unneeded "$C"/libexec/* 2>/dev/null
	bundle_libs "$C"/libexec/* || { echo "prepare: FAIL: libraries"; return 1; }
	for f in "$C"/libexec/*; do wrapper "$(basename "$f")"; done

	tar -C "$(dirname "$rules")" -cJf "$C/in/et-open.tar.xz" \
		$(cd "$(dirname "$rules")" && ls "$(basename "$rules")"/emerging-*.rules \
			"$(basename "$rules")"/classification.config) || return 1
	pcap=${BENCH_PCAP:-}
	if [ -z "$pcap" ] && [ -f /work/bench/bench-1x.pcap ]; then pcap=/work/bench/bench-1x.pcap; fi
	if [ -z "$pcap" ]; then
		"$SHARED/tools/make-bench-pcap.sh" "$tmp/bench" 1 > "$tmp/bench.log" 2>&1 ||
			{ cat "$tmp/bench.log"; echo "prepare: FAIL: bench pcap (set BENCH_PCAP)"; return 1; }
		pcap=$tmp/bench/bench-1x.pcap
	fi
	if [ $DRY = 1 ]; then
		pcap_head "$pcap" "$tmp/bench.pcap" 20000 && pcap=$tmp/bench.pcap
	fi
	xz -T0 $xzl -c "$pcap" > "$C/in/bench.pcap.xz" || return 1
	pcap_head "$pcap" "$tmp/small.pcap" 2000 && xz $xzl -c "$tmp/small.pcap" > "$C/in/small.pcap.xz" || return 1
	{
		echo "built: $(date -u +%FT%TZ) from $(git -C "$top" rev-parse --short HEAD 2>/dev/null)$(git -C "$top" diff --quiet 2>/dev/null || echo '+changes') in $B"
		echo "bench: $pcap ($(stat -c %s "$pcap") bytes)"
		echo "needs: $(for f in "$C"/libexec/* "$C"/lib/*; do objdump -T "$f" 2>/dev/null; done |
			grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1) or newer on the device"
		(cd "$C" && find . -type f ! -name MANIFEST | sort | xargs sha256sum)
	} > "$C/MANIFEST"
	rm -rf "$tmp"

	local cb tb
	cb=$(du -sb "$C" | awk '{ print $1 }')
	tb=$(tree_bytes)
	echo "prepare: carry $C: $cb bytes ($(mib "$cb")): $(ls "$C/libexec" | tr '\n' ' ')+ $(ls "$C/lib" | wc -l) libraries; inputs:"
	(cd "$C" && du -b bin libexec lib in/* | sed 's/^/  /')
	echo "prepare: carry + working tree ($(mib "$tb")) = $(mib $((cb + tb))) of 64 MiB"
	if [ $((cb + tb)) -ge $LIMIT_BYTES ]; then
		echo "prepare: FAIL: more than the device tool carries (64 MiB)"; return 1
	fi
	echo "prepare: ok. On the device: run command \"bash qa/gpu/check.sh\", carry [\"$(basename "$C")\"], timeout_s 420; then give_back"
}

# ---------------------------------------------------------------- the steps
# Each writes its log to stdout, its result to $L/STEP.res ("PASS|FAIL|SKIP
# text") and its table rows to $L/STEP.tab.

res() { echo "$*" > "$L/$STEP.res"; echo "$STEP: $*"; }

xz_cat() {   # xz may be missing on the device image: python's lzma then
	if command -v xz > /dev/null; then xz -dc "$1"
	else python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$1"; fi
}

# Inputs, unpacked once into $W; every step calls it, so none depends on
# setup having run.
need() {
	[ -f "$W/ready" ] && return 0
	# the copy on the device may not keep file modes
	chmod -f +x "$C"/bin/* "$C"/libexec/* 2>/dev/null
	mkdir -p "$W/rules" || return 1
	xz_cat "$C/in/et-open.tar.xz" | tar -xf - -C "$W/rules" || return 1
	cat "$W"/rules/*/emerging-*.rules > "$W/et.rules" || return 1
	xz_cat "$C/in/bench.pcap.xz" > "$W/bench.pcap" || return 1
	xz_cat "$C/in/small.pcap.xz" > "$W/small.pcap" || return 1
	# the in-tree yaml's paths, for this tree (Makefile.am's rule)
	sed -e "s|[@]e_sysconfdir[@]|$top/etc/|g" -e "s|[@]e_rulesdir[@]|$top/rules|g" \
		-e 's|[@]e_logdir[@]|./|g' "$top/suricata.yaml.in" > "$W/suricata.yaml" || return 1
	touch "$W/ready"
}

# bench-Nx for perf, made here from bench-1x (no mergecap on the device):
# replicate-pcap.py, as make-bench-pcap.sh's bench-Nx but with each copy's
# addresses moved so that its flows are new flows.
need_big() {
	[ -f "$W/bench-x$COPIES.pcap" ] && return 0
	need || return 1
	python3 "$top/qa/gpu/replicate-pcap.py" "$W/bench.pcap" "$W/bench-x$COPIES.tmp" "$COPIES" &&
		mv "$W/bench-x$COPIES.tmp" "$W/bench-x$COPIES.pcap"
}

gpu_args() {
	if [ $DRY = 1 ]; then echo "--set mpm-algo=ac-cuda --set cuda.mpm.emulation=yes"
	else echo "--set mpm-algo=ac-cuda"; fi
}

step_setup() {
	rm -f "$W/ready"
	local t0=$(date +%s.%N)
	need || { res FAIL "cannot unpack the inputs from $C/in"; return 1; }
	need_big || { res FAIL "cannot make bench-x$COPIES.pcap"; return 1; }
	echo "unpacked and replicated in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s:"
	ls -l "$W"
	cat "$C/MANIFEST"
	(cd "$C" && grep -E '^[0-9a-f]{64} ' MANIFEST | sha256sum -c --quiet) ||
		{ res FAIL "carry does not match its MANIFEST"; return 1; }
	ldd --version 2>&1 | head -1
	local miss=""
	for f in "$C"/libexec/*; do
		LD_LIBRARY_PATH=$C/lib ldd "$f" | grep -q "not found" && miss="$miss $(basename "$f")"
		LD_LIBRARY_PATH=$C/lib ldd "$f" | grep "not found"
	done
	[ -z "$miss" ] || { res FAIL "libraries not found for:$miss"; return 1; }
	local bi
	bi=$("$C/bin/suricata" --build-info 2>&1) || { echo "$bi"; res FAIL "suricata --build-info: exit $?"; return 1; }
	echo "$bi"
	echo "$bi" | grep -q "CUDA support: *yes" || { res FAIL "carried suricata has no CUDA support"; return 1; }
	res PASS "inputs unpacked, bench-x$COPIES made, $(ls "$C/lib" | wc -l) carried libraries resolve, $(grep -c '^alert\|^drop' "$W/et.rules") rules"
}

step_info() {
	need || { res FAIL "inputs"; return 1; }
	nproc; grep -m1 'model name' /proc/cpuinfo; uname -a
	if command -v nvidia-smi > /dev/null; then
		nvidia-smi
		nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current,clocks.sm,memory.total --format=csv
	else
		echo "no nvidia-smi"
	fi
	local out rc
	out=$("$C/bin/suricata" --list-cuda-cards 2>&1); rc=$?
	echo "$out"
	if [ $DRY = 1 ]; then
		if [ $rc = 1 ] && echo "$out" | grep -q "no CUDA driver or device"; then
			res PASS "no GPU here: --list-cuda-cards says so, exit 1"
		elif [ $rc = 0 ]; then
			res PASS "a GPU is visible: $(echo "$out" | head -1)"
		else
			res FAIL "--list-cuda-cards: exit $rc"; return 1
		fi
	else
		[ $rc = 0 ] || { res FAIL "--list-cuda-cards: exit $rc: $(echo "$out" | tail -1)"; return 1; }
		res PASS "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1); $(nproc) cores"
	fi
}

step_ceilings() {
	if [ $DRY = 1 ]; then res SKIP "dry run: copy ceilings need a GPU"; return 0; fi
	[ -x "$C/libexec/ceilings" ] || { res FAIL "no ceilings binary in the carry (prepare needs nvcc)"; return 1; }
	"$C/bin/ceilings" > "$L/ceilings.txt" 2>&1; local rc=$?
	cat "$L/ceilings.txt"
	grep '^CEIL copy' "$L/ceilings.txt" | sed 's/[a-z_0-9]*=//g' |
		awk '{ printf "%8.0f %9s %9s %12s %12s\n", $3 * 1024, $4, $5, $6, $7 }' > "$L/ceilings.tab"
	grep -E '^CEIL (d2d|overlap)' "$L/ceilings.txt" | cut -c6- >> "$L/ceilings.tab"
	[ $rc = 0 ] && grep -q "ceilings: done" "$L/ceilings.txt" || { res FAIL "exit $rc"; return 1; }
	res PASS "$(grep -m1 '^device' "$L/ceilings.txt" | cut -c1-70)"
}

step_kbench() {
	need || { res FAIL "inputs"; return 1; }
	local a=(-c "$W/suricata.yaml" -S "$W/et.rules" -r "$W/bench.pcap")
	if [ $DRY = 1 ]; then a+=(-e -s 1,4 -n 3 -t 1); else a+=(-s 1,16,50 -n 10 -t 2); fi
	"$C/bin/kbench" "${a[@]}" > "$L/kbench.txt" 2>&1; local rc=$?
	grep -v '^Warning\|^Error' "$L/kbench.txt"
	grep '^KBENCH' "$L/kbench.txt" | awk '{ delete v; for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "%-10s %6s %10s %10s %10s %9s %6s\n", v["kernel"], v["batch_mb"], v["kernel_gbps"],
		       v["wall_gbps"], v["cpu_gbps"], v["records"], v["equal"] }' > "$L/kbench.tab"
	[ $rc = 0 ] && grep -q '^kbench: PASS' "$L/kbench.txt" ||
		{ res FAIL "exit $rc: $(grep -m1 'kbench: FAIL\|error=' "$L/kbench.txt" | cut -c1-90)"; return 1; }
	res PASS "$(grep -c '^KBENCH' "$L/kbench.txt") (variant, batch) pairs equal (ac_search; verify: emulation)"
}

step_equal() {
	need || { res FAIL "inputs"; return 1; }
	local dev=1
	[ $DRY = 1 ] && dev=0
	ACCUDA_DEVICE=$dev bash "$top/qa/gpu/accuda-equal.sh" "$C/bin/suricata" "$W/suricata.yaml" "$W/bench.pcap" \
		"$W"/rules/*/emerging-*.rules > "$L/equal.txt" 2>&1; local rc=$?
	cat "$L/equal.txt"
	sed -n '/^run /,$p' "$L/equal.txt" > "$L/equal.tab"
	[ $rc = 0 ] || { res FAIL "$(grep -c '^FAIL' "$L/equal.txt") FAIL lines: $(grep -m1 '^FAIL' "$L/equal.txt" | cut -c1-80)"; return 1; }
	res PASS "$(grep -c '^PASS' "$L/equal.txt") checks: alerts equal ac's"
}

step_perf() {
	local t0=$SECONDS rc
	need_big || { res FAIL "inputs (bench-x$COPIES)"; return 1; }
	# what is left of the step's limit, less 10 s for the table and logs
	python3 "$top/qa/gpu/perf-matrix.py" --bin "$C/bin/suricata" --yaml "$W/suricata.yaml" \
		--rules "$W/et.rules" --pcap "$W/bench-x$COPIES.pcap" --out "$L/perf" \
		--budget $((LIMIT[perf] - 10 - (SECONDS - t0))) --reps $PERF_REPS --rows "$PERF_ROWS" \
		$([ $DRY = 1 ] && echo --dry) > "$L/perf.txt" 2>&1
	rc=$?
	cat "$L/perf.txt"
	sed -n '/^== packet phase/,$p' "$L/perf.txt" | grep -v '^FAIL: ' > "$L/perf.tab"
	[ $rc = 0 ] || { res FAIL "$(grep -c '^FAIL' "$L/perf.txt") FAIL lines: $(grep -m1 '^FAIL' "$L/perf.txt" | cut -c7-90)"; return 1; }
	res PASS "$(grep -c '^run ' "$L/perf.txt") runs on bench-x$COPIES ($(grep -o 'read 1 files, [0-9]* packets' \
		"$L"/perf/*/out 2>/dev/null | head -1 | awk '{ print $4 }') packets); alerts equal; no error, overflow or watchdog batch"
}

step_sanitizer() {
	if [ $DRY = 1 ]; then res SKIP "dry run: the host emulation has no device code to check"; return 0; fi
	local cs
	cs=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
	[ -n "$cs" ] || { res SKIP "no compute-sanitizer on this image"; return 0; }
	need || { res FAIL "inputs"; return 1; }
	mkdir -p "$L/sanitizer"
	"$cs" --tool memcheck --target-processes all --error-exitcode 3 --print-limit 20 \
		"$C/bin/suricata" -c "$W/suricata.yaml" -r "$W/small.pcap" -S "$W/et.rules" \
		-l "$L/sanitizer" --runmode autofp -k none $(gpu_args) > "$L/sanitizer.txt" 2>&1
	local rc=$?
	grep -v '^Warning' "$L/sanitizer.txt" | tail -40
	rm -f "$L/sanitizer/fast.log"
	# a runtime the sanitizer cannot attach to (gVisor: "Device not
	# supported") says nothing about our code
	if [ $rc != 0 ] && grep -q "Device not supported\|is not supported on this" "$L/sanitizer.txt"; then
		res SKIP "compute-sanitizer cannot use this device: $(grep -m1 'not supported' "$L/sanitizer.txt" | cut -c1-60)"
		return 0
	fi
	[ $rc = 0 ] && grep -q "ERROR SUMMARY: 0 errors" "$L/sanitizer.txt" ||
		{ res FAIL "exit $rc: $(grep -m1 'ERROR SUMMARY' "$L/sanitizer.txt")"; return 1; }
	res PASS "memcheck: 0 errors over $(grep -o 'read 1 files, [0-9]* packets' "$L/sanitizer.txt" | head -1 | awk '{ print $4 }') packets"
}

# The kernels' shared memory (the filter kernel's tables, pair table and
# record stage) under racecheck, on kbench's smallest batch: racecheck
# slows a kernel by orders of magnitude, so 256 KB, one run per variant.
step_racecheck() {
	if [ $DRY = 1 ]; then res SKIP "dry run: the host emulation has no device code to check"; return 0; fi
	local cs
	cs=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
	[ -n "$cs" ] || { res SKIP "no compute-sanitizer on this image"; return 0; }
	need || { res FAIL "inputs"; return 1; }
	"$cs" --tool racecheck --racecheck-report all --target-processes all --error-exitcode 3 \
		--print-limit 20 "$C/bin/kbench" -c "$W/suricata.yaml" -S "$W/et.rules" \
		-r "$W/bench.pcap" -s 0.25 -n 1 -t 1 > "$L/racecheck.txt" 2>&1
	local rc=$?
	grep -v '^Warning' "$L/racecheck.txt" | tail -40
	if [ $rc != 0 ] && grep -q "Device not supported\|is not supported on this" "$L/racecheck.txt"; then
		res SKIP "compute-sanitizer cannot use this device: $(grep -m1 'not supported' "$L/racecheck.txt" | cut -c1-60)"
		return 0
	fi
	# errors are races; warnings (possible hazards) are shown, not a FAIL
	[ $rc = 0 ] && grep -q 'RACECHECK SUMMARY: .*(0 errors' "$L/racecheck.txt" ||
		{ res FAIL "exit $rc: $(grep -m1 'RACECHECK SUMMARY\|kbench: FAIL' "$L/racecheck.txt" | cut -c1-80)"; return 1; }
	res PASS "$(grep -m1 -o 'RACECHECK SUMMARY: .*' "$L/racecheck.txt" | cut -c20-80); $(grep -c '^KBENCH' "$L/racecheck.txt") (variant, batch) pairs"
}

# ---------------------------------------------------------------- driver

section() {   # a step's rows, or the line that says why there are none
	if [ -s "$L/$1.tab" ]; then cat "$L/$1.tab"
	else echo "  (none: $1 $(cut -c1-80 "$L/$1.res" 2>/dev/null || echo 'did not run'))"; fi
}

run_steps() {
	local steps=${GPU_CHECK_STEPS:-$ALL_STEPS} s sum=0 t0 t1 rc line nfail=0 failed=""
	for s in $steps; do
		[ -n "${LIMIT[$s]:-}" ] || { echo "check: unknown step $s (steps: $ALL_STEPS)"; return 2; }
		sum=$((sum + LIMIT[$s]))
	done
	mkdir -p "$L" "$OUT"
	echo "== ac-cuda device check: $([ $DRY = 1 ] && echo 'DRY RUN, host EMULATION, no GPU' || echo device); carry $C; work $W"
	echo "time budget: $(for s in $steps; do printf '%s %ss + ' "$s" "${LIMIT[$s]}"; done | sed 's/ + $//') = ${sum} s (limit ${BUDGET_MAX} s)"
	[ $sum -lt $BUDGET_MAX ] || { echo "check: FAIL: the steps' timeouts add up to $sum s"; return 2; }
	[ -d "$C/libexec" ] || { echo "check: FAIL: no carry at $C: run qa/gpu/check.sh prepare first"; return 2; }
	local cb=$(du -sb "$C" | awk '{ print $1 }')
	: > "$L/steps.tab"
	for s in $steps; do
		t0=$(date +%s.%N)
		if [ "${GPU_CHECK_BREAK:-}" = "$s" ]; then
			echo "[$s] GPU_CHECK_BREAK: the step's command is replaced by one that fails"
			timeout -k 5 "${LIMIT[$s]}" sh -c 'exit 1' > "$L/$s.log" 2>&1
			rc=$?
			echo "FAIL broken on purpose (GPU_CHECK_BREAK=$s): exit $rc" > "$L/$s.res"
			(exit $rc)
		else
			echo "[$s] (timeout ${LIMIT[$s]} s)"
			timeout -k 5 "${LIMIT[$s]}" env GPU_STEP_LOGDIR="$L" GPU_WORK="$W" bash "$self" step "$s" > "$L/$s.log" 2>&1
		fi
		rc=$?
		t1=$(date +%s.%N)
		line=$(cat "$L/$s.res" 2>/dev/null)
		if [ $rc = 124 ] || [ $rc = 137 ]; then
			line="FAIL timed out after ${LIMIT[$s]} s"
		elif [ $rc != 0 ] && [ "${line%% *}" != FAIL ]; then
			line="FAIL exit $rc${line:+ (${line})}"
		elif [ -z "$line" ]; then
			line="FAIL no result (exit $rc)"
		fi
		[ "${line%% *}" = FAIL ] && { nfail=$((nfail + 1)); failed="$failed $s"; }
		printf '%-10s %-4s %5.1f/%-4s %s\n' "$s" "${line%% *}" \
			"$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" "${LIMIT[$s]}" "${line#* }" >> "$L/steps.tab"
		tail -1 "$L/steps.tab"
	done

	{
		echo "== ac-cuda device check ($([ $DRY = 1 ] && echo 'DRY: host EMULATION, numbers say nothing about a GPU' || echo 'device')) $(date -u +%FT%TZ)"
		echo "carry $(mib "$cb") + tree $(mib "$(tree_bytes)") of 64 MiB; time budget $sum s of $BUDGET_MAX s"
		echo "step       res  secs/limit  note"
		cat "$L/steps.tab"
		echo "== copy bandwidth, GB/s (ceilings.cu, median)"
		printf '%8s %9s %9s %12s %12s\n' KB h2d_pin d2h_pin h2d_pageable d2h_pageable
		section ceilings
		echo "== engine kernels (kbench: ET union automata; Gbit/s of payload bytes, medians)"
		printf '%-10s %6s %10s %10s %10s %9s %6s\n' variant MB kernel wall cpu_ac records equal
		section kbench
		echo "== alerts, ac vs ac-cuda (accuda-equal.sh, bench + ET Open)"
		section equal
		section perf
	} > "$L/summary.txt"
	tar -C "$W" -czf "$OUT/logs.tar.gz" logs 2>/dev/null
	if [ "$(stat -c %s "$OUT/logs.tar.gz")" -gt $((15 * 1024 * 1024)) ]; then
		echo "logs.tar.gz over 15 MiB: without the eve files" >> "$L/summary.txt"
		tar -C "$W" -czf "$OUT/logs.tar.gz" --exclude='eve*.json' logs 2>/dev/null
	fi
	cp "$L/summary.txt" "$OUT/summary.txt"
	local nfiles=$(find "$OUT" -type f | wc -l)
	{
		echo "files under \$OUT: $nfiles (limit 8): $(cd "$OUT" && find . -type f | sed 's|^\./||' | tr '\n' ' ')"
		if [ $nfail = 0 ]; then echo "RESULT: PASS"; else echo "RESULT: FAIL ($nfail step(s):$failed)"; fi
	} | tee -a "$OUT/summary.txt" >> "$L/summary.txt"
	[ "$nfiles" -le 8 ] || { echo "check: FAIL: more than 8 files under \$OUT" >> "$L/summary.txt"; nfail=$((nfail + 1)); }
	echo
	cat "$L/summary.txt"
	[ $nfail = 0 ]
}

case "${1:-}" in
prepare)
	prepare
	;;
step)
	STEP=$2
	L=${GPU_STEP_LOGDIR:?}
	W=${GPU_WORK:?}
	"step_$STEP"
	;;
""|run)
	if [ $DRY = 1 ]; then
		W=${GPU_WORK:-$(mktemp -d /tmp/gpucheck-dry.XXXXXX)}
	else
		W=${GPU_WORK:-/tmp/gpucheck}
	fi
	OUT=${OUT:-$W/out}
	L=$W/logs
	rm -rf "$L"
	mkdir -p "$L"
	if [ $DRY = 1 ] && [ "${GPU_DRY_PREPARED:-0}" != 1 ]; then
		echo "== dry run: prepare $C from this tree's build"
		prepare > "$L/prepare.log" 2>&1; rc=$?
		cat "$L/prepare.log"
		[ $rc = 0 ] || { echo "RESULT: FAIL (prepare)"; exit 1; }
	fi
	run_steps
	;;
*)
	sed -n '3,50p' "$0"
	exit 2
	;;
esac
