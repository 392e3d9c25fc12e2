#!/usr/bin/python3
"""Growth case: one SMTP mail whose MIME parts nest N levels deep.

    smtp-mime-depth.py --sizes | N OUTDIR

Each level is a multipart/mixed part holding the next level and a small
attachment. The MIME decoder's boundary bookkeeping must cost a level O(1)
(or stop at a nesting limit, counted), not a walk of every open level per
line.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import pcapw  # noqa: E402


# a line of text per level, so that a level is measurable work
TEXT = b"growth " * 36


def mail(n):
	out = [b"From: a@growth.example\r\nTo: b@growth.example\r\nSubject: depth\r\n"
	       b"MIME-Version: 1.0\r\n"
	       b"Content-Type: multipart/mixed; boundary=\"b0\"\r\n\r\n"]
	for lvl in range(1, n + 1):
		out.append(b"--b%d\r\nContent-Type: text/plain\r\n\r\nlevel %d %s\r\n" % (lvl - 1, lvl, TEXT))
		out.append(b"--b%d\r\nContent-Type: multipart/mixed; boundary=\"b%d\"\r\n\r\n" %
			   (lvl - 1, lvl))
	out.append(b"--b%d\r\nContent-Type: application/octet-stream\r\n"
		   b"Content-Disposition: attachment; filename=\"deep.bin\"\r\n\r\nDEEP\r\n" % n)
	for lvl in range(n, -1, -1):
		out.append(b"--b%d--\r\n" % lvl)
	return b"".join(out) + b".\r\n"


def write(w, n):
	c = pcapw.Tcp(w, pcapw.addr(10, 9, 0, 1), pcapw.addr(192, 168, 202, 1), 40000, 25).open()
	c.server(b"220 growth.example ESMTP\r\n")
	for cmd, ans in ((b"EHLO client.example\r\n", b"250 growth.example\r\n"),
			 (b"MAIL FROM:<a@growth.example>\r\n", b"250 OK\r\n"),
			 (b"RCPT TO:<b@growth.example>\r\n", b"250 OK\r\n"),
			 (b"DATA\r\n", b"354 go ahead\r\n"),
			 (mail(n), b"250 queued\r\n"),
			 (b"QUIT\r\n", b"221 bye\r\n")):
		c.client(cmd)
		c.server(ans)
	c.close()
	return ('alert smtp any any -> any any (msg:"growth mime"; file.data; content:"DEEP"; '
		'sid:1;)\n'), "--set stream.reassembly.depth=0"   # the whole mail, past 1 MB


if __name__ == "__main__":
	pcapw.main(__doc__, (20000, 160000, 10000, 80000), write)
