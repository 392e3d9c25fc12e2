#!/usr/bin/python3
"""Growth case: N mails in one SMTP session.

    smtp-mails-per-session.py --sizes
    smtp-mails-per-session.py N OUTDIR

One connection: banner, EHLO, then N times MAIL FROM, RCPT TO, DATA and a
short message (its own Subject and a two-line body) each answered by the
server, then QUIT. Each mail is one transaction (Suricata's): N on one flow.
The rule on one sender fires once, the one on the common domain N times.

What it catches, beside http-keepalive.py's HTTP: per-mail work in the SMTP
parser, its transaction list, MIME or the generic walks (detection, logging,
gc) that grows with the mails the session ever carried (issue 43, item 2).
Standard library only (struct), as qa/bench/flood-gen.py.
"""

import os
import struct
import sys

SRV_MAC = bytes.fromhex("020000000001")
CLI_MAC = bytes.fromhex("020000000002")
CLIENT = bytes([10, 43, 4, 1])
SERVER = bytes([10, 43, 4, 2])
SPORT, DPORT = 40434, 25
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
	"""pcap at 20 us a packet: 80,000 mails span 13 s, under every timeout."""
	def __init__(self, path):
		self.f = open(path, "wb")
		self.f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
		self.t = 1700000000 * 1000000

	def put(self, pkt):
		self.f.write(struct.pack("<IIII", self.t // 1000000, self.t % 1000000, len(pkt),
					 len(pkt)))
		self.f.write(pkt)
		self.t += 20

	def close(self):
		self.f.close()


def write(n, outdir):
	w = Writer(os.path.join(outdir, "in.pcap"))
	c, s = 1000, 5000000

	def client(data):
		nonlocal c
		w.put(packet(True, c, s, PSH | ACK, data))
		c += len(data)

	def server(data):
		nonlocal s
		w.put(packet(False, s, c, PSH | ACK, data))
		s += len(data)

	w.put(packet(True, c, 0, SYN))
	w.put(packet(False, s, c + 1, SYN | ACK))
	c, s = c + 1, s + 1
	w.put(packet(True, c, s, ACK))
	server(b"220 mx.growth.example ESMTP\r\n")
	client(b"EHLO client.growth.example\r\n")
	server(b"250-mx.growth.example\r\n250 PIPELINING\r\n")
	for i in range(n):
		client(b"MAIL FROM:<u%d@growth.example>\r\n" % i)
		server(b"250 2.1.0 Ok\r\n")
		client(b"RCPT TO:<inbox@growth.example>\r\n")
		server(b"250 2.1.5 Ok\r\n")
		client(b"DATA\r\n")
		server(b"354 End data with <CR><LF>.<CR><LF>\r\n")
		client(b"From: <u%d@growth.example>\r\nSubject: mail %d\r\n\r\n"
		       b"hello %d\r\nbye\r\n.\r\n" % (i, i, i))
		server(b"250 2.0.0 Ok: queued as %X\r\n" % (i + 0x1000))
	client(b"QUIT\r\n")
	server(b"221 2.0.0 Bye\r\n")
	w.put(packet(True, c, s, FIN | ACK))
	w.put(packet(False, s, c + 1, FIN | ACK))
	w.put(packet(True, c + 1, s + 1, ACK))
	w.close()
	with open(os.path.join(outdir, "args"), "w") as f:
		f.write("--set stream.reassembly.depth=0\n")
	with open(os.path.join(outdir, "rules"), "w") as f:
		f.write('alert smtp any any -> any any (msg:"growth smtp every mail"; '
			'smtp.rcpt_to; content:"inbox@growth.example"; sid:4300221; rev:1;)\n')
		f.write('alert smtp any any -> any any (msg:"growth smtp one sender"; '
			'smtp.mail_from; content:"<u%d@"; sid:4300222; rev:1;)\n' % (n // 2))


def main(argv):
	if len(argv) == 2 and argv[1] == "--sizes":
		print("10000 40000 4000 32000")
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
