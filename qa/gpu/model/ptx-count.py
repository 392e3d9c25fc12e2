#!/usr/bin/env python3
"""PTX instructions per step of the ac-cuda kernels, for the cost model.

The model (model.c) charges each warp step an instruction count. Those
counts used to be read off the C source; the PTX has ~2-3x more (64-bit
address arithmetic, bounds tests, predicates, unrolled copies). This script
compiles cuda/accuda-cuda.cu to PTX with the build's flags (-O3, sm_90)
plus -lineinfo, which changes no code but tags every instruction with its
source line and the call site it was inlined at. Each instruction is
attributed to the innermost line of cuda/ac-kernel.h it came from (an
ac.h inline function: its call site there), that line to a step by the
rules of class Rules below, and the count divided by the step's copies (the
16 positions the filter loop unrolls; the two call sites of
acc_emit_start). Cold paths (the tail of a batch in acc_load16, a group
without filter tables, a full record stage) are left out, because the model
charges steps, and a warp runs them only when a lane takes them.

It is a STATIC count: every instruction of a step's code, both sides of a
branch inside it included (a diverged warp runs both). It is PTX, not the
SASS that runs: ptxas may merge or split instructions (this machine has no
cuobjdump or nvdisasm to read the SASS; a device session should).

usage:
  ptx-count.py [--ptx FILE]            print the table
  ptx-count.py --write ptx-steps.h     regenerate the model's table
  ptx-count.py --check ptx-steps.h     exit 1 when the table is stale
                                        (without nvcc: a warning, exit 0)
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..', '..'))
KERNEL_H = os.path.join(TOP, 'cuda', 'ac-kernel.h')
AC_H = os.path.join(TOP, 'src', 'mpm', 'ac.h')
SOURCES = [os.path.join(TOP, p) for p in
           ('cuda/accuda-cuda.cu', 'cuda/ac-kernel.h', 'src/mpm/ac.h')]

# The steps, as the model names them (model.c: enum pstep).
STEP_DOC = {
    'fvec': 'filter: one 16-byte input load and its fold (acc_filter_run loop)',
    'fpos': 'filter: one start position, pair-map and one-byte-literal tests',
    'fquad': 'filter: the 4-byte prefix-hash test of a position (when taken)',
    'run64': 'filter: set-up of a run of 64 positions (first load, masks)',
    'walk1': 'filter: a one-byte literal from the root row (no walk)',
    'wstart': 'filter: a candidate taken from the mask and a walk set up',
    'walk': 'filter: one failureless walk step (acc_walk loop, acc_goto dense row)',
    'wsparse': 'filter: acc_goto on a sparse state: one binary-search probe',
    'run': 'filter: one byte of a run skip',
    'emit': 'filter: one out[] entry examined (length, seen cache, verify)',
    'stage': 'filter: a record: pair-table key, shared claim, write',
    'probe': 'filter: one probe of the block\'s pair table (atomicCAS)',
    'piece': 'a payload piece of a window (descriptor, set-up)',
    'locate': 'one binary-search step over the descriptors',
    'ac': 'chunk: one automaton step (ac_next) from a dense state',
    'acsparse': 'chunk: one sparse state visited by that step (children, fail link)',
    'acemit': 'chunk: one out[] entry, verify, global atomic, record',
}


def blocks_of(src, pat=r'ACK_HD [^(]*?\b(acc_\w+)\('):
    """Function spans: (name, first line, last line)."""
    funcs = []
    start = None
    for i, l in enumerate(src, 1):
        m = re.match(pat, l)
        if m:
            start = (m.group(1), i)
        if l.startswith('}') and start:
            funcs.append((start[0], start[1], i))
            start = None
    return funcs


def block_at(src, anchor, lo, hi):
    """Lines [a, b] of the brace block that opens on the first line in
    [lo, hi] containing `anchor` (a loop or if with '{' on that line)."""
    for i in range(lo, hi + 1):
        if anchor in src[i - 1]:
            depth, opened = 0, False
            for j in range(i, hi + 1):
                t = src[j - 1]
                if j == i:
                    t = t[t.index(anchor):]
                    if anchor.startswith('}'):
                        t = t[1:]
                for ch in t:
                    if ch == '{':
                        depth, opened = depth + 1, True
                    elif ch == '}':
                        depth -= 1
                if opened and depth <= 0:
                    return (i, j)
            return (i, hi)
    sys.exit('ptx-count.py: anchor %r not found: update class Rules' % anchor)


def line_of(src, anchor, lo, hi):
    for i in range(lo, hi + 1):
        if anchor in src[i - 1]:
            return i
    sys.exit('ptx-count.py: anchor %r not found: update class Rules' % anchor)


class Rules:
    """ac-kernel.h line -> step, per kernel. The blocks are found by text
    anchors in the source; a missing anchor stops the script (update the
    rules with the kernel)."""

    def __init__(self, src):
        self.src = src
        self.funcs = {n: (a, b) for n, a, b in blocks_of(src)}
        f = self.funcs

        def fn(n):
            if n not in f:
                sys.exit('ptx-count.py: %s not in ac-kernel.h: update class Rules' % n)
            return f[n]
        run = fn('acc_filter_run')
        self.fr_x = block_at(src, 'for (uint32_t x = g0', *run)
        self.fr_j = block_at(src, 'for (uint32_t j = 0; j < 16', *run)
        self.fr_quad = block_at(src, 'if (!hit && (code & AC_GP_LONG))', *self.fr_j)
        self.sid_line = line_of(src, 'gsid[raw];', *self.fr_j)
        walk = fn('acc_walk')
        self.w_loop = block_at(src, 'for (dd = 1;', *walk)
        self.w_run = block_at(src, 'while (e < stop', *walk)
        ld = fn('acc_load16')
        self.ld_cold = (line_of(src, 'return;', *ld) + 1, ld[1])
        pc = fn('acc_filter_piece')
        self.fp_cold = block_at(src, 'if (!v->gpair)', *pc)
        self.fp_m1 = block_at(src, 'while (m1)', *pc)
        self.fp_m = block_at(src, 'while (m)', *pc)
        self.fp_a = block_at(src, 'for (uint32_t a = cs;', *pc)
        go = fn('acc_goto')
        self.go_sparse = (line_of(src, 'uint32_t kk = s - v->ndense', *go), go[1])
        dd = fn('acc_dedup_first')
        self.dd_probe = block_at(src, 'for (uint32_t i = 0; i < ACC_DEDUP_PROBES', *dd)
        es = fn('acc_emit_start')
        loop = block_at(src, 'for (; a < e; a++)', *es)
        self.es_stage = (line_of(src, 'acc_dedup_first(dt', *loop), loop[1])
        self.es_cold = block_at(src, '} else {', self.es_stage[0], loop[1])

    def func(self, line):
        for n, (a, b) in self.funcs.items():
            if a <= line <= b:
                return n
        return None

    @staticmethod
    def inside(line, blk):
        return blk[0] <= line <= blk[1]

    def step(self, kernel, line, site):
        """Step of kernel source `line`; `site`: the ac-kernel.h line its
        function was inlined at (None if unknown)."""
        n = self.func(line)
        if n is None:
            return 'other'
        if kernel == 'chunk':
            return {'acc_scan_piece': 'ac', 'acc_emit': 'acemit', 'acc_atomic_inc': 'acemit',
                    'acc_locate': 'locate'}.get(n, 'piece')
        if n == 'acc_load16':
            if self.inside(line, self.ld_cold):
                return 'cold'
            return self.step(kernel, site, None) if site else 'fvec'
        if n in ('acc_fold4',):
            return 'fvec'
        if n in ('acc_word_at',):
            return 'fpos'
        if n == 'acc_filter_run':
            if self.inside(line, self.fr_quad):
                return 'fquad'
            if self.inside(line, self.fr_j):
                return 'fpos'
            if self.inside(line, self.fr_x):
                return 'fvec'
            return 'run64'
        if n == 'acc_walk':
            if self.inside(line, self.w_loop):
                return 'walk'
            if self.inside(line, self.w_run):
                return 'run'
            return 'wstart'
        if n == 'acc_goto':
            return 'wsparse' if self.inside(line, self.go_sparse) else 'walk'
        if n == 'acc_ctz64':
            return self.step(kernel, site, None) if site else 'wstart'
        if n in ('acc_dedup_first', 'acc_claim'):
            if site and self.inside(site, self.es_cold):
                return 'cold'
            if n == 'acc_dedup_first' and self.inside(line, self.dd_probe):
                return 'probe'
            return 'stage'
        if n == 'acc_emit_start':
            if self.inside(line, self.es_cold):
                return 'cold'
            if self.inside(line, self.es_stage):
                return 'stage'
            return 'emit'
        if n in ('acc_seen_has', 'acc_seen_add'):
            return 'emit'
        if n == 'acc_filter_piece':
            if self.inside(line, self.fp_cold):
                return 'cold'
            if self.inside(line, self.fp_m1):
                return 'walk1'
            if self.inside(line, self.fp_m):
                return 'wstart'
            if self.inside(line, self.fp_a):
                return 'run64'
            return 'piece'
        if n in ('acc_scan_piece', 'acc_emit', 'acc_atomic_inc'):
            return 'cold'   # the fallback of a group without filter tables
        if n == 'acc_locate':
            return 'locate'
        if n in ('acc_scan_filter', 'acc_window_first', 'acc_window_next', 'acc_seen_reset',
                 'acc_filter_desc', 'acc_ctx_end'):
            return 'piece'
        if n == 'acc_stage_copy':
            return 'tile'
        return 'other'


LOC = re.compile(r'\.loc\s+(\d+)\s+(\d+)\s+\d+(?:,\s*function_name\s+\S+?,'
                 r'\s*inlined_at\s+(\d+)\s+(\d+)\s+\d+)?')


def entries(ptx):
    """{kernel name: [lines of its body]}"""
    out, cur, name = {}, None, None
    for l in ptx.splitlines():
        m = re.match(r'\.visible \.entry _Z\d+acc_kernel_(\w+?)\d', l)
        if m:
            name, cur = m.group(1), []
            continue
        if cur is not None:
            if l.startswith('}'):
                out[name] = cur
                cur = None
            else:
                cur.append(l)
    return out


def files_of(ptx):
    return {m.group(1): m.group(2) for m in
            re.finditer(r'^\s*\.file\s+(\d+)\s+"([^"]+)"', ptx, re.M)}


def count(ptx, kernel, rules):
    files = files_of(ptx)
    kh = [i for i, p in files.items() if p.endswith('cuda/ac-kernel.h')]
    cu = [i for i, p in files.items() if p.endswith('cuda/accuda-cuda.cu')]
    ah = [i for i, p in files.items() if p.endswith('src/mpm/ac.h')]
    body = entries(ptx).get(kernel)
    if body is None:
        sys.exit('ptx-count.py: no acc_kernel_%s in the PTX' % kernel)
    tot, sid_loads, probes = {}, 0, 0
    step, pos = 'other', None
    sp, em = rules.funcs['acc_scan_piece'], rules.funcs['acc_emit']
    ac_sites, acemit_sites = set(), set()
    for l in body:
        s = l.strip()
        m = LOC.match(s)
        if m:
            f, line, fi, li = m.group(1), int(m.group(2)), m.group(3), m.group(4)
            if fi in kh and sp[0] <= int(li) <= sp[1]:
                if f in ah:
                    ac_sites.add(int(li))
                elif f in kh and em[0] <= line <= em[1]:
                    acemit_sites.add(int(li))
            hsparse = f in ah and rules.ac_sparse[0] <= line <= rules.ac_sparse[1]
            if f in cu and line:
                pos = ('tile', None)
            elif kernel == 'chunk' and hsparse:
                pos = ('acsparse', None)
            elif f in kh and line:
                pos = (line, int(li) if fi in kh else None)
            elif fi in kh:
                pos = (int(li), None)
            # else: line 0, or an ac.h helper inlined into ac.h: the step
            # of the code around it
            continue
        if not s or s[0] in '.$/{}' or s.endswith(':'):
            continue   # directives, labels, braces
        if pos is None:
            step = 'other'
        elif pos[0] in ('tile', 'acsparse'):
            step = pos[0]
        else:
            step = rules.step(kernel, pos[0], pos[1])
            if pos[0] == rules.sid_line and s.startswith('ld'):
                sid_loads += 1
            if step == 'probe' and s.startswith('atom'):
                probes += 1
        tot[step] = tot.get(step, 0) + 1
    # the chunk kernel inlines ac_next and acc_emit in both loops of
    # acc_scan_piece (the window, then the overlap past it)
    copies = {'ac': max(len(ac_sites), 1), 'acsparse': max(len(ac_sites), 1),
              'acemit': max(len(acemit_sites), 1)}
    if kernel == 'filter':
        copies['fpos'] = copies['fquad'] = max(sid_loads, 1)
        # acc_emit_start is inlined at each of its call sites (two): a
        # step runs one of the copies
        copies['emit'] = copies['stage'] = max(len(rules.sites_emit), 1)
        # the probe loop is unrolled: one atomicCAS per probe and site
        copies['probe'] = max(probes, 1)
    return tot, copies


def emit_sites(ptx, rules):
    """ac-kernel.h lines acc_emit_start is inlined at."""
    files = files_of(ptx)
    kh = [i for i, p in files.items() if p.endswith('cuda/ac-kernel.h')]
    a, b = rules.funcs['acc_emit_start']
    sites = set()
    for m in LOC.finditer(ptx):
        if m.group(1) in kh and a <= int(m.group(2)) <= b and m.group(3) in kh:
            sites.add(int(m.group(4)))
    return sites


def nvcc_path():
    for p in (os.environ.get('NVCC'), '/usr/local/cuda/bin/nvcc', shutil.which('nvcc')):
        if p and os.access(p, os.X_OK):
            return p
    return None


def make_ptx(nvcc):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'k.ptx')
        cmd = [nvcc, '-O3', '-std=c++17', '-arch=sm_90', '-lineinfo', '-ptx',
               '-I' + os.path.join(TOP, 'cuda'), '-I' + os.path.join(TOP, 'src'),
               os.path.join(TOP, 'cuda', 'accuda-cuda.cu'), '-o', out]
        subprocess.run(cmd, check=True)
        ver = subprocess.run([nvcc, '--version'], capture_output=True, text=True).stdout
        m = re.search(r'release ([\d.]+), V([\d.]+)', ver)
        return open(out).read(), (m.group(2) if m else '?')


def src_hash():
    h = hashlib.sha256()
    for p in SOURCES:
        h.update(open(p, 'rb').read())
    return h.hexdigest()[:16]


ORDER = ['fvec', 'fpos', 'fquad', 'run64', 'walk1', 'wstart', 'walk', 'wsparse', 'run',
         'emit', 'stage', 'probe', 'piece', 'locate', 'ac', 'acsparse',
         'acemit']


def table(ptx):
    src = open(KERNEL_H).read().split('\n')
    rules = Rules(src)
    ah = open(AC_H).read().split('\n')
    f = {n: (a, b) for n, a, b in blocks_of(ah, r'static inline AC_HD [^(]*?\b(ac_\w+)\(')}
    if 'ac_step_class' not in f:
        sys.exit('ptx-count.py: ac_step_class not in ac.h: update the rules')
    rules.ac_sparse = block_at(ah, 'while (s >= v->ndense)', *f['ac_step_class'])
    rules.sites_emit = emit_sites(ptx, rules)
    res, raw = {}, {}
    for kern in ('filter', 'chunk'):
        tot, copies = count(ptx, kern, rules)
        raw[kern] = tot
        for st, n in tot.items():
            if st in ('cold', 'tile', 'other'):
                continue
            if kern == 'chunk' and st not in ('ac', 'acsparse', 'acemit'):
                continue
            if kern == 'filter' and st in ('ac', 'acsparse', 'acemit'):
                continue
            res[st] = n / copies.get(st, 1)
    return res, raw, rules


def header(res, ver, h):
    lines = ['/* GENERATED by qa/gpu/model/ptx-count.py --write: do not edit.',
             ' * PTX instructions per step of the ac-cuda kernels (nvcc %s, sm_90,' % ver,
             ' * -O3 -lineinfo), a static count: both sides of a branch inside a step.',
             ' * Sources (accuda-cuda.cu, ac-kernel.h, ac.h): sha256 %s. */' % h,
             '#define PTX_SRC_HASH "%s"' % h,
             '#define PTX_NVCC "%s"' % ver]
    for st in ORDER:
        lines.append('#define PTX_%-7s %6.2f  /* %s */' % (st.upper(), res.get(st, 0), STEP_DOC[st]))
    return '\n'.join(lines) + '\n'


def main(argv):
    ptxfile, write, check = None, None, None
    i = 1
    while i < len(argv):
        if argv[i] == '--ptx':
            ptxfile = argv[i + 1]; i += 2
        elif argv[i] == '--write':
            write = argv[i + 1]; i += 2
        elif argv[i] == '--check':
            check = argv[i + 1]; i += 2
        else:
            sys.exit(__doc__)
    h = src_hash()
    if ptxfile:
        ptx, ver = open(ptxfile).read(), 'given'
    else:
        nvcc = nvcc_path()
        if not nvcc:
            if check:
                old = open(check).read()
                if ('"%s"' % h) not in old:
                    print('ptx-count.py: WARNING: no nvcc, and the kernel sources changed '
                          'since %s was made: rerun ptx-count.py --write there' % check)
                return 0
            sys.exit('ptx-count.py: no nvcc (set NVCC or install the CUDA toolkit)')
        ptx, ver = make_ptx(nvcc)
    res, raw, _ = table(ptx)
    new = header(res, ver, h)
    if check:
        old = open(check).read()
        strip = lambda t: [l for l in t.splitlines() if not l.startswith(('#define PTX_SRC_HASH', '#define PTX_NVCC', ' * PTX', ' * Sources'))]
        if strip(old) != strip(new):
            print('ptx-count.py: %s is stale: the kernel\'s PTX changed. Rerun\n'
                  '  qa/gpu/model/ptx-count.py --write %s\nnew table:\n%s' % (check, check, new))
            return 1
        print('ptx-count.py: %s is current (nvcc %s)' % (check, ver))
        return 0
    if write:
        with open(write, 'w') as f:
            f.write(new)
        return 0
    print('PTX instructions per step (static, copies divided out), nvcc %s, sm_90:' % ver)
    for st in ORDER:
        print('  %-7s %6.2f  %s' % (st, res.get(st, 0), STEP_DOC[st]))
    for kern, tot in raw.items():
        print('acc_kernel_%s: %d instructions: %s' % (
            kern, sum(tot.values()), ', '.join('%s %d' % kv for kv in sorted(tot.items()))))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
