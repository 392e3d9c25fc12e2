#!/usr/bin/python3
"""Growth case: N DNS queries on one TCP connection (port 53).

    dns-tcp-queries.py --sizes
    dns-tcp-queries.py N OUTDIR

One connection: the handshake, then N times a query for q<i>.growth.example
(two-byte length prefix, RFC 1035 4.2.2), its answer (one A record) that
ACKs it, and the client's ACK of the answer, then FIN both ways. Suricata 8
makes each message its own transaction: 2N transactions on one flow. The
rule on one name fires once, the one on the common suffix N times.

What it catches, beside http-keepalive.py's HTTP: per-message work in the
DNS parser, its transaction list or the generic walks (detection, logging,
gc) that grows with the transactions the flow ever had (issue 43, item 2).
Standard library only (struct), as qa/bench/flood-gen.py.
"""

import os
import struct
import sys

SRV_MAC = bytes.fromhex("020000000001")
CLI_MAC = bytes.fromhex("020000000002")
CLIENT = bytes([10, 43, 3, 1])
SERVER = bytes([10, 43, 3, 2])
SPORT, DPORT = 40433, 53
SYN, ACK, PSH, FIN = 0x02, 0x10, 0x08, 0x01


def csum(data):
	if len(data) & 1:
		data += b"\0"
	s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
	while s >> 16:
		s = (s & 0xFFFF) + (s >> 16)
	return ~s & 0xFFFF


def packet(to_server, seq, ack, flags, payload=b""):
	src, dst = (CLIENT, SERVER) if to_server else (SERVER, CLIENT)
	sp, dp = (SPORT, DPORT) if to_server else (DPORT, SPORT)
	tcp = struct.pack("!HHIIBBHHH", sp, dp, seq & 0xFFFFFFFF, ack & 0xFFFFFFFF, 5 << 4,
			  flags, 65535, 0, 0) + payload
	pseudo = src + dst + struct.pack("!BBH", 0, 6, len(tcp))
	tcp = tcp[:16] + struct.pack("!H", csum(pseudo + tcp)) + tcp[18:]
	ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 0, 0x4000, 64, 6, 0, src, dst)
	ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
	macs = SRV_MAC + CLI_MAC if to_server else CLI_MAC + SRV_MAC
	return macs + b"\x08\x00" + ip + tcp


class Writer:
	"""pcap at 50 us a packet: 80,000 queries span 12 s, under every timeout."""
	def __init__(self, path):
		self.f = open(path, "wb")
		self.f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
		self.t = 1700000000 * 1000000

	def put(self, pkt):
		self.f.write(struct.pack("<IIII", self.t // 1000000, self.t % 1000000, len(pkt),
					 len(pkt)))
		self.f.write(pkt)
		self.t += 50

	def close(self):
		self.f.close()


def name(i):
	out = b""
	for label in (b"q%d" % i, b"growth", b"example"):
		out += bytes([len(label)]) + label
	return out + b"\0"


def query(i):
	msg = struct.pack("!HHHHHH", i & 0xFFFF, 0x0100, 1, 0, 0, 0) + name(i) + \
		struct.pack("!HH", 1, 1)
	return struct.pack("!H", len(msg)) + msg


def answer(i):
	msg = struct.pack("!HHHHHH", i & 0xFFFF, 0x8180, 1, 1, 0, 0) + name(i) + \
		struct.pack("!HH", 1, 1) + \
		struct.pack("!HHHIH4s", 0xC00C, 1, 1, 300, 4, bytes([192, 0, 2, i % 250 + 1]))
	return struct.pack("!H", len(msg)) + msg


def write(n, outdir):
	w = Writer(os.path.join(outdir, "in.pcap"))
	c, s = 1000, 5000000
	w.put(packet(True, c, 0, SYN))
	w.put(packet(False, s, c + 1, SYN | ACK))
	c, s = c + 1, s + 1
	w.put(packet(True, c, s, ACK))
	for i in range(n):
		q, a = query(i), answer(i)
		w.put(packet(True, c, s, PSH | ACK, q))
		c += len(q)
		w.put(packet(False, s, c, PSH | ACK, a))
		s += len(a)
		w.put(packet(True, c, s, ACK))
	w.put(packet(True, c, s, FIN | ACK))
	w.put(packet(False, s, c + 1, FIN | ACK))
	w.put(packet(True, c + 1, s + 1, ACK))
	w.close()
	with open(os.path.join(outdir, "args"), "w") as f:
		f.write("--set stream.reassembly.depth=0\n")
	with open(os.path.join(outdir, "rules"), "w") as f:
		f.write('alert dns any any -> any any (msg:"growth dns every query"; '
			'dns.query; content:".growth.example"; endswith; sid:4300211; rev:1;)\n')
		f.write('alert dns any any -> any any (msg:"growth dns one query"; '
			'dns.query; content:"q%d.growth.example"; startswith; endswith; '
			'sid:4300212; rev:1;)\n' % (n // 2))


def main(argv):
	if len(argv) == 2 and argv[1] == "--sizes":
		print("20000 80000 8000 64000")
		return 0
	if len(argv) != 3:
		sys.stderr.write("usage: %s --sizes | N OUTDIR\n" % argv[0])
		return 2
	n = int(argv[1])
	os.makedirs(argv[2], exist_ok=True)
	write(n, argv[2])
	return 0


if __name__ == "__main__":
	sys.exit(main(sys.argv))
