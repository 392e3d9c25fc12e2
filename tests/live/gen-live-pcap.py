#!/usr/bin/python3
"""Write the captures of the live tests (tests/live/run.sh).

    gen-live-pcap.py traffic OUT.pcap    TCP/HTTP sessions and UDP datagrams, some jumbo
    gen-live-pcap.py idle OUT.pcap       a few UDP flows, then nothing
    gen-live-pcap.py idle2 OUT.pcap      idle's from other clients (10.41.0.x: the second
                                         interface of tests/live/multi-iface.sh)
    gen-live-pcap.py reload OUT.pcap     traffic's kind, longer: 480 TCP sessions and
                                         4000 UDP datagrams (tests/live/reload.sh)
    gen-live-pcap.py reload-a OUT.pcap   its first half, and reload-b the second (the
    gen-live-pcap.py reload-b OUT.pcap   timestamps go on): sent before and after a swap

traffic: 240 TCP sessions to 10.20.0.1:80 (handshake, one request, one response,
FIN both ways; every 3rd request carries "live-marker-A" in its URI, every 5th
response "live-marker-B" in its body, every 10th response is one 8000-byte
segment: the veth MTU is 9000) and 300 UDP datagrams to 10.20.0.2:5353 (every 4th
with "udp-marker", every 6th on VLAN 100), interleaved. tests/live/live.rules alerts on the markers.
Checksums are correct. Standard library only.
"""

import struct
import sys

SRV_MAC = bytes.fromhex("020000000001")
CLI_MAC = bytes.fromhex("020000000002")


def csum(data):
	if len(data) & 1:
		data += b"\0"
	s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
	while s >> 16:
		s = (s & 0xFFFF) + (s >> 16)
	return ~s & 0xFFFF


def ipv4(src, dst, proto, l4):
	hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(l4), 0, 0x4000, 64, proto, 0, src, dst)
	hdr = hdr[:10] + struct.pack("!H", csum(hdr)) + hdr[12:]
	return hdr + l4


def l4_csum(src, dst, proto, seg):
	return csum(src + dst + struct.pack("!BBH", 0, proto, len(seg)) + seg)


def tcp(src, sp, dst, dp, seq, ack, flags, payload=b""):
	seg = struct.pack("!HHIIBBHHH", sp, dp, seq, ack, 5 << 4, flags, 65535, 0, 0) + payload
	c = l4_csum(src, dst, 6, seg)
	return ipv4(src, dst, 6, seg[:16] + struct.pack("!H", c) + seg[18:])


def udp(src, sp, dst, dp, payload):
	seg = struct.pack("!HHHH", sp, dp, 8 + len(payload), 0) + payload
	c = l4_csum(src, dst, 17, seg) or 0xFFFF
	return ipv4(src, dst, 17, seg[:6] + struct.pack("!H", c) + seg[8:])


def eth(frm_client, ip, vlan=None):
	d, s = (SRV_MAC, CLI_MAC) if frm_client else (CLI_MAC, SRV_MAC)
	tag = struct.pack("!HH", 0x8100, vlan) if vlan is not None else b""
	return d + s + tag + b"\x08\x00" + ip


def tcp_session(i):
	cli = bytes([10, 10, i // 200, i % 200 + 1])
	srv = bytes([10, 20, 0, 1])
	sp = 20000 + i
	uri = b"/live-marker-A/%d" % i if i % 3 == 0 else b"/page/%d" % i
	req = b"GET " + uri + b" HTTP/1.1\r\nHost: live.test\r\nUser-Agent: live\r\n\r\n"
	if i % 10 == 0:
		body = (b"jumbo-%d " % i) * 1000
		body = body[:8000]
	else:
		body = b"hello %d " % i * 20
	if i % 5 == 0:
		body = b"live-marker-B " + body
	resp = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nContent-Type: text/plain\r\n\r\n" % len(body) + body
	cs, ss = 1000 + i, 500000 + i
	pk = []
	pk.append((1, tcp(cli, sp, srv, 80, cs, 0, 0x02)))
	pk.append((0, tcp(srv, 80, cli, sp, ss, cs + 1, 0x12)))
	pk.append((1, tcp(cli, sp, srv, 80, cs + 1, ss + 1, 0x10)))
	pk.append((1, tcp(cli, sp, srv, 80, cs + 1, ss + 1, 0x18, req)))
	pk.append((0, tcp(srv, 80, cli, sp, ss + 1, cs + 1 + len(req), 0x10)))
	pk.append((0, tcp(srv, 80, cli, sp, ss + 1, cs + 1 + len(req), 0x18, resp)))
	pk.append((1, tcp(cli, sp, srv, 80, cs + 1 + len(req), ss + 1 + len(resp), 0x10)))
	pk.append((1, tcp(cli, sp, srv, 80, cs + 1 + len(req), ss + 1 + len(resp), 0x11)))
	pk.append((0, tcp(srv, 80, cli, sp, ss + 1 + len(resp), cs + 2 + len(req), 0x11)))
	pk.append((1, tcp(cli, sp, srv, 80, cs + 2 + len(req), ss + 2 + len(resp), 0x10)))
	return [eth(c, ip) for c, ip in pk]


def udp_packet(i):
	cli = bytes([10, 30, i // 200, i % 200 + 1])
	srv = bytes([10, 20, 0, 2])
	data = (b"udp-marker %d" % i) if i % 4 == 0 else (b"query %d" % i)
	# every 6th on VLAN 100: the kernel strips the tag into the frame's
	# metadata, the capture must put it back
	return eth(1, udp(cli, 40000 + i % 50, srv, 5353, data + b"\0" * 20),
		   100 if i % 6 == 0 else None)


def traffic(n_tcp=240, n_udp=300):
	out = []
	sessions = [tcp_session(i) for i in range(n_tcp)]
	# interleave: sessions start a packet apart, so several are open at once
	cursors = []
	nxt = 0
	ui = 0
	while nxt < len(sessions) or cursors:
		if nxt < len(sessions) and len(cursors) < 8:
			cursors.append([sessions[nxt], 0])
			nxt += 1
		for c in list(cursors):
			out.append(c[0][c[1]])
			c[1] += 1
			if c[1] == len(c[0]):
				cursors.remove(c)
		if ui < n_udp:
			out.append(udp_packet(ui))
			ui += 1
	while ui < n_udp:
		out.append(udp_packet(ui))
		ui += 1
	return out


def idle(net=40):
	out = []
	for i in range(5):
		cli = bytes([10, net, 0, i + 1])
		srv = bytes([10, 20, 0, 3])
		out.append(eth(1, udp(cli, 30000 + i, srv, 9999, b"idle flow %d" % i)))
		out.append(eth(0, udp(srv, 9999, cli, 30000 + i, b"idle reply %d" % i)))
	return out


def write(path, frames, first=0):
	with open(path, "wb") as f:
		f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
		t = 1700000000.0
		for i, fr in enumerate(frames, first):
			ts = t + i * 0.001
			sec = int(ts)
			usec = int(round((ts - sec) * 1e6))
			f.write(struct.pack("<IIII", sec, usec, len(fr), len(fr)))
			f.write(fr)


if __name__ == "__main__":
	kind, path = sys.argv[1], sys.argv[2]
	if kind in ("reload-a", "reload-b"):
		frames = traffic(480, 4000)
		half = len(frames) // 2
		if kind == "reload-a":
			write(path, frames[:half])
		else:
			write(path, frames[half:], half)
	else:
		frames = {"traffic": traffic, "reload": lambda: traffic(480, 4000), "idle": idle,
			  "idle2": lambda: idle(41)}[kind]()
		write(path, frames)
