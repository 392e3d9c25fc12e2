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
  tls    N (default 100,000) TLS sessions alive at once (port 443): the
         handshake, a ClientHello, the server's first flight (ServerHello, a
         chain of three certificates, ServerHelloDone: tests/data/tls/chain),
         the client's ACK; none goes on or is closed.
  smtp   N (default 100,000) SMTP sessions alive at once (port 25): banner,
         EHLO and its reply, MAIL FROM, RCPT TO, DATA, each answered, then the
         headers and first lines of a multipart mail, acknowledged and never
         ended: every session holds a mail and its MIME decoder open.
  smb    N (default 100,000) SMB2 sessions alive at once (port 445): an SMB2
         NEGOTIATE request and its response, acknowledged, never closed.

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


def gen_turns(w, n, dport, turns):
	"""Every session's handshake, then each turn (to_server, bytes) of every
	session in turn, cut at 1400 bytes, each segment acknowledging what the
	other side sent; the last sender's data acknowledged at the end."""
	def sport(i):
		return 1024 + i % 60000

	cs = [1000 + i for i in range(n)]
	ss = [500000 + i for i in range(n)]
	for i in range(n):
		w.put(tcp_packet(client_addr(i), SERVER, sport(i), dport, cs[i], 0, SYN))
	for i in range(n):
		w.put(tcp_packet(SERVER, client_addr(i), dport, sport(i), ss[i], cs[i] + 1, SYN | ACK))
	cs = [c + 1 for c in cs]
	ss = [s + 1 for s in ss]
	for i in range(n):
		w.put(tcp_packet(client_addr(i), SERVER, sport(i), dport, cs[i], ss[i], ACK))
	last = True
	for to_server, data in turns:
		for off in range(0, len(data), 1400):
			chunk = data[off:off + 1400]
			for i in range(n):
				if to_server:
					w.put(tcp_packet(client_addr(i), SERVER, sport(i), dport, cs[i], ss[i],
							 PSH | ACK, chunk))
					cs[i] += len(chunk)
				else:
					w.put(tcp_packet(SERVER, client_addr(i), dport, sport(i), ss[i], cs[i],
							 PSH | ACK, chunk))
					ss[i] += len(chunk)
		last = to_server
	for i in range(n):
		if last:
			w.put(tcp_packet(SERVER, client_addr(i), dport, sport(i), ss[i], cs[i], ACK))
		else:
			w.put(tcp_packet(client_addr(i), SERVER, sport(i), dport, cs[i], ss[i], ACK))


def turn_packets(turns):
	return 4 + sum((len(d) + 1399) // 1400 for _, d in turns)


def tls_fixture(side, segs):
	import os
	path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "data",
			    "tls", "chain.%s.hex" % side)
	with open(path) as f:
		lines = [bytes.fromhex(x.strip()) for x in f if x.strip()]
	return b"".join(lines[:segs])


def tls_turns():
	# the ClientHello, then the server's flight up to ServerHelloDone
	return [(True, tls_fixture("c2s", 1)), (False, tls_fixture("s2c", 3))]


SMTP_HEADERS = (b"From: flood <a@bench.example>\r\nTo: b@bench.example\r\n"
		b"Subject: flood\r\nMIME-Version: 1.0\r\n"
		b"Content-Type: multipart/mixed; boundary=\"fb\"\r\n\r\n"
		b"--fb\r\nContent-Type: text/plain\r\n"
		b"Content-Transfer-Encoding: base64\r\n\r\n"
		b"aGVsbG8gZnJvbSB0aGUgZmxvb2QK\r\n")


def smtp_turns():
	return [(False, b"220 mx.bench.example ESMTP\r\n"),
		(True, b"EHLO client.bench.example\r\n"),
		(False, b"250-mx.bench.example\r\n250-PIPELINING\r\n250 SIZE 10000000\r\n"),
		(True, b"MAIL FROM:<a@bench.example>\r\n"), (False, b"250 OK\r\n"),
		(True, b"RCPT TO:<b@bench.example>\r\n"), (False, b"250 OK\r\n"),
		(True, b"DATA\r\n"), (False, b"354 go ahead\r\n"),
		(True, SMTP_HEADERS)]


def smb2(cmd, flags, msg_id, body):
	hdr = struct.pack("<4sHHIHHIIQIIQ16s", b"\xfeSMB", 64, 0, 0, cmd, 1, flags, 0, msg_id, 0, 0, 0,
			  b"\0" * 16)
	pdu = hdr + body
	return struct.pack("!I", len(pdu)) + pdu


def smb_turns():
	dialects = (0x0202, 0x0210, 0x0300, 0x0302, 0x0311)
	req = struct.pack("<HHHHI16sQ", 36, len(dialects), 1, 0, 0x7f, b"C" * 16, 0)
	req += b"".join(struct.pack("<H", d) for d in dialects)
	resp = struct.pack("<HHHH16sIIIIQQHHI", 65, 1, 0x0210, 0, b"S" * 16, 0x2f, 65536, 65536,
			   65536, 0, 0, 128, 0, 0)
	return [(True, smb2(0, 0, 0, req)), (False, smb2(0, 1, 0, resp))]


def turns_kind(dport, turns):
	def gen(w, n):
		gen_turns(w, n, dport, turns())
	return gen


KINDS = {"syn": (gen_syn, 300000, 1), "frag": (gen_frag, 200000, 1), "http": (gen_http, 100000, 5),
	 "tls": (turns_kind(443, tls_turns), 100000, turn_packets(tls_turns())),
	 "smtp": (turns_kind(25, smtp_turns), 100000, turn_packets(smtp_turns())),
	 "smb": (turns_kind(445, smb_turns), 100000, turn_packets(smb_turns()))}


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
