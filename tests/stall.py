#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# tests/stall.py PID COMM SECONDS - stop one thread of process PID (the one
# whose name is COMM, e.g. an lcore's "rte-worker-1") for SECONDS, as a
# host too busy to run it would, and let it go on: ptrace stops that
# thread alone (PTRACE_SEIZE, PTRACE_INTERRUPT), the others run on.
# Prints "stopped TID" once it is, "resumed" at the end. Needs root (or
# CAP_SYS_PTRACE).
import ctypes
import os
import sys
import time

PTRACE_DETACH, PTRACE_SEIZE, PTRACE_INTERRUPT = 17, 0x4206, 0x4207
WALL = 0x40000000

libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p,
                        ctypes.c_void_p]


def thread(pid, comm):
    """the id of PID's thread named COMM, or None"""
    for t in os.listdir("/proc/%d/task" % pid):
        with open("/proc/%d/task/%s/comm" % (pid, t)) as f:
            if f.read().strip() == comm:
                return int(t)
    return None


def ptrace(req, tid, what):
    """a ptrace request, or exit with what failed"""
    if libc.ptrace(req, tid, None, None) < 0:
        sys.exit("stall.py: %s: %s" % (what, os.strerror(ctypes.get_errno())))


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: stall.py PID COMM SECONDS")
    pid, comm, secs = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
    tid = thread(pid, comm)
    if tid is None:
        sys.exit("stall.py: process %d has no thread %s" % (pid, comm))
    ptrace(PTRACE_SEIZE, tid, "PTRACE_SEIZE")
    ptrace(PTRACE_INTERRUPT, tid, "PTRACE_INTERRUPT")
    os.waitpid(tid, WALL)
    print("stopped %d" % tid, flush=True)
    time.sleep(secs)
    ptrace(PTRACE_DETACH, tid, "PTRACE_DETACH")
    print("resumed", flush=True)


main()
