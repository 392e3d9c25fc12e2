#!/usr/bin/env python3
"""PTX instructions per step of the verify kernel, for vmodel.c.

Compiles cuda/accuda-cuda.cu to PTX as ptx-count.py does (the build's -O3,
sm_90, plus -lineinfo, which changes no code), takes the instructions of
acv_kernel, attributes each to the innermost line of cuda/verify-kernel.h
it came from (an inlined helper of another file: its call site there; the
kernel's own lines in accuda-cuda.cu: the record step), and sums them into
the steps that vmodel.c counts (enum acv_tstep, the ACV_T_STEP hooks):

  rec     acv_kernel's loop and acv_verify_rec up to its program loop
  prog    acv_eval before its element loop (dsize, memo set-up) and the
          program loop's own lines
  elem    an element entered: the element loop's head, isdataat, bounds
          (acv_bounds), the frame set-up
  search  a frame's search: recursion count, the find call and its result
          (the inner loop of acv_eval, less acv_find)
  pos     one round of acv_find_warp: 32 start positions, one a lane (loop
          head, the first compare of the longer of its two compare loops,
          the ballot)
  cmp     one more byte compared (the longer compare loop's test and k++)
  pass    a pass record (atomic, write)

A STATIC count, as ptx-count.py's: every instruction of a step's lines,
both sides of a branch included; PTX, not SASS. Prints one line:
"rec prog elem search pos cmp pass" for vmodel's --weights.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..', '..'))
VK = os.path.join(TOP, 'cuda', 'verify-kernel.h')
CU = os.path.join(TOP, 'cuda', 'accuda-cuda.cu')
STEPS = ['rec', 'prog', 'elem', 'search', 'pos', 'cmp', 'pass']


def nvcc_path():
    for p in (os.environ.get('NVCC'), '/usr/local/cuda/bin/nvcc', shutil.which('nvcc')):
        if p and os.path.exists(p):
            return p
    return None


def ptx_text(nvcc):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'a.ptx')
        subprocess.run([nvcc, '-O3', '-std=c++17', '-arch=sm_90', '-lineinfo', '-ptx',
                        '-I' + os.path.join(TOP, 'cuda'), '-I' + os.path.join(TOP, 'src'),
                        CU, '-o', out], check=True)
        return open(out).read()


def line_of(src, pat, after=0):
    for i, l in enumerate(src[after:], after + 1):
        if re.search(pat, l):
            return i
    raise SystemExit('vptx: no line matches %r in verify-kernel.h' % pat)


def step_of_line(src):
    """verify-kernel.h line -> step, from the functions' landmarks."""
    m = {}
    # the device searches with acv_find_warp (a round of 32 positions)
    f0 = line_of(src, r'int64_t acv_find_warp\(')
    f_end = line_of(src, r'^}', f0)
    w1 = line_of(src, r'while \(k < plen && acv_lc', f0)
    w2 = line_of(src, r'while \(k < plen && buf', f0)
    b0 = line_of(src, r'^ACV_HD int acv_bounds\(')
    b_end = line_of(src, r'^}', b0)
    e0 = line_of(src, r'^ACV_HD int acv_eval\(')
    e_outer = line_of(src, r'^\tfor \(;;\) {', e0)
    e_inner = line_of(src, r'^\t\tfor \(;;\) {', e_outer)
    e_end = line_of(src, r'^}', e0)
    r0 = line_of(src, r'^ACV_HD void acv_verify_rec\(')
    r_loop = line_of(src, r'for \(uint32_t i = t->pat_off', r0)
    r_pass = line_of(src, r'ACV_T_STEP\(ACV_TS_PASS\)', r0)
    r_end = line_of(src, r'^}', r0)
    for ln in range(f0, f_end + 1):
        m[ln] = 'pos'
    for w in (w1, w2):
        # the compare loop: its test and k++ (to the closing brace)
        for ln in range(w, w + 4):
            m[ln] = 'cmp'
    for ln in range(b0, b_end + 1):
        m[ln] = 'elem'
    for ln in range(e0, e_outer + 1):
        m[ln] = 'prog'
    for ln in range(e_outer + 1, e_inner):
        m[ln] = 'elem'
    for ln in range(e_inner, e_end + 1):
        m[ln] = 'search'
    for ln in range(r0, r_loop):
        m[ln] = 'rec'
    for ln in range(r_loop, r_pass):
        m[ln] = 'prog'
    for ln in range(r_pass, r_end + 1):
        m[ln] = 'pass'
    return m, (w1, w2)


def count(ptx, src):
    files = dict((int(a), b) for a, b in re.findall(r'\.file\s+(\d+)\s+"([^"]+)"', ptx))
    vk = [k for k, v in files.items() if os.path.basename(v) == 'verify-kernel.h']
    cu = [k for k, v in files.items() if os.path.basename(v) == 'accuda-cuda.cu']
    if not vk:
        raise SystemExit('vptx: the PTX has no verify-kernel.h lines (-lineinfo?)')
    vk, cu = vk[0], cu[0] if cu else -1
    body = ptx[ptx.index('.entry _Z10acv_kernel'):]
    body = body[:body.index('\n}\n') + 3]
    per_line = {}
    cur = None
    for l in body.split('\n'):
        s = l.strip()
        if s.startswith('.loc'):
            # .loc F L C[, function_name ..., inlined_at F2 L2 C2]: the
            # innermost frame in verify-kernel.h (or the kernel's own line)
            frames = re.findall(r'(?:\.loc|inlined_at)\s+(\d+)\s+(\d+)', s)
            cur = None
            for f, ln in frames:
                f, ln = int(f), int(ln)
                if f == vk:
                    cur = ln
                    break
                if f == cu and cur is None:
                    cur = ('cu', ln)
            continue
        if not s or s.startswith(('.', '//', '$', '{', '}', ')')) or s.endswith(':'):
            continue
        per_line[cur] = per_line.get(cur, 0) + 1
    m, (w1, w2) = step_of_line(src)
    tot = dict((k, 0) for k in STEPS)
    cmp_lines = {w1: 0, w2: 0}
    for ln, n in per_line.items():
        if isinstance(ln, tuple) or ln is None:
            tot['rec'] += n
            continue
        st = m.get(ln)
        if st is None:
            continue
        tot[st] += n
    # the two compare loops are alternatives (nocase or not): charge the
    # longer one, and its test once more to each start position
    loops = []
    for w in (w1, w2):
        loops.append(sum(per_line.get(ln, 0) for ln in range(w, w + 4)))
    tot['cmp'] -= min(loops)
    tot['pos'] += per_line.get(w1 if loops[0] >= loops[1] else w2, 0)
    return tot, per_line


def main():
    nvcc = nvcc_path()
    if not nvcc:
        print('vptx: no nvcc: vmodel keeps its own table', file=sys.stderr)
        return
    src = open(VK).read().split('\n')
    tot, _ = count(ptx_text(nvcc), src)
    if '-v' in sys.argv:
        for k in STEPS:
            print('%-7s %d' % (k, tot[k]), file=sys.stderr)
    print(' '.join(str(tot[k]) for k in STEPS))


if __name__ == '__main__':
    main()
