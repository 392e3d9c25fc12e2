#!/usr/bin/env python3
"""Checks pcap-log's files with tshark (an e2e `script` expectation).

  pcaplog-check.py LOGDIR same GLOB [FILTER]
      the frames of the files GLOB (in LOGDIR; .lz4 ones through `lz4 -d`)
      are exactly those of the capture ($E2E_PCAP) that tshark's display
      FILTER selects (all without one): same time, length and bytes (md5),
      each once, whatever the order the threads wrote them in.
  pcaplog-check.py LOGDIR ring GLOB N MAXBYTES
      exactly N files match (max-files), none larger than MAXBYTES, and
      their frames, in the order the files were written, are the last ones
      of the capture (a file or a folder read in name order): the older
      files were deleted. For --runmode single, which keeps capture order.
Exit 0 when it holds; otherwise one line saying what differs.
"""
import glob
import os
import subprocess
import sys
import tempfile

FIELDS = ['frame.time_epoch', 'frame.len', 'frame.cap_len', 'frame.md5_hash']


def frames(path, flt=None):
    cmd = ['tshark', '-n', '-r', path, '-o', 'frame.generate_md5_hash:TRUE', '-T', 'fields']
    for f in FIELDS:
        cmd += ['-e', f]
    if flt:
        cmd += ['-Y', flt]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('tshark cannot read %s: %s' % (path, r.stderr.strip()[-200:]))
    return [l for l in r.stdout.splitlines() if l.strip()]


def readable(path, tmp):
    """The pcap of path: itself, or its lz4 frame decompressed."""
    if not path.endswith('.lz4'):
        return path
    out = os.path.join(tmp, os.path.basename(path)[:-4])
    r = subprocess.run(['lz4', '-d', '-q', '-f', path, out], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('lz4 -d %s failed: %s' % (path, r.stderr.strip()))
    return out


def main():
    logdir, mode = sys.argv[1], sys.argv[2]
    files = sorted(glob.glob(os.path.join(logdir, sys.argv[3])))
    if not files:
        sys.exit('no file matches %s' % sys.argv[3])
    with tempfile.TemporaryDirectory() as tmp:
        got = []
        for f in files:
            got += frames(readable(f, tmp))
        if mode == 'same':
            flt = sys.argv[4] if len(sys.argv) > 4 else None
            want = frames(os.environ['E2E_PCAP'], flt)
            if sorted(got) != sorted(want):
                extra = len(set(got) - set(want))
                missing = len(set(want) - set(got))
                sys.exit('%d frames written, %d expected (%d not expected, %d missing)' %
                         (len(got), len(want), extra, missing))
            print('%d frames, as expected' % len(got))
            return 0
        if mode == 'ring':
            n, maxb = int(sys.argv[4]), int(sys.argv[5])
            if len(files) != n:
                sys.exit('%d files, expected %d: %s' % (len(files), n, files))
            for f in files:
                if os.path.getsize(f) > maxb:
                    sys.exit('%s: %d bytes > %d' % (f, os.path.getsize(f), maxb))
            # in the order they were written (--runmode single: capture order)
            files.sort(key=lambda f: os.stat(f).st_mtime_ns)
            got = []
            for f in files:
                got += frames(readable(f, tmp))
            src = os.environ['E2E_PCAP']
            cap = [src] if os.path.isfile(src) else sorted(
                os.path.join(src, x) for x in os.listdir(src))
            want = []
            for c in cap:
                want += frames(c)
            if len(got) >= len(want) or got != want[len(want) - len(got):]:
                sys.exit('the %d frames kept are not the last ones of the %d read' %
                         (len(got), len(want)))
            print('%d files of at most %d bytes: the last %d of %d frames' %
                  (n, maxb, len(got), len(want)))
            return 0
    sys.exit('unknown mode %s' % mode)


if __name__ == '__main__':
    sys.exit(main())
