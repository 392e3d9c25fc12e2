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
Written with qa/growth/pcapw.py.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pcapw  # noqa: E402


def mail(i):
	"""One mail: the client's commands and message, each with its answer."""
	return ((b"MAIL FROM:<u%d@growth.example>\r\n" % i, b"250 2.1.0 Ok\r\n"),
		(b"RCPT TO:<inbox@growth.example>\r\n", b"250 2.1.5 Ok\r\n"),
		(b"DATA\r\n", b"354 End data with <CR><LF>.<CR><LF>\r\n"),
		(b"From: <u%d@growth.example>\r\nSubject: mail %d\r\n\r\n"
		 b"hello %d\r\nbye\r\n.\r\n" % (i, i, i),
		 b"250 2.0.0 Ok: queued as %X\r\n" % (i + 0x1000)))


def write(w, n):
	c = pcapw.Tcp(w, pcapw.addr(10, 43, 4, 1), pcapw.addr(10, 43, 4, 2), 40434, 25).open()
	c.server(b"220 mx.growth.example ESMTP\r\n")
	c.talk([(b"EHLO client.growth.example\r\n", b"250-mx.growth.example\r\n250 PIPELINING\r\n")])
	for i in range(n):
		c.talk(mail(i))
	c.talk([(b"QUIT\r\n", b"221 2.0.0 Bye\r\n")])
	c.close()
	return ('alert smtp any any -> any any (msg:"growth smtp every mail"; '
		'smtp.rcpt_to; content:"inbox@growth.example"; sid:4300221; rev:1;)\n'
		'alert smtp any any -> any any (msg:"growth smtp one sender"; '
		'smtp.mail_from; content:"<u%d@"; sid:4300222; rev:1;)\n' % (n // 2)), \
		"--set stream.reassembly.depth=0"


if __name__ == "__main__":
	pcapw.main(__doc__, (10000, 40000, 4000, 32000), write)
