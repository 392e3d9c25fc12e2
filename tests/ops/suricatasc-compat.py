#!/usr/bin/python3
"""A client of the unix socket that talks exactly as Suricata's own
suricatasc does, written from its documentation and the socket's
("Interacting via Unix Socket", "suricatasc"), for the ops suite to check
the engine against what operators' tooling sends:

  - the handshake: {"version": "0.2"} as JSON text, no newline; an answer
    whose "return" is "NOK" refuses it;
  - framing: a message is JSON text with no terminator; an answer is read
    until it is complete JSON (not until a newline), so a server that
    splits an answer over several writes, or ends it without a newline,
    reads the same;
  - a command: {"command": NAME} plus "arguments" (an object) only when
    the command has some; suricatasc builds the arguments from the words
    after the name, by position, named and typed as in ARGS below (an
    integer is sent as a JSON number, a flag as true/false); a required
    one missing, or words for a command that takes none, is an error
    before anything is sent.

    suricatasc-compat.py [-c "COMMAND ARG..."] SOCKET
        as `suricatasc -c`: prints the answer as one line of JSON; exit 0
        when its "return" is "OK", 1 when "NOK", 2 on a usage error (an
        unknown command, missing arguments), 3 when the socket fails.
    suricatasc-compat.py --build "COMMAND ARG..."
        prints the message it would send (for the suite's own checks).
Standard library only.
"""
import json
import socket
import sys

VERSION = "0.2"
RECV_SIZE = 4096

# name: [(argument, type, required)], type "str", "int" or "bool"; in the
# order suricatasc takes the words. A command not here takes no argument.
_FILE = [("filename", "str", True), ("output-dir", "str", True), ("tenant", "int", False),
         ("continuous", "bool", False), ("delete-when-done", "bool", False)]
ARGS = {
    "pcap-file": _FILE,
    "pcap-file-continuous": [a for a in _FILE if a[0] != "continuous"],
    "iface-stat": [("iface", "str", True)],
    "conf-get": [("variable", "str", True)],
    "register-tenant-handler": [("id", "int", True), ("htype", "str", True),
                                ("hargs", "int", False)],
    "unregister-tenant-handler": [("id", "int", True), ("htype", "str", True),
                                  ("hargs", "int", False)],
    "register-tenant": [("id", "int", True), ("filename", "str", True)],
    "reload-tenant": [("id", "int", True), ("filename", "str", False)],
    "unregister-tenant": [("id", "int", True)],
    "add-hostbit": [("ipaddress", "str", True), ("hostbit", "str", True),
                    ("expire", "int", True)],
    "remove-hostbit": [("ipaddress", "str", True), ("hostbit", "str", True)],
    "list-hostbit": [("ipaddress", "str", True)],
    "memcap-set": [("config", "str", True), ("memcap", "str", True)],
    "memcap-show": [("config", "str", True)],
    "dataset-add": [("setname", "str", True), ("settype", "str", True),
                    ("datavalue", "str", True)],
    "dataset-remove": [("setname", "str", True), ("settype", "str", True),
                       ("datavalue", "str", True)],
    "dataset-lookup": [("setname", "str", True), ("settype", "str", True),
                       ("datavalue", "str", True)],
    "dataset-add-json": [("setname", "str", True), ("settype", "str", True),
                         ("datavalue", "str", True), ("datajson", "str", True)],
    "dataset-clear": [("setname", "str", True), ("settype", "str", True)],
    "get-flow-stats-by-id": [("flow_id", "int", True)],
}

# Suricata 8.0's 49 commands, the ones suricatasc knows without asking.
COMMANDS = """shutdown command-list help version uptime running-mode capture-mode conf-get
dump-counters reload-rules ruleset-reload-rules ruleset-reload-nonblocking ruleset-reload-time
ruleset-stats ruleset-failed-rules ruleset-profile ruleset-profile-start ruleset-profile-stop
register-tenant-handler unregister-tenant-handler register-tenant reload-tenant reload-tenants
unregister-tenant add-hostbit remove-hostbit list-hostbit reopen-log-files memcap-set
memcap-show memcap-list dataset-add dataset-remove get-flow-stats-by-id dataset-dump
dataset-clear dataset-lookup dataset-add-json iface-stat iface-list iface-bypassed-stat
ebpf-bypassed-stat pcap-file pcap-file-continuous pcap-file-number pcap-file-list
pcap-last-processed pcap-interrupt pcap-current""".split()


class UsageError(Exception):
    pass


def _typed(value, kind, name):
    if kind == "int":
        try:
            return int(value)
        except ValueError:
            raise UsageError("%s: not a number: %s" % (name, value))
    if kind == "bool":
        return value.lower() in ("true", "yes", "1")
    return value


def build(line):
    """(command, arguments or None) from a command line, as suricatasc."""
    words = line.split()
    if not words:
        raise UsageError("no command")
    cmd, rest = words[0], words[1:]
    if cmd not in COMMANDS:
        raise UsageError("Command not found: %s" % cmd)
    spec = ARGS.get(cmd, [])
    if len(rest) > len(spec):
        raise UsageError("%s: too many arguments" % cmd)
    args = {}
    for i, (name, kind, required) in enumerate(spec):
        if i < len(rest):
            args[name] = _typed(rest[i], kind, name)
        elif required:
            raise UsageError("Missing arguments: %s needs %s" % (cmd, name))
    if cmd == "pcap-file-continuous":
        args["continuous"] = True
    return cmd, (args or None)


def message(cmd, args):
    msg = {"command": cmd}
    if args:
        msg["arguments"] = args
    return json.dumps(msg)


def recv_json(sock):
    """One answer: bytes until they parse as JSON (None: closed first)."""
    data = b""
    while True:
        chunk = sock.recv(RECV_SIZE)
        if not chunk:
            return None
        data += chunk
        try:
            return json.loads(data.decode("utf-8"))
        except ValueError:
            continue


def connect(path, timeout=60):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    sock.connect(path)
    sock.sendall(json.dumps({"version": VERSION}).encode())
    hello = recv_json(sock)
    if not hello or hello.get("return") == "NOK":
        raise OSError("handshake refused: %r" % (hello,))
    return sock


def main(argv):
    if len(argv) == 3 and argv[1] == "--build":
        try:
            print(message(*build(argv[2])))
        except UsageError as e:
            print(e, file=sys.stderr)
            return 2
        return 0
    if len(argv) != 4 or argv[1] != "-c":
        print(__doc__, file=sys.stderr)
        return 2
    try:
        cmd, args = build(argv[2])
    except UsageError as e:
        print(e, file=sys.stderr)
        return 2
    try:
        sock = connect(argv[3])
        sock.sendall(message(cmd, args).encode())
        answer = recv_json(sock)
        sock.close()
    except OSError as e:
        print("socket: %s" % e, file=sys.stderr)
        return 3
    if answer is None:
        print("socket: closed without an answer", file=sys.stderr)
        return 3
    print(json.dumps(answer))
    return 0 if answer.get("return") == "OK" else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
