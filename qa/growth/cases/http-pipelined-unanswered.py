#!/usr/bin/python3
"""Growth case: N HTTP requests pipelined on one connection, never answered.

    http-pipelined-unanswered.py --sizes
    http-pipelined-unanswered.py N OUTDIR

One connection: the handshake, then N GETs /item/<i>, each in its own
segment that the server ACKs without a byte of response, then FIN both
ways. Every request stays live (no response completes it).

What it catches: work per packet that grows with the live transactions
when nothing bounds them. app-layer.protocols.http.max-tx (512) does:
past it the request side is parsed no further, and the cost per request
stays flat (issue 43, item 2: 5,000 took 1.9 s and 20,000 53 s while the
key was read but not applied).
Standard library only (struct), as qa/bench/flood-gen.py.
"""

import os
import struct
import sys

SRV_MAC = bytes.fromhex("020000000001")
CLI_MAC = bytes.fromhex("020000000002")
CLIENT = bytes([10, 43, 5, 1])
SERVER = bytes([10, 43, 5, 2])
SPORT, DPORT = 40435, 80
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
	"""pcap at 50 us a packet: 80,000 requests span 12 s, under every timeout."""
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


def request(i):
	return (b"GET /item/%d HTTP/1.1\r\nHost: growth.example\r\n"
		b"User-Agent: growth/1\r\n\r\n" % i)


def write(n, outdir):
	w = Writer(os.path.join(outdir, "in.pcap"))
	c, s = 1000, 5000000
	w.put(packet(True, c, 0, SYN))
	w.put(packet(False, s, c + 1, SYN | ACK))
	c, s = c + 1, s + 1
	w.put(packet(True, c, s, ACK))
	for i in range(n):
		req = request(i)
		w.put(packet(True, c, s, PSH | ACK, req))
		c += len(req)
		w.put(packet(False, s, c, ACK))
	w.put(packet(True, c, s, FIN | ACK))
	w.put(packet(False, s, c + 1, FIN | ACK))
	w.put(packet(True, c + 1, s + 1, ACK))
	w.close()
	with open(os.path.join(outdir, "args"), "w") as f:
		f.write("--set stream.reassembly.depth=0\n")
	with open(os.path.join(outdir, "rules"), "w") as f:
		f.write('alert http any any -> any any (msg:"growth pipelined every request"; '
			'flow:established,to_server; http.uri; content:"/item/"; startswith; '
			'sid:4300231; rev:1;)\n')


def main(argv):
	if len(argv) == 2 and argv[1] == "--sizes":
		print("5000 20000 2000 16000")
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
