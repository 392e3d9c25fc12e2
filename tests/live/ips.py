#!/usr/bin/python3
"""Traffic and checks of tests/live/ips.sh (inline IPS in namespaces).

    ips.py server LOG PORT...
        TCP server on each PORT (all addresses): each connection is logged
        to LOG as "PORT accepted", each line it reads as "PORT got LINE",
        and echoed back. Runs until killed. Prints "ready" once listening.
    ips.py client HOST PORT TIMEOUT [udp [SIZE]]
        connects, sends "hello PORT", reads the echo; prints one word:
        ok (the echo came back), refused (a RST answered the SYN: reject),
        reset (a RST later), timeout (nothing came back within TIMEOUT s:
        drop), or error:WHY. udp: one datagram on a connected socket;
        refused is then an ICMP port unreachable; SIZE pads the datagram
        (above the MTU: fragments).
    ips.py sniff IFACE PCAP
        writes every frame of IFACE (both ways) to PCAP (Ethernet), each
        flushed at once, until SIGTERM.
    ips.py check EVE NAME DROP_SID:PORT PASS_PORT REJECT_SID:PORT [REF_EVE|- [UDP_REJECT_SID:PORT]]
        the eve records of an IPS run: the drop and reject rules alert with
        action "blocked", and drop records (reason "rules") are written for
        their flows (PORT: the server's); the pass flow raised no
        alert; the last stats record has ips.blocked and
        ips.drop_reason.rules equal to the drop and reject rules' alerts,
        ips.rejected one a reject rule (the refused SYN, the UDP datagram),
        ips.accepted >= 7 (the pass flow). With REF_EVE (the run --simulate-ips on the
        captured traffic): the same set of (sid, action) alerts.
Prints PASS:/FAIL: lines; the exit status is 1 on any FAIL.
"""

import json
import signal
import socket
import struct
import sys
import time


def server(log, ports):
    import selectors
    sel = selectors.DefaultSelector()
    out = open(log, "a", buffering=1)
    for port in ports:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("0.0.0.0", int(port)))
        s.listen(16)
        sel.register(s, selectors.EVENT_READ, ("listen", int(port)))
        # the same port over UDP: the host itself answers no ICMP unreachable
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        u.bind(("0.0.0.0", int(port)))
        sel.register(u, selectors.EVENT_READ, ("udp", int(port)))
    print("ready", flush=True)
    while True:
        for key, _ in sel.select():
            kind, port = key.data
            if kind == "udp":
                data, peer = key.fileobj.recvfrom(65535)
                out.write("%d udp got %s (%d bytes)\n" %
                          (port, data.split(b"\n")[0].decode(errors="replace"), len(data)))
                key.fileobj.sendto(data, peer)
                continue
            if kind == "listen":
                c, _ = key.fileobj.accept()
                out.write("%d accepted\n" % port)
                sel.register(c, selectors.EVENT_READ, ("conn", port))
                continue
            try:
                data = key.fileobj.recv(4096)
            except OSError:
                data = b""
            if not data:
                sel.unregister(key.fileobj)
                key.fileobj.close()
                continue
            for line in data.decode(errors="replace").splitlines():
                out.write("%d got %s\n" % (port, line))
            try:
                key.fileobj.sendall(data)
            except OSError:
                pass


def client_udp(host, port, timeout, size=0):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(float(timeout))
    try:
        s.connect((host, int(port)))
        msg = ("hello %s\n" % port).encode()
        # a datagram larger than the MTU goes out in fragments
        msg += b"x" * max(0, int(size) - len(msg))
        s.send(msg)
        got = s.recv(65535)
        return "ok" if got == msg else "error:echo %r" % got
    except ConnectionRefusedError:
        return "refused"
    except (socket.timeout, TimeoutError):
        return "timeout"
    except OSError as e:
        return "error:%s" % e
    finally:
        s.close()


def client(host, port, timeout, proto="tcp", size=0):
    if proto == "udp":
        return client_udp(host, port, timeout, size)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(float(timeout))
    try:
        s.connect((host, int(port)))
    except ConnectionRefusedError:
        return "refused"
    except (socket.timeout, TimeoutError):
        return "timeout"
    except OSError as e:
        return "error:%s" % e
    try:
        msg = ("hello %s\n" % port).encode()
        s.sendall(msg)
        got = b""
        while len(got) < len(msg):
            d = s.recv(4096)
            if not d:
                return "closed"
            got += d
        return "ok" if got == msg else "error:echo %r" % got
    except ConnectionResetError:
        return "reset"
    except (socket.timeout, TimeoutError):
        return "timeout"
    except OSError as e:
        return "error:%s" % e
    finally:
        s.close()


