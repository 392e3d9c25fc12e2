"""Small pcap writer for the growth cases (standard library only).

A case builds its capture from these pieces: Writer (a pcap 2.4 file, one
microsecond step per packet by default so every flow stays alive), ipv4/udp
builders, Tcp, a connection that keeps both sides' sequence numbers so that a
case only says who sends what (talk(): request/answer exchanges, answers
withheld where a case wants them open), and source_syns()/spread_addr() for
the host-table cases. Checksums are correct: checksum validation keeps every
packet. scapy would take minutes for the sizes the full runs use. Every case
uses this module rather than a copy of its own (one place to fix a header).
"""

import struct

SYN, ACK, PSH, FIN, RST = 0x02, 0x10, 0x08, 0x01, 0x04
CLI_MAC = bytes.fromhex("020000000002")
SRV_MAC = bytes.fromhex("020000000001")


def csum(data):
	if len(data) & 1:
		data += b"\0"
	s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
	while s >> 16:
		s = (s & 0xFFFF) + (s >> 16)
	return ~s & 0xFFFF


def addr(a, b, c, d):
	return bytes([a, b, c, d])


def spread_addr(i):
	"""The i-th of distinct unicast addresses (not 127/8) whose first octet
	changes fastest: sources that differ in the high bits a weak address hash
	keeps, the well-spread reference for a case's N sources inside one /16."""
	first = [o for o in range(1, 224) if o != 127]
	k = len(first)
	return bytes([first[i % k], (i // k) & 0xFF, (i // k >> 8) & 0xFF, 1])


def ipv4(src, dst, proto, payload, ident=0):
	ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), ident & 0xFFFF, 0x4000, 64,
			 proto, 0, src, dst)
	return ip[:10] + struct.pack("!H", csum(ip)) + ip[12:] + payload


def eth(l3, to_server=True):
	return (SRV_MAC + CLI_MAC if to_server else CLI_MAC + SRV_MAC) + b"\x08\x00" + l3


def tcp(src, dst, sport, dport, seq, ack, flags, payload=b""):
	seg = struct.pack("!HHIIBBHHH", sport, dport, seq & 0xFFFFFFFF, ack & 0xFFFFFFFF, 5 << 4,
			  flags, 65535, 0, 0) + payload
	pseudo = src + dst + struct.pack("!BBH", 0, 6, len(seg))
	return ipv4(src, dst, 6, seg[:16] + struct.pack("!H", csum(pseudo + seg)) + seg[18:])


def udp(src, dst, sport, dport, payload):
	seg = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload
	pseudo = src + dst + struct.pack("!BBH", 0, 17, len(seg))
	return ipv4(src, dst, 17, seg[:6] + struct.pack("!H", csum(pseudo + seg) or 0xFFFF) + seg[8:])


class Writer:
	"""step: microseconds of packet time per packet (1 by default). A case
	that needs its capture to span a given time (e.g. to stay inside a
	threshold window yet not be instantaneous) sets w.step in its write()."""

	def __init__(self, path, step=1):
		self.f = open(path, "wb")
		self.f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
		self.t = 1700000000 * 1000000
		self.step = step
		self.n = 0

	def put(self, frame):
		self.f.write(struct.pack("<IIII", self.t // 1000000, self.t % 1000000, len(frame),
					 len(frame)))
		self.f.write(frame)
		self.t += self.step
		self.n += 1

	def close(self):
		self.f.close()


class Tcp:
	"""One TCP connection: handshake, data either way (each segment acked by
	the other side), and close. Segments over mss are split."""

	def __init__(self, w, cli, srv, sport, dport, mss=1400):
		self.w, self.cli, self.srv, self.sport, self.dport, self.mss = w, cli, srv, sport, dport, mss
		self.cseq, self.sseq = 1000, 500000

	def _c(self, flags, payload=b""):
		self.w.put(eth(tcp(self.cli, self.srv, self.sport, self.dport, self.cseq, self.sseq,
				   flags, payload), True))

	def _s(self, flags, payload=b""):
		self.w.put(eth(tcp(self.srv, self.cli, self.dport, self.sport, self.sseq, self.cseq,
				   flags, payload), False))

	def open(self):
		self.w.put(eth(tcp(self.cli, self.srv, self.sport, self.dport, self.cseq, 0, SYN), True))
		self.cseq += 1
		self._s(SYN | ACK)
		self.sseq += 1
		self._c(ACK)
		return self

	def client(self, data):
		for i in range(0, len(data), self.mss):
			part = data[i:i + self.mss]
			self._c(PSH | ACK, part)
			self.cseq += len(part)
			self._s(ACK)

	def server(self, data):
		for i in range(0, len(data), self.mss):
			part = data[i:i + self.mss]
			self._s(PSH | ACK, part)
			self.sseq += len(part)
			self._c(ACK)

	def talk(self, exchanges):
		"""Client message, then the server's answer, for each (ask, answer) of
		exchanges (any iterable, so a case with N of them holds none in
		memory). An answer of None withholds it: the server only ACKs, and the
		request stays open (an unanswered pipeline)."""
		for ask, answer in exchanges:
			self.client(ask)
			if answer is not None:
				self.server(answer)

	def close(self):
		self._c(FIN | ACK)
		self.cseq += 1
		self._s(FIN | ACK)
		self.sseq += 1
		self._c(ACK)


def source_syns(w, n, dst, spread=False):
	"""One SYN from each of n sources to dst:80, over 10 s of packet time
	(inside a 60 s threshold window, yet not one instant): 10.7.0.0/16, or
	spread_addr()'s sources for the reference. The host/threshold table
	cases: every SYN is a new source's entry, created and looked up."""
	w.step = max(1, 10 * 1000000 // n)
	for i in range(n):
		src = spread_addr(i) if spread else addr(10, 7, (i + 1) >> 8, (i + 1) & 0xFF)
		w.put(eth(tcp(src, dst, 1024 + i % 60000, 80, 1000, 0, SYN)))


def main(doc, sizes, write, flags=(), max_n=None):
	"""The growth-case command line: `--sizes` or `N OUTDIR` (qa/growth/run.py).

	flags: optional trailing words a case accepts after OUTDIR (e.g. --spread,
	for a by-hand reference run); write(w, n, given) then gets the set given.
	max_n: the largest N the case can build (e.g. the hosts of one /16)."""
	import os
	import sys

	argv = sys.argv[1:]
	if argv == ["--sizes"]:
		print(" ".join(str(s) for s in sizes))
		return
	if len(argv) < 2 or any(a not in flags for a in argv[2:]):
		sys.exit(doc)
	n, out = int(argv[0]), argv[1]
	if n < 1 or (max_n is not None and n > max_n):
		sys.exit("N must be 1..%s" % (max_n or "any"))
	os.makedirs(out, exist_ok=True)
	w = Writer(os.path.join(out, "in.pcap"))
	rules, args = write(w, n, set(argv[2:])) if flags else write(w, n)
	w.close()
	with open(os.path.join(out, "rules"), "w") as f:
		f.write(rules)
	if args:
		with open(os.path.join(out, "args"), "w") as f:
			f.write(args + "\n")
