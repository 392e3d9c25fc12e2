#!/usr/bin/python3
"""Write the flood captures of qa/bench/floods.sh (not run in CI).

    flood-gen.py KIND OUT.pcap [N]

KIND:
  syn    N (default 300,000) SYNs, each from its own source address, to one
         server: N half-open flows and TCP sessions.
  frag   N (default 200,000) IPv4 first fragments (MF set, offset 0), each its
         own datagram id and source: N defrag trackers never completed.
  http   N (default 100,000) HTTP sessions alive at once: every SYN first, then
         every SYN/ACK, ACK, request, and the server's ACK of the request, five
         packets a session; none is answered or closed.

Every packet has correct checksums (checksum validation keeps them all) and
the whole capture spans 10 s of packet time, under every flow and defrag
timeout, so that at the last packet everything is alive at once. Prints the
number of packets written. Standard library only (struct): scapy takes
minutes for this many packets.
"""

import struct
import sys

SRV_MAC = bytes.fromhex("020000000001")
CLI_MAC = bytes.fromhex("020000000002")
SERVER = bytes([192, 168, 200, 1])
SYN, ACK, PSH = 0x02, 0x10, 0x08


def csum(data):
	if len(data) & 1:
		data += b"\0"
	s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
	while s >> 16:
		s = (s & 0xFFFF) + (s >> 16)
	return ~s & 0xFFFF


def ipv4(src, dst, proto, payload, ident=0, frag=0x4000):
	ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), ident, frag, 64, proto, 0,
			 src, dst)
	return ip[:10] + struct.pack("!H", csum(ip)) + ip[12:] + payload


def eth(to_server, l3):
	return (SRV_MAC + CLI_MAC if to_server else CLI_MAC + SRV_MAC) + b"\x08\x00" + l3


def tcp_packet(src, dst, sport, dport, seq, ack, flags, payload=b""):
	tcp = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, 5 << 4, flags, 65535, 0, 0) + payload
	pseudo = src + dst + struct.pack("!BBH", 0, 6, len(tcp))
	tcp = tcp[:16] + struct.pack("!H", csum(pseudo + tcp)) + tcp[18:]
	return eth(dst == SERVER, ipv4(src, dst, 6, tcp))


def client_addr(i):
	return struct.pack("!I", 10 << 24 | (i + 1))


class Writer:
	def __init__(self, path, total):
		self.f = open(path, "wb")
		self.f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
		self.t = 1700000000 * 1000000
		self.step = max(1, 10 * 1000000 // max(1, total))
		self.n = 0

	def put(self, pkt):
		self.f.write(struct.pack("<IIII", self.t // 1000000, self.t % 1000000, len(pkt),
					 len(pkt)))
		self.f.write(pkt)
		self.t += self.step
		self.n += 1

	def close(self):
		self.f.close()


def gen_syn(w, n):
	for i in range(n):
		w.put(tcp_packet(client_addr(i), SERVER, 1024 + i % 60000, 80, 1000 + i, 0, SYN))


def gen_frag(w, n):
	# 1480 bytes of a UDP datagram that would be 2960 long: the rest never comes
	udp = struct.pack("!HHHH", 5353, 53, 2968, 0) + b"F" * 1472
	for i in range(n):
		w.put(eth(True, ipv4(client_addr(i), SERVER, 17, udp, ident=i & 0xFFFF, frag=0x2000)))


def gen_http(w, n):
	def sport(i):
		return 1024 + i % 60000

	def req(i):
		return (b"GET /flood/%d HTTP/1.1\r\nHost: bench.example\r\n"
			b"User-Agent: flood-gen\r\nAccept: */*\r\n\r\n" % i)

	for i in range(n):
		w.put(tcp_packet(client_addr(i), SERVER, sport(i), 80, 1000 + i, 0, SYN))
	for i in range(n):
		w.put(tcp_packet(SERVER, client_addr(i), 80, sport(i), 500000 + i, 1001 + i, SYN | ACK))
	for i in range(n):
		w.put(tcp_packet(client_addr(i), SERVER, sport(i), 80, 1001 + i, 500001 + i, ACK))
	for i in range(n):
		w.put(tcp_packet(client_addr(i), SERVER, sport(i), 80, 1001 + i, 500001 + i,
				 PSH | ACK, req(i)))
	for i in range(n):
		w.put(tcp_packet(SERVER, client_addr(i), 80, sport(i), 500001 + i,
				 1001 + i + len(req(i)), ACK))


KINDS = {"syn": (gen_syn, 300000, 1), "frag": (gen_frag, 200000, 1), "http": (gen_http, 100000, 5)}


def main():
	if len(sys.argv) < 3 or sys.argv[1] not in KINDS:
		sys.exit(__doc__)
	gen, default, per = KINDS[sys.argv[1]]
	n = int(sys.argv[3]) if len(sys.argv) > 3 else default
	w = Writer(sys.argv[2], n * per)
	gen(w, n)
	w.close()
	print(w.n)


if __name__ == "__main__":
	main()
