#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""ctlpoke.py - clients of xcable's control socket that misbehave, and
servers that never answer, for tests/t_ctl.sh

  ctlpoke.py trickle SOCK EVERY SECONDS   send "list" one byte every EVERY s,
                                          never a newline, for SECONDS at most
  ctlpoke.py silent SOCK N SECONDS        N connections that send nothing
  ctlpoke.py noread SOCK REQUEST SECONDS  send REQUEST, read nothing for
                                          SECONDS, then read what is left
  ctlpoke.py send SOCK TEXT SHUT SECONDS  send TEXT (Python escapes), shut
                                          the writing side if SHUT is 1, and
                                          read the answer for SECONDS at most
  ctlpoke.py mute SOCK accept|backlog SECONDS   a server that never answers
                                          (accepts and holds, or never
                                          accepts with its backlog full)
  ctlpoke.py freeze PID SECONDS           stop thread PID alone (ptrace), for
                                          SECONDS (a process's main thread:
                                          its other threads run on)

Each prints what happened, a line per event, flushed at once ("ready" when
set up), so that a test can wait for it in its output file.
"""
import ctypes
import os
import socket
import sys
import time


def out(*a):
    print(*a, flush=True)


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


def try_connect(path):
    """a non-blocking connection, or None if the listen backlog is full"""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.setblocking(False)
    try:
        s.connect(path)
        return s
    except BlockingIOError:
        s.close()
        return None


def closed_by_peer(s, wait):
    """True if the peer closed s (EOF) within wait seconds; the bytes read"""
    s.settimeout(wait)
    got = b""
    try:
        while True:
            b = s.recv(65536)
            if not b:
                return True, got
            got += b
    except (socket.timeout, BlockingIOError):
        return False, got
    except OSError:
        return True, got


def trickle(path, every, seconds):
    s = connect(path)
    t0 = time.monotonic()
    sent = 0
    out("ready")
    msg = b"list" + b"x" * 1000
    while time.monotonic() - t0 < seconds:
        try:
            s.send(msg[sent % len(msg):sent % len(msg) + 1])
            sent += 1
        except OSError as e:
            out("trickle: send failed after %.2f s: %s" % (time.monotonic() - t0, e))
            break
        gone, got = closed_by_peer(s, every)
        if gone:
            out("trickle: closed by xcable after %.2f s, %d bytes sent, %d bytes of answer %r"
                % (time.monotonic() - t0, sent, len(got), got[:60]))
            return
    out("trickle: still open after %.2f s, %d bytes sent" % (time.monotonic() - t0, sent))


def silent(path, n, seconds):
    socks, away = [], 0
    for _ in range(n):
        s = try_connect(path)
        if s:
            socks.append(s)
        else:
            away += 1
    t0 = time.monotonic()
    out("ready: %d connected, %d turned away (backlog full)" % (len(socks), away))
    closed = {}
    while time.monotonic() - t0 < seconds and len(closed) < len(socks):
        for i, s in enumerate(socks):
            if i in closed:
                continue
            try:
                if not s.recv(4096):
                    closed[i] = time.monotonic() - t0
            except BlockingIOError:
                pass
            except OSError:
                closed[i] = time.monotonic() - t0
        time.sleep(0.02)
    out("silent: %d of %d closed by xcable within %.1f s%s" % (
        len(closed), len(socks), seconds,
        ", the last after %.2f s" % max(closed.values()) if closed else ""))


def noread(path, req, seconds):
    s = connect(path)
    s.send(req.encode() + b"\n")
    out("ready")
    time.sleep(seconds)
    gone, got = closed_by_peer(s, 2)
    last = got.rstrip(b"\n").rsplit(b"\n", 1)[-1][:60]
    out("noread: %d bytes of answer after %.1f s, %s, last line %r"
        % (len(got), seconds, "closed" if gone else "still open", last))


def send(path, text, shut, seconds):
    s = connect(path)
    t0 = time.monotonic()
    s.send(text.encode().decode("unicode_escape").encode("latin-1"))
    if shut:
        s.shutdown(socket.SHUT_WR)
    gone, got = closed_by_peer(s, seconds)
    out("send: %s after %.2f s, answer %r" % ("closed" if gone else "still open",
                                               time.monotonic() - t0, got[:200]))


def mute(path, mode, seconds):
    ls = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    ls.bind(path)
    held = []
    if mode == "accept":
        ls.listen(8)
    else:
        # backlog 0 takes one connection: ours, never accepted
        ls.listen(0)
        for _ in range(4):
            c = try_connect(path)
            if c is None:
                break
            held.append(c)
    out("ready")
    t0 = time.monotonic()
    ls.settimeout(0.1)
    while time.monotonic() - t0 < seconds:
        if mode == "accept":
            try:
                held.append(ls.accept()[0])
            except socket.timeout:
                pass
        else:
            time.sleep(0.1)
    out("mute: %d client(s) held, none answered" % len(held))


def freeze(pid, seconds):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p,
                            ctypes.c_void_p]
    PTRACE_DETACH, PTRACE_SEIZE, PTRACE_INTERRUPT, WALL = 17, 0x4206, 0x4207, 0x40000000
    if libc.ptrace(PTRACE_SEIZE, pid, None, None) or \
       libc.ptrace(PTRACE_INTERRUPT, pid, None, None):
        sys.exit("freeze: ptrace: %s" % os.strerror(ctypes.get_errno()))
    os.waitpid(pid, WALL)
    out("ready: thread %d stopped" % pid)
    time.sleep(seconds)
    libc.ptrace(PTRACE_DETACH, pid, None, None)
    out("freeze: thread %d runs again after %.1f s" % (pid, seconds))


def main():
    a = sys.argv[1:]
    if len(a) == 4 and a[0] == "trickle":
        trickle(a[1], float(a[2]), float(a[3]))
    elif len(a) == 4 and a[0] == "silent":
        silent(a[1], int(a[2]), float(a[3]))
    elif len(a) == 4 and a[0] == "noread":
        noread(a[1], a[2], float(a[3]))
    elif len(a) == 5 and a[0] == "send":
        send(a[1], a[2], a[3] == "1", float(a[4]))
    elif len(a) == 4 and a[0] == "mute":
        mute(a[1], a[2], float(a[3]))
    elif len(a) == 3 and a[0] == "freeze":
        freeze(int(a[1]), float(a[2]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