def sniff(iface, path):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
    s.bind((iface, 0))
    s.settimeout(0.2)
    f = open(path, "wb")
    f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
    f.flush()
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    print("ready", flush=True)
    while not stop:
        try:
            data = s.recv(65535)
        except socket.timeout:
            continue
        except InterruptedError:
            continue
        t = time.time()
        f.write(struct.pack("<IIII", int(t), int((t % 1) * 1e6), len(data), len(data)))
        f.write(data)
        f.flush()
    f.close()


def records(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                out.append(json.loads(line))
    return out


def check(eve, name, drop, pas, rej, ref=None, urej=None):
    fails = 0

    def res(ok, what):
        nonlocal fails
        print("%s: live %s: %s" % ("PASS" if ok else "FAIL", name, what))
        fails += not ok

    recs = records(eve)
    alerts = [r for r in recs if r.get("event_type") == "alert"]
    drops = [r for r in recs if r.get("event_type") == "drop"]
    stats = [r for r in recs if r.get("event_type") == "stats"]
    by_sid = {}
    for a in alerts:
        by_sid.setdefault(a["alert"]["signature_id"], set()).add(a["alert"]["action"])
    for spec, what in ((drop, "drop"), (rej, "reject")) + (((urej, "udp reject"),) if urej else ()):
        sid, port = (int(x) for x in spec.split(":"))
        res(by_sid.get(sid) == {"blocked"},
            "the %s rule (sid %d) alerts with action blocked (%s)" % (what, sid, by_sid.get(sid)))
        n = sum(1 for d in drops if d.get("dest_port") == port and
                d.get("drop", {}).get("reason") == "rules")
        res(n >= 1, "drop records (reason rules) for the %s flow (%d)" % (what, n))
    pflow = [a for a in alerts if a.get("dest_port") == int(pas) or a.get("src_port") == int(pas)]
    res(not pflow, "the pass flow raised no alert (%d)" % len(pflow))
    if stats:
        ips = stats[-1].get("stats", {}).get("ips", {})
        nd = sum(1 for a in alerts if a["alert"]["signature_id"] == int(drop.split(":")[0]))
        rsids = {int(rej.split(":")[0])} | ({int(urej.split(":")[0])} if urej else set())
        nr = sum(1 for a in alerts if a["alert"]["signature_id"] in rsids)
        # a rule drops (and alerts on) the first packet of each drop and
        # reject flow, and the flow with it: its retransmissions are
        # blocked as "flow drop", without an alert (Suricata 8's verdict
        # model); every blocked packet has one reason. The reject flow's
        # SYN is refused at once; the pass flow's handshake, data, echo
        # and close are accepted.
        dr = ips.get("drop_reason", {})
        res(ips.get("blocked") == sum(dr.values()) and dr.get("rules") == nd + nr and
            ips.get("rejected") == nr == len(rsids) and ips.get("accepted", 0) >= 7,
            "ips counters: accepted %s (>= 7), blocked %s (the drop reasons' sum), rejected %s "
            "(one a reject rule), drop_reason %s (rules %d)" % (
                ips.get("accepted"), ips.get("blocked"), ips.get("rejected"), dr, nd + nr))
    else:
        res(False, "no stats record")
    if ref and ref != "-":
        ralerts = [r for r in records(ref) if r.get("event_type") == "alert"]
        a = sorted({(r["alert"]["signature_id"], r["alert"]["action"]) for r in alerts})
        b = sorted({(r["alert"]["signature_id"], r["alert"]["action"]) for r in ralerts})
        res(a == b, "--simulate-ips on the captured traffic gives the same verdicts "
            "(%s; simulated %s)" % (a, b))
    return 1 if fails else 0


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "server":
        server(args[0], args[1:])
    elif cmd == "client":
        print(client(*args[:5]), flush=True)
    elif cmd == "sniff":
        sniff(args[0], args[1])
    elif cmd == "check":
        sys.exit(check(*args))
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
