#!/usr/bin/env python3
"""Tiny listeners for the eve sink tests (tests/sinks/run.sh).

  listen.py dgram PATH OUT       unix datagram socket: one record a datagram
  listen.py stream PATH OUT      unix stream socket: records as lines
  listen.py stream-nul PATH OUT  the same, records ended by a NUL (syslog(3) on a stream)
  listen.py subscribe PORT KEY OUT   redis SUBSCRIBE KEY (RESP by hand)
  listen.py blackhole PATH OUT   unix stream socket that accepts and never reads

Each record received is appended to OUT as one line (a trailing newline
stripped). OUT.ready appears once the socket listens (or the subscription
is confirmed). Runs until SIGTERM, then exits 0.
"""
import os
import select
import signal
import socket
import sys

stop = False


def on_term(*_):
    global stop
    stop = True


signal.signal(signal.SIGTERM, on_term)


def ready(out):
    with open(out + '.ready', 'w') as fh:
        fh.write('ready\n')


def dgram(path, out):
    if os.path.exists(path):
        os.unlink(path)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    s.settimeout(0.2)
    with open(out, 'wb') as fh:
        ready(out)
        while not stop:
            try:
                d = s.recv(1 << 20)
            except socket.timeout:
                continue
            except InterruptedError:
                continue
            fh.write(d.rstrip(b'\n') + b'\n')
            fh.flush()
        # what is still queued on the socket
        s.setblocking(False)
        while True:
            try:
                d = s.recv(1 << 20)
            except (BlockingIOError, OSError):
                break
            fh.write(d.rstrip(b'\n') + b'\n')
    os.unlink(path)


def stream(path, out, sep=b'\n'):
    if os.path.exists(path):
        os.unlink(path)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.listen(4)
    conns = {}
    with open(out, 'wb') as fh:
        ready(out)
        while not stop or conns:
            r, _, _ = select.select([s] + list(conns), [], [], 0.2)
            if stop and not r:
                break
            for x in r:
                if x is s:
                    c, _ = s.accept()
                    conns[c] = b''
                    continue
                d = x.recv(1 << 16)
                if not d:
                    if conns[x]:
                        fh.write(conns[x] + b'\n')   # a record cut short
                    del conns[x]
                    x.close()
                    continue
                buf = conns[x] + d
                *lines, rest = buf.split(sep)
                for ln in lines:
                    fh.write(ln + b'\n')
                conns[x] = rest
            fh.flush()
    os.unlink(path)


def resp_parse(buf, i):
    """One RESP value of buf from offset i: (value, next offset), or None
    when buf does not hold all of it yet."""
    e = buf.find(b'\r\n', i)
    if e < 0:
        return None
    t, rest = buf[i:i + 1], bytes(buf[i + 1:e])
    if t in (b'+', b'-', b':'):
        return rest, e + 2
    if t == b'$':
        n = int(rest)
        if n < 0:
            return None, e + 2
        if len(buf) < e + 2 + n + 2:
            return None
        return bytes(buf[e + 2:e + 2 + n]), e + 4 + n
    if t == b'*':
        items, j = [], e + 2
        for _ in range(int(rest)):
            r = resp_parse(buf, j)
            if r is None:
                return None
            items.append(r[0])
            j = r[1]
        return items, j
    raise ValueError('bad RESP at %d: %r' % (i, bytes(buf[i:i + 20])))


def subscribe(port, key, out):
    s = socket.create_connection(('127.0.0.1', int(port)))
    k = key.encode()
    s.sendall(b'*2\r\n$9\r\nSUBSCRIBE\r\n$%d\r\n%s\r\n' % (len(k), k))
    s.settimeout(0.2)
    buf = bytearray()
    subscribed = False
    with open(out, 'wb') as fh:
        while not stop:
            try:
                d = s.recv(1 << 16)
            except socket.timeout:
                continue
            if not d:
                break
            buf += d
            i = 0
            while True:
                r = resp_parse(buf, i)
                if r is None:
                    break
                msg, i = r
                if isinstance(msg, list) and msg[0] == b'subscribe':
                    subscribed = True
                    ready(out)
                elif isinstance(msg, list) and msg[0] == b'message':
                    fh.write(msg[2] + b'\n')
            del buf[:i]
            fh.flush()
    if not subscribed:
        sys.exit('subscribe: no confirmation from the server')


def blackhole(path, out):
    if os.path.exists(path):
        os.unlink(path)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.listen(16)
    conns = []
    ready(out)
    open(out, 'w').close()
    while not stop:
        r, _, _ = select.select([s], [], [], 0.2)
        if r:
            conns.append(s.accept()[0])     # kept open, never read
    os.unlink(path)


def main():
    mode = sys.argv[1]
    if mode == 'dgram':
        dgram(sys.argv[2], sys.argv[3])
    elif mode == 'stream':
        stream(sys.argv[2], sys.argv[3])
    elif mode == 'stream-nul':
        stream(sys.argv[2], sys.argv[3], b'\0')
    elif mode == 'blackhole':
        blackhole(sys.argv[2], sys.argv[3])
    elif mode == 'subscribe':
        subscribe(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
