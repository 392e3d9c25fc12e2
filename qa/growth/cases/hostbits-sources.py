#!/usr/bin/python3
"""Growth case: one hostbits rule, N sources inside one /16 (qa/growth).

    hostbits-sources.py --sizes
    hostbits-sources.py N OUTDIR [--spread]

One SYN from each of N sources, all in 10.7.0.0/16, to one server; a
noalert rule sets a hostbit on every source (`hostbits:set,seen,src`) and a
second one asks for it on the same packet (`hostbits:isset,seen,src`), so
every SYN creates a host entry and looks it up again, and the host table
ends up holding N entries. --spread draws the sources from all of the
unicast IPv4 space instead (the first octet changing fastest), for the
/16's reference.

An address hash that keeps a few of the address's bits puts a /16 in one
chain and makes this quadratic (issue 43). Standard library only.
"""

import os
import struct
import sys

SERVER = bytes([192, 168, 200, 1])
RULES = ('alert tcp any any -> any any (msg:"growth: mark the source"; flags:S; '
	 'hostbits:set,seen,src; noalert; sid:4300011; rev:1;)\n'
	 'alert tcp any any -> any any (msg:"growth: source marked"; flags:S; '
	 'hostbits:isset,seen,src; sid:4300012; rev:1;)\n')


def csum(data):
	if len(data) & 1:
		data += b"\0"
	s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
	while s >> 16:
		s = (s & 0xFFFF) + (s >> 16)
	return ~s & 0xFFFF


def syn(src, sport):
	tcp = struct.pack("!HHIIBBHHH", sport, 80, 1000, 0, 5 << 4, 0x02, 65535, 0, 0)
	pseudo = src + SERVER + struct.pack("!BBH", 0, 6, len(tcp))
	tcp = tcp[:16] + struct.pack("!H", csum(pseudo + tcp)) + tcp[18:]
	ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 0, 0x4000, 64, 6, 0, src, SERVER)
	ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
	return bytes.fromhex("020000000001020000000002") + b"\x08\x00" + ip + tcp


def source(i, spread):
	if spread:
		first = [o for o in range(1, 224) if o != 127]
		k = len(first)
		return bytes([first[i % k], (i // k) & 0xFF, (i // k >> 8) & 0xFF, 1])
	return struct.pack("!I", 10 << 24 | 7 << 16 | (i + 1))


def write(n, outdir, spread):
	os.makedirs(outdir, exist_ok=True)
	step = max(1, 10 * 1000000 // max(1, n))
	t = 1700000000 * 1000000
	with open(os.path.join(outdir, "in.pcap"), "wb") as f:
		f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
		for i in range(n):
			pkt = syn(source(i, spread), 1024 + i % 60000)
			f.write(struct.pack("<IIII", t // 1000000, t % 1000000, len(pkt), len(pkt)))
			f.write(pkt)
			t += step
	with open(os.path.join(outdir, "rules"), "w") as f:
		f.write(RULES)


def main(argv):
	if len(argv) == 2 and argv[1] == "--sizes":
		print("5000 50000 4000 32000")
		return 0
	if len(argv) not in (3, 4) or (len(argv) == 4 and argv[3] != "--spread"):
		sys.stderr.write(__doc__)
		return 2
	n = int(argv[1])
	if not 0 < n <= 65534:
		sys.stderr.write("hostbits-sources: N must be 1..65534 (one /16)\n")
		return 2
	write(n, argv[2], len(argv) == 4)
	return 0


if __name__ == "__main__":
	sys.exit(main(sys.argv))
