#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
"""qmp.py SOCKET COMMAND [ARGUMENTS-JSON] - one QMP command to a QEMU

Connects to QEMU's QMP socket (-qmp unix:SOCKET,server=on,wait=off),
leaves capabilities negotiation, runs COMMAND with ARGUMENTS (a JSON
object) and prints what it returned as JSON on one line. Exit status 1
(and the error on stderr) if QEMU answered with an error, 2 if it could
not be reached. Events QEMU sends meanwhile are skipped.
"""
import json
import socket
import sys


def answer(f):
    """the next line QEMU sends that is not an event"""
    while True:
        line = f.readline()
        if not line:
            raise OSError("QEMU closed the connection")
        msg = json.loads(line)
        if "event" not in msg:
            return msg


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: qmp.py SOCKET COMMAND [ARGUMENTS-JSON]")
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(30)
        s.connect(sys.argv[1])
        f = s.makefile("rw")
        json.loads(f.readline())  # the greeting
        f.write(json.dumps({"execute": "qmp_capabilities"}) + "\n")
        f.flush()
        answer(f)
        cmd = {"execute": sys.argv[2]}
        if len(sys.argv) == 4:
            cmd["arguments"] = json.loads(sys.argv[3])
        f.write(json.dumps(cmd) + "\n")
        f.flush()
        msg = answer(f)
    except (OSError, ValueError) as e:
        print("qmp.py: %s: %s" % (sys.argv[1], e), file=sys.stderr)
        sys.exit(2)
    if "error" in msg:
        print("qmp.py: %s: %s" % (sys.argv[2], msg["error"].get("desc")),
              file=sys.stderr)
        sys.exit(1)
    print(json.dumps(msg.get("return")))


main()
