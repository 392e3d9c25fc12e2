#!/usr/bin/python3
"""Write a capture of many concurrent TCP sessions, to measure stream and HTTP memory.

    gen-flows-pcap.py OUT.pcap [HALF_OPEN] [OPEN]

HALF_OPEN sessions (default 100,000) send one SYN and nothing more. OPEN sessions
(default 100,000) complete the handshake and send an HTTP request that the server
acknowledges but never answers, so each holds a TCP session, unreassembled-to-the-end
stream segments and an open HTTP transaction. No session closes and the whole
capture spans 40 seconds of packet time, under every flow timeout: at the last
packet all sessions are alive at once.

Standard library only; checksums are correct, so checksum validation keeps every packet.
"""

import struct
import sys

SRV_MAC = bytes.fromhex("020000000001")
CLI_MAC = bytes.fromhex("020000000002")
SERVER = bytes([192, 168, 200, 1])


def csum(data):
	if len(data) & 1:
		data += b"\0"
	s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
	while s >> 16:
		s = (s & 0xFFFF) + (s >> 16)
	return ~s & 0xFFFF


def tcp_packet(src, dst, sport, dport, seq, ack, flags, payload=b""):
	tcp = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, 5 << 4, flags, 65535, 0, 0) + payload
	pseudo = src + dst + struct.pack("!BBH", 0, 6, len(tcp))
	tcp = tcp[:16] + struct.pack("!H", csum(pseudo + tcp)) + tcp[18:]
	ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp), 0, 0x4000, 64, 6, 0, src, dst)
	ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
	to_server = dst == SERVER
	eth = (SRV_MAC + CLI_MAC if to_server else CLI_MAC + SRV_MAC) + b"\x08\x00"
	return eth + ip + tcp


def client_addr(i):
	n = 10 << 24 | (i + 1)
	return struct.pack("!I", n)


SYN, ACK, PSH = 0x02, 0x10, 0x08


def main():
	if len(sys.argv) < 2:
		sys.exit("usage: gen-flows-pcap.py OUT.pcap [HALF_OPEN] [OPEN]")
	half_open = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
	opened = int(sys.argv[3]) if len(sys.argv) > 3 else 100000
	total = half_open + opened
	step_us = max(1, 40 * 1000000 // max(1, total))
	t0 = 1700000000 * 1000000
	with open(sys.argv[1], "wb") as f:
		f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
		t = t0

		def put(pkt):
			f.write(struct.pack("<IIII", t // 1000000, t % 1000000, len(pkt), len(pkt)))
			f.write(pkt)

		for i in range(total):
			cli = client_addr(i)
			sport = 1024 + i % 60000
			isn, srv_isn = 1000 + i, 500000 + i
			put(tcp_packet(cli, SERVER, sport, 80, isn, 0, SYN))
			if i >= half_open:
				req = (b"GET /flow/%d HTTP/1.1\r\nHost: bench.example\r\n"
				       b"User-Agent: gen-flows\r\n\r\n" % i)
				put(tcp_packet(SERVER, cli, 80, sport, srv_isn, isn + 1, SYN | ACK))
				put(tcp_packet(cli, SERVER, sport, 80, isn + 1, srv_isn + 1, ACK))
				put(tcp_packet(cli, SERVER, sport, 80, isn + 1, srv_isn + 1, PSH | ACK, req))
				put(tcp_packet(SERVER, cli, 80, sport, srv_isn + 1, isn + 1 + len(req), ACK))
			t += step_us


if __name__ == "__main__":
	main()
