#!/usr/bin/python3
"""A small client of the unix socket, written from Suricata's documentation of
its protocol ("Interacting via Unix Socket"): connect, send {"version": "0.2"},
read {"return": "OK"}, then one {"command": ..., "arguments": {...}} message per
command, each answer a JSON object ending with a newline.

    uclient.py SOCKET COMMAND [ARGS-JSON]     prints the answer (one line of JSON)
    uclient.py SOCKET --raw TEXT              sends TEXT after the handshake, prints
                                              what comes back ("" when the server
                                              closed the connection)
    uclient.py SOCKET --version V             the handshake with version V: prints
                                              the answer, or "closed"
Exit status 0 when an answer came back. Standard library only.
"""
import json
import socket
import sys


def read_answer(s):
	buf = b""
	while not buf.endswith(b"\n"):
		chunk = s.recv(65536)
		if not chunk:
			break
		buf += chunk
	return buf.decode()


def connect(path, version="0.2", timeout=60):
	s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
	s.settimeout(timeout)
	s.connect(path)
	s.sendall(json.dumps({"version": version}).encode())
	return s


def main(argv):
	if len(argv) < 3:
		print(__doc__, file=sys.stderr)
		return 2
	path = argv[1]
	if argv[2] == "--version":
		s = connect(path, argv[3])
		a = read_answer(s)
		print(a.strip() if a else "closed")
		return 0
	s = connect(path)
	hello = read_answer(s)
	if json.loads(hello).get("return") != "OK":
		print("handshake refused: " + hello, file=sys.stderr)
		return 1
	if argv[2] == "--raw":
		s.sendall(argv[3].encode())
		print(read_answer(s).strip())
		return 0
	msg = {"command": argv[2]}
	if len(argv) > 3:
		msg["arguments"] = json.loads(argv[3])
	s.sendall(json.dumps(msg).encode())
	a = read_answer(s)
	if not a:
		print("closed")
		return 1
	print(a.strip())
	return 0


if __name__ == "__main__":
	sys.exit(main(sys.argv))
